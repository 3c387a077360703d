import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { egtsProtocol } from '../../src/devices/egts/egts-protocol.js';
import { teltonikaProtocol } from '../../src/devices/teltonika/teltonika-protocol.js';
import { startTrackerServer, type TrackerServer } from '../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../src/devices/tracker-sink.js';
import { wialonIpsProtocol } from '../../src/devices/wialon-ips/wialon-ips-protocol.js';
import { egtsPacket, egtsRecord, liquidLevel, posData, readEgtsPacket, stateData, termIdentity } from '../../scripts/trackers/egts-encoder.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TrackerClient } from '../helpers/tracker-client.js';
import { teltonikaHandshake, teltonikaPacket, wialonLine, wialonLogin, wialonRecord } from '../../scripts/trackers/tracker-encoders.js';

const T0 = Date.parse('2024-05-20T10:00:00Z');
const WIDE = 'dateFrom=2000-01-01T00:00:00Z&dateTo=2100-01-01T00:00:00Z';
const at = (i: number) => T0 + i * 30_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', '+00:00');

for (const dialect of dialects) {
  describe(`trackers into the store on ${dialect}`, () => {
    let server: TestServer;
    const listeners: TrackerServer[] = [];
    const clients: TrackerClient[] = [];
    let ports: Record<'egts' | 'wialon' | 'teltonika', number>;

    before(async () => {
      server = await startServer(dialect, { now: T0 + 3_600_000 });
      const sink = serviceTrackerSink(server.services);
      const clock = () => T0 + 3_600_000;
      const [egts, wialon, teltonika] = await Promise.all(
        [egtsProtocol, wialonIpsProtocol, teltonikaProtocol].map((protocol) => startTrackerServer({ protocol, sink, host: '127.0.0.1', clock })),
      );
      listeners.push(egts!, wialon!, teltonika!);
      ports = { egts: egts!.port, wialon: wialon!.port, teltonika: teltonika!.port };
    });
    after(async () => {
      for (const client of clients) client.close();
      await Promise.all(listeners.map((l) => l.close()));
      await server?.close();
    });

    async function connect(port: number) {
      const client = await TrackerClient.connect(port);
      clients.push(client);
      return client;
    }

    /** Locations of the employee through the v6 API, oldest first. */
    async function listed(subscriberID: number) {
      const response = await server.api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=1000&${WIDE}`);
      assert.equal(response.status, 200, response.text);
      return (response.body as any[]).reverse();
    }

    /** The vehicle readings the store kept (the v6 location listing does not show them). */
    async function readings(subscriberID: number) {
      const rows = await server.database.db
        .selectFrom('locations')
        .select(['fuel_level', 'ignition', 'external_power', 'odometer', 'engine_hours', 'sensors'])
        .where('subscriber_id', '=', subscriberID)
        .orderBy('location_date')
        .execute();
      return rows.map((r) => ({ ...r, ignition: r.ignition === null ? null : Boolean(r.ignition), external_power: r.external_power === null ? null : Boolean(r.external_power), sensors: r.sensors && JSON.parse(r.sensors) }));
    }

    it('Teltonika: a batch is committed before its acknowledgement, with its readings; a re-sent packet is stored once', async () => {
      const imei = `35630704244${dialect === 'sqlite' ? '1013' : '2013'}`;
      const subscriberID = await createEmployee(server.api, { name: 'Truck 1', deviceKey: imei });
      const packet = teltonikaPacket(
        [0, 1, 2].map((i) => ({ timeMs: at(i), latitude: 55.75 + i * 0.01, longitude: 37.61, angle: 90, satellites: 10, speedKmh: 60, io: { 239: [1, 1], 66: [2, i === 2 ? 0 : 12_700], 16: [4, 1_000_000 + i * 500], 201: [2, 120 - i], 9: [2, 2500] } })),
        0x8e,
      );
      const client = await connect(ports.teltonika);
      await client.send(teltonikaHandshake(imei));
      assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
      await client.send(packet);
      assert.deepEqual(await client.readBytes(4), Buffer.from([0, 0, 0, 3]));
      // Read at once, no polling: the acknowledgement came after the commit.
      const locations = await listed(subscriberID);
      assert.deepEqual(locations.map((l) => [l.locationDate, l.latitude, l.velocity, l.isValid]), [0, 1, 2].map((i) => [iso(at(i)), 55.75 + i * 0.01, 60, true]));
      assert.deepEqual((await readings(subscriberID))[2], { fuel_level: 118, ignition: true, external_power: false, odometer: 1001, engine_hours: null, sensors: [{ sensorID: 1, value: 2.5 }] });

      // The connection dropped before the tracker saw the ack: it sends the same packet again.
      const again = await connect(ports.teltonika);
      await again.send(Buffer.concat([teltonikaHandshake(imei), packet]));
      assert.deepEqual(await again.readBytes(5), Buffer.from([1, 0, 0, 0, 3]));
      assert.equal((await listed(subscriberID)).length, 3);
    });

    it('Wialon IPS 2.0: login, a record and a black box stored in order', async () => {
      const imei = `86000000000${dialect === 'sqlite' ? '0001' : '0002'}`;
      const subscriberID = await createEmployee(server.api, { name: 'Van 2', deviceKey: imei });
      const record = (i: number) => wialonRecord({ timeMs: at(i), latitude: 59.93, longitude: 30.31 + i * 0.01, speedKmh: 35, course: 10, height: 5, sats: 12, params: { fuel: [2, 70.5], ign: [1, 1], pwr_ext: [2, 13.9], odometer: [2, 2500.5] } });
      const client = await connect(ports.wialon);
      await client.send(wialonLogin(imei, 'NA', '2.0'));
      assert.equal(await client.readLine(), '#AL#1\r\n');
      await client.send(wialonLine('D', record(0), '2.0'));
      assert.equal(await client.readLine(), '#AD#1\r\n');
      await client.send(wialonLine('B', [record(1), record(2)].join('|'), '2.0', '|'));
      assert.equal(await client.readLine(), '#AB#2\r\n');
      const locations = await listed(subscriberID);
      assert.deepEqual(locations.map((l) => l.locationDate), [0, 1, 2].map((i) => iso(at(i))));
      assert.deepEqual((await readings(subscriberID))[0], { fuel_level: 70.5, ignition: true, external_power: true, odometer: 2500.5, engine_hours: null, sensors: null });
    });

    it('EGTS: authentication, then several records confirmed and stored', async () => {
      const imei = `86449503464${dialect === 'sqlite' ? '3376' : '3377'}`;
      const subscriberID = await createEmployee(server.api, { name: 'Bus 3', deviceKey: imei });
      const client = await connect(ports.egts);
      await client.send(egtsPacket(egtsRecord({ number: 1, serviceType: 1, subrecords: [termIdentity(9, imei)] }), { packetId: 1 }));
      readEgtsPacket(await client.readEgtsPacket());
      assert.equal(readEgtsPacket(await client.readEgtsPacket()).records[0]!.subrecords[0]!.data[0], 0);
      const records = [0, 1].map((i) =>
        egtsRecord({ number: 2 + i, serviceType: 2, subrecords: [posData({ timeMs: at(i), latitude: 43.1, longitude: 131.9, speedKmh: 45, angle: 180, odometerKm: 500 + i, inputs: 1 }), stateData(24.5, 4, 4), liquidLevel(1, 2, 2_000 - i * 10)] }),
      );
      await client.send(egtsPacket(Buffer.concat(records), { packetId: 2 }));
      const response = readEgtsPacket(await client.readEgtsPacket());
      assert.deepEqual(response.response, { packetId: 2, result: 0 });
      const locations = await listed(subscriberID);
      assert.deepEqual(locations.map((l) => [l.locationDate, l.velocity, l.angle]), [0, 1].map((i) => [iso(at(i)), 45, 180]));
      assert.deepEqual(
        (await readings(subscriberID)).map((r) => [r.fuel_level, r.ignition, r.external_power, r.odometer]),
        [[200, true, true, 500], [199, true, true, 501]],
      );
    });

    it('refuses a terminal no employee has, and stores nothing for it', async () => {
      const before = (await server.api.get(`${LOCATIONS}?count=1000&${WIDE}`)).body.length;
      const client = await connect(ports.teltonika);
      await client.send(teltonikaHandshake('000000000000000'));
      assert.deepEqual(await client.readBytes(1), Buffer.from([0]));
      await client.expectClosed();
      assert.equal((await server.api.get(`${LOCATIONS}?count=1000&${WIDE}`)).body.length, before);
    });
  });
}
