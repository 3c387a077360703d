import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTrackerServer, type TrackerServer } from '../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../src/devices/tracker-sink.js';
import { teltonikaProtocol } from '../../src/devices/teltonika/teltonika-protocol.js';
import { assertRefusedUnchanged, read } from '../helpers/bad-input.js';
import { createEmployee, SUBSCRIBERS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TrackerClient } from '../helpers/tracker-client.js';
import { teltonikaHandshake, teltonikaPacket } from '../../scripts/trackers/tracker-encoders.js';

const T0 = Date.parse('2024-05-20T10:00:00Z');
/** A CAN tracker: fuel in 0.1 l under IO 84, ignition read from digital input 1, no sensors. */
const CAN_MAP = { fuelLevel: { input: 'io84', scale: 0.1 }, ignition: { input: 'io1' }, sensors: [] };

for (const dialect of dialects) {
  describe(`vehicleSettings.readingMap on ${dialect}`, () => {
    let server: TestServer;
    let listener: TrackerServer;

    before(async () => {
      server = await startServer(dialect, { now: T0 });
      listener = await startTrackerServer({ protocol: teltonikaProtocol, sink: serviceTrackerSink(server.services), host: '127.0.0.1', clock: () => T0 });
    });
    after(async () => {
      await listener?.close();
      await server?.close();
    });

    it('is stored, answered, replaced by PATCH and cleared with null', async () => {
      const id = await createEmployee(server.api, { name: 'Tanker', vehicleSettings: { readingMap: CAN_MAP } });
      const path = `${SUBSCRIBERS}/${id}`;
      assert.deepEqual((await server.api.get(path)).body.vehicleSettings.readingMap, CAN_MAP);
      const odometerOnly = { odometer: { input: 'io87', scale: 0.001 } };
      assert.equal((await server.api.patch(path, { vehicleSettings: { readingMap: odometerOnly } })).status, 200);
      assert.deepEqual((await server.api.get(path)).body.vehicleSettings.readingMap, odometerOnly);
      assert.equal((await server.api.patch(path, { vehicleSettings: { readingMap: null } })).status, 200);
      assert.equal((await server.api.get(path)).body.vehicleSettings.readingMap, null);
    });

    it('refuses a malformed map and changes nothing', async () => {
      const id = await createEmployee(server.api, { name: 'Tipper', vehicleSettings: { readingMap: CAN_MAP } });
      const path = `${SUBSCRIBERS}/${id}`;
      const refusals: [unknown, number][] = [
        [{ fuelLevel: { scale: 0.1 } }, 52], // a required field missing (CONTRACT §1)
        [{ fuelLevel: { input: 'io 84' } }, 2],
        [{ ignition: { input: 'io1', above: 'high' } }, 2],
        [{ sensors: [{ sensorID: -1, input: 'io9' }] }, 2],
        [{ sensors: { sensorID: 1, input: 'io9' } }, 2],
      ];
      for (const [readingMap, code] of refusals) {
        await assertRefusedUnchanged(() => read(server.api, path), () => server.api.patch(path, { vehicleSettings: { readingMap } }), { code }, JSON.stringify(readingMap));
      }
    });

    it('is what a native tracker of the employee is read with', async () => {
      const imei = dialect === 'sqlite' ? '352093081111111' : '352093082222222';
      const subscriberID = await createEmployee(server.api, { name: 'Fuel truck', deviceKey: imei, vehicleSettings: { readingMap: CAN_MAP } });
      const client = await TrackerClient.connect(listener.port);
      try {
        await client.send(Buffer.concat([teltonikaHandshake(imei), teltonikaPacket([{ timeMs: T0, latitude: 55, longitude: 37, satellites: 8, io: { 84: [2, 455], 1: [1, 1], 239: [1, 0], 201: [2, 99], 9: [2, 5000] } }])]));
        assert.deepEqual(await client.readBytes(5), Buffer.from([1, 0, 0, 0, 1]));
      } finally {
        client.close();
      }
      const row = await server.database.db
        .selectFrom('locations')
        .select(['fuel_level', 'ignition', 'external_power', 'sensors'])
        .where('subscriber_id', '=', subscriberID)
        .executeTakeFirstOrThrow();
      // Fuel and ignition from the employee's map, external power still the protocol default's (absent here).
      assert.deepEqual({ ...row, ignition: Boolean(row.ignition) }, { fuel_level: 45.5, ignition: true, external_power: null, sensors: null });
    });
  });
}
