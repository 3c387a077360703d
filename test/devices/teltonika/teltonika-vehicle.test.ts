import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { teltonikaProtocol } from '../../../src/devices/teltonika/teltonika-protocol.js';
import { startTrackerServer, type TrackerServer } from '../../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../../src/devices/tracker-sink.js';
import { createEmployee, startServer, type TestServer } from '../../helpers/server.js';
import { dialects } from '../../helpers/stores.js';
import { TrackerClient } from '../../helpers/tracker-client.js';
import { teltonikaHandshake, teltonikaPacket, type TeltonikaRecordSpec } from '../../../scripts/trackers/tracker-encoders.js';
import { createRule, signalsOf, T0, Trip, type FixBody } from '../../signals/signal-api.js';

const BASE = '/v6/api/globalPositioningManagement';
const RANGE = 'dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-20T23:59:59Z';
const FILLING_L = 50;

/** A fix of the trip as the Teltonika tracker in the van reports it: LLS fuel (IO 201), ignition (239), external voltage in mV (66). */
function asRecord(fix: FixBody): TeltonikaRecordSpec {
  return {
    timeMs: Date.parse(fix.locationDate),
    latitude: fix.latitude,
    longitude: fix.longitude,
    speedKmh: Math.round(Number(fix.velocity)),
    angle: 90,
    satellites: 11,
    io: { 201: [2, Number(fix.fuelLevel)], 239: [1, fix.ignition ? 1 : 0], 66: [2, fix.externalPower ? 12_700 : 0] },
  };
}

for (const dialect of dialects) {
  describe(`a Teltonika van drives, refuels and loses power, on ${dialect}`, () => {
    let server: TestServer;
    let listener: TrackerServer;
    let van: number;
    let powerRule: number;
    const imei = dialect === 'sqlite' ? '359633100000001' : '359633100000002';

    before(async () => {
      const endMs = T0 + 40 * 60_000;
      server = await startServer(dialect, { now: endMs });
      listener = await startTrackerServer({ protocol: teltonikaProtocol, sink: serviceTrackerSink(server.services), host: '127.0.0.1', clock: () => endMs });
      van = await createEmployee(server.api, { name: 'Van', deviceKey: imei });
      powerRule = await createRule(server.api, { name: 'Power cut', kind: 7, subscriberIDs: [van] });

      const on = { ignition: true, externalPower: true };
      let fuel = 40;
      const trip = new Trip(van, T0)
        .park(60, () => ({ ...on, fuelLevel: fuel }))
        .drive(5 * 60, 50, () => ({ ...on, fuelLevel: fuel }))
        .park(6 * 60, (i) => {
          if (i === 12) fuel += FILLING_L; // the pump, two minutes after stopping
          return { ignition: false, externalPower: true, fuelLevel: fuel };
        })
        .drive(4 * 60, 50, () => ({ ...on, fuelLevel: fuel }))
        .park(3 * 60, (i) => ({ ignition: false, externalPower: i < 6, fuelLevel: fuel }));

      // Online: a packet a minute, each acknowledged before the next, as the tracker does.
      const client = await TrackerClient.connect(listener.port);
      await client.send(teltonikaHandshake(imei));
      assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
      for (let i = 0; i < trip.fixes.length; i += 6) {
        const batch = trip.fixes.slice(i, i + 6).map(asRecord);
        await client.send(teltonikaPacket(batch, 0x8e));
        assert.equal((await client.readBytes(4)).readUInt32BE(0), batch.length);
      }
      client.close();
    });
    after(async () => {
      await listener?.close();
      await server?.close();
    });

    it('its drives are tracks', async () => {
      const tracks = (await server.api.get(`${BASE}/tracks?subscriberIDs=${van}&${RANGE}`)).body;
      assert.equal(tracks.length, 2, JSON.stringify(tracks));
      assert.ok(tracks.every((t: any) => t.distance > 3000));
    });

    it('the refuelling is a fuel-filling event of about the litres pumped', async () => {
      const body = (await server.api.get(`${BASE}/events?subscriberIDs=${van}&startDate=2026-05-20T00:00:00Z&finishDate=2026-05-20T23:59:59Z`)).body;
      const events = body.data[0].events;
      assert.deepEqual(events.map((e: any) => e.type), [1]);
      assert.ok(Math.abs(events[0].value - FILLING_L) <= 1, JSON.stringify(events[0]));
    });

    it('statistics count the engine hours from ignition and the distance', async () => {
      const [day] = (await server.api.get(`${BASE}/statistics?subscriberIDs=${van}&interval=1&${RANGE}`)).body.data[0].statistics;
      // Ignition was on for 1 + 5 + 4 minutes.
      assert.ok(Math.abs(day.engineMotohours - 10 / 60) < 0.01, JSON.stringify(day));
      assert.ok(day.totalVehicleDistance > 6, JSON.stringify(day));
      assert.equal(day.endFuelLevel, 40 + FILLING_L);
    });

    it('the power cut fires its signal once', async () => {
      const signals = await signalsOf(server, powerRule);
      assert.equal(signals.length, 1, JSON.stringify(signals));
    });
  });
}
