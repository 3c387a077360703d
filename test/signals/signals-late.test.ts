import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { at, createRule, postLive, signalsOf, T0, Trip, ZONES, type FixBody } from './signal-api.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const EVENTS = '/v6/api/globalPositioningManagement/events';

/**
 * CONTRACT §2: signals fire only for fixes newer than the latest fix stored before their batch minus
 * 5 minutes, and not dated more than SIGNAL_MAX_AGE before their arrival.
 */
for (const dialect of dialects) {
  describe(`late fixes and replays fire nothing old, and nothing twice, on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
    });
    after(() => server.close());

    const post = async (fixes: FixBody[]) => assert.equal((await server.api.post(LOCATIONS, fixes)).status, 201);

    it('a buffer sent after a gap is history: its speeding is an event, not a signal', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 1', vehicleSettings: { speedLimit: 60 } });
      const rule = await createRule(server.api, { name: 'Speed', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 60 } });
      const trip = new Trip(car, T0).drive(5 * 60, 40).drive(3 * 60, 80).drive(12 * 60, 40);
      const buffered = trip.between(T0 + 5 * MINUTE, T0 + 10 * MINUTE);
      await postLive(server.api, trip.fixes.filter((f) => !buffered.includes(f)));
      await post(buffered);
      assert.deepEqual(await signalsOf(server, rule), []);
      const events = (await server.api.get(`${EVENTS}?subscriberIDs=${car}&startDate=2026-05-20T00:00:00Z`)).body.data[0].events;
      assert.deepEqual(events.map((e: any) => e.type), [4, 5], 'the replay found the speeding');
    });

    it('in one request, every fix newer than what was stored before is news, each dated at its fix', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 2' });
      const rule = await createRule(server.api, { name: 'Power', kind: 7, subscriberIDs: [car] });
      const power = (i: number) => ({ externalPower: !(i === 12 || i === 108) });
      const trip = new Trip(car, T0 + HOUR).park(20 * 60, power);
      await post(trip.fixes);
      assert.deepEqual((await signalsOf(server, rule)).map((b) => b.signalDate), ['2026-05-20T10:02:10+03:00', '2026-05-20T10:18:10+03:00']);
    });

    it('fixes dated more than SIGNAL_MAX_AGE (12 h) before their arrival are history', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 5' });
      const rule = await createRule(server.api, { name: 'Power', kind: 7, subscriberIDs: [car] });
      const power = (i: number) => ({ externalPower: i !== 12 });
      // The server's clock is T0 + 12 h: this trip ends 12 h 40 min before it.
      const trip = new Trip(car, T0 - HOUR).park(20 * 60, power);
      await post(trip.fixes);
      assert.deepEqual(await signalsOf(server, rule), []);
      // A fix of now, after it, is news again.
      await post([{ ...trip.fixes.at(-1)!, locationDate: new Date(T0 + 12 * HOUR - MINUTE).toISOString(), externalPower: false }]);
      assert.equal((await signalsOf(server, rule)).length, 1);
    });

    it('a replay does not fire again what fired live', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 3' });
      const speed = await createRule(server.api, { name: 'Speed', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 60 } });
      const stops = await createRule(server.api, { name: 'Stops', kind: 3, subscriberIDs: [car], parameters: { minStopMinutes: 2 } });
      // Speeding at about :11, stops at about :14 and :29: the first ones long before the latest fix.
      const trip = new Trip(car, T0 + 2 * HOUR + 10 * MINUTE).drive(60, 40).drive(60, 80).drive(60, 40).park(4 * 60).drive(10 * 60, 40).park(4 * 60);
      await postLive(server.api, trip.fixes);
      const sent = { speed: await signalsOf(server, speed), stops: await signalsOf(server, stops) };
      assert.equal(sent.speed.length, 1);
      assert.equal(sent.stops.length, 2);
      // A fix from early in the hour: everything after it is replayed.
      await post([{ subscriberID: car, locationDate: new Date(T0 + 2 * HOUR + MINUTE).toISOString(), latitude: at(-500).lat, longitude: at(-500).lon, velocity: 0 }]);
      assert.deepEqual({ speed: await signalsOf(server, speed), stops: await signalsOf(server, stops) }, sent);
      // And the state after the replay goes on as before: a new excursion fires.
      const more = trip.fixes.length;
      trip.drive(60, 90);
      await postLive(server.api, trip.fixes.slice(more));
      assert.equal((await signalsOf(server, speed)).length, 2);
    });

    it('a late fix within five minutes of the latest is news, and does not send a signal twice', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 4' });
      const power = await createRule(server.api, { name: 'Power', kind: 7, subscriberIDs: [car] });
      const trip = new Trip(car, T0 + 3 * HOUR).park(3 * 60, () => ({ externalPower: true }));
      const [late] = trip.fixes.splice(15, 1) as [FixBody];
      late.externalPower = false;
      await postLive(server.api, trip.fixes);
      await post([late]);
      assert.deepEqual((await signalsOf(server, power)).map((b) => b.signalDate), ['2026-05-20T12:02:40+03:00']);

      const zone = (await server.api.post(ZONES, { name: 'Gate', bounds: [at(950, -50), at(1350, -50), at(1350, 50), at(950, 50)].map((p) => ({ latitude: p.lat, longitude: p.lon })) })).body.zoneID;
      const gate = await createRule(server.api, { name: 'Gate', kind: 2, subscriberIDs: [car], parameters: { zoneIDs: [zone], on: 'entry' } });
      const drive = new Trip(car, T0 + 3 * HOUR + 10 * MINUTE);
      drive.eastM = 700;
      drive.drive(60, 36);
      const firstInside = drive.fixes.findIndex((f) => f.longitude >= at(950).lon);
      const [early] = drive.fixes.splice(firstInside, 1) as [FixBody];
      await postLive(server.api, drive.fixes);
      assert.deepEqual((await signalsOf(server, gate)).map((b) => b.longitude), [drive.fixes[firstInside]!.longitude]);
      await post([early]);
      assert.deepEqual((await signalsOf(server, gate)).map((b) => b.longitude), [drive.fixes[firstInside]!.longitude], 'the entry was sent; the late fix only moves it earlier');
    });
  });
}
