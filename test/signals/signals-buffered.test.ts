import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { at, createRule, expectedBody, moscow, signalsOf, T0, Trip, withoutId, ZONES } from './signal-api.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** A square zone from `westM` to `eastM` east of START, 1 km from north to south. */
function square(westM: number, eastM: number) {
  const corners = [at(westM, -500), at(eastM, -500), at(eastM, 500), at(westM, 500)];
  return corners.map((p) => ({ latitude: p.lat, longitude: p.lon }));
}

/**
 * CONTRACT §2: a tracker's buffer sent after a dead zone fires its signals. A 30-minute drive
 * posted in one batch fires speeding, zone entry then exit, a sensor out of range and the trip's
 * end, each dated at its own fix, though all of them lie long before the batch's last 5 minutes.
 */
for (const dialect of dialects) {
  describe(`a buffered drive posted at once fires its signals on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
    });
    after(() => server.close());

    it('speeding, zone entry then exit, sensor out of range and trip end, each at its fix', async () => {
      const car = await createEmployee(server.api, { name: 'Buffered truck' });
      const depot = (await server.api.post(ZONES, { name: 'Depot', bounds: square(1000, 2000) })).body.zoneID;
      const speed = await createRule(server.api, { name: 'Over 60', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 60 } });
      const zone = await createRule(server.api, { name: 'Depot', kind: 2, subscriberIDs: [car], parameters: { zoneIDs: [depot], on: 'both' } });
      const sensor = await createRule(server.api, { name: 'Temperature', kind: 10, subscriberIDs: [car], parameters: { sensorID: 1, min: 0, max: 30 } });
      const tripEnd = await createRule(server.api, { name: 'Trips', kind: 11, subscriberIDs: [car] });

      const reading = (value: number) => ({ sensors: [{ sensorID: 1, value }] });
      const trip = new Trip(car, T0 + 4 * HOUR).park(60, () => reading(20)).drive(120, 40, () => reading(20));
      const fast = trip.fixes.length;
      trip.drive(90, 90, () => reading(20));
      const slow = trip.fixes.length;
      trip.drive(10 * 60, 40, (i) => reading(i === 5 || i === 6 ? 45 : 20));
      const finish = trip.fixes.length;
      trip.park(8 * 60, () => reading(20)).drive(450, 40, () => reading(20));
      assert.equal(Date.parse(trip.fixes.at(-1)!.locationDate) - T0 - 4 * HOUR, 30 * MINUTE);

      const posted = await server.api.post(LOCATIONS, trip.fixes);
      assert.equal(posted.status, 201, posted.text);

      const lastFiveMinutes = Date.parse(trip.fixes.at(-1)!.locationDate) - 5 * MINUTE;
      const speeding = await signalsOf(server, speed);
      assert.deepEqual(speeding.map(withoutId), [expectedBody(trip.fixes[fast]!, 1, speed, null)]);

      const inside = (i: number) => trip.fixes[i]!.longitude >= at(1000).lon && trip.fixes[i]!.longitude <= at(2000).lon;
      const entry = trip.fixes.findIndex((_, i) => inside(i));
      const exit = trip.fixes.findIndex((_, i) => i > entry && !inside(i));
      const zones = await signalsOf(server, zone);
      assert.deepEqual(
        zones.map((b) => [b.zoneEventType, b.signalDate, b.longitude]),
        [
          [1, moscow(Date.parse(trip.fixes[entry]!.locationDate)), trip.fixes[entry]!.longitude],
          [2, moscow(Date.parse(trip.fixes[exit]!.locationDate)), trip.fixes[exit]!.longitude],
        ],
      );

      assert.deepEqual((await signalsOf(server, sensor)).map(withoutId), [expectedBody(trip.fixes[slow + 5]!, 10, sensor, null, { sensorID: 1, sensorValue: 45 })]);
      assert.deepEqual((await signalsOf(server, tripEnd)).map(withoutId), [expectedBody(trip.fixes[finish]!, 11, tripEnd, null)]);

      for (const body of [...speeding, ...zones]) assert.ok(Date.parse(body.signalDate) < lastFiveMinutes, `${body.signalDate} lies before the last 5 minutes`);

      // The same buffer sent again (the answer was lost): stored once, nothing fires twice.
      assert.equal((await server.api.post(LOCATIONS, trip.fixes)).status, 201);
      assert.equal((await signalsOf(server, speed)).length + (await signalsOf(server, zone)).length + (await signalsOf(server, sensor)).length + (await signalsOf(server, tripEnd)).length, 5);
    });
  });
}
