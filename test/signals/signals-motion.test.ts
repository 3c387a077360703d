import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertUniqueIds, createRule, expectedBody, moscow, postLive, RULES, signalsOf, T0, Trip, withoutId } from './signal-api.js';

const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`speed, stop and trip-end signals through the API on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
    });
    after(() => server.close());

    it('speed (1): per rule’s limit and duration, only for its employees, in its schedule, when enabled', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 7', externalSubscriberID: 'truck-7' });
      const van = await createEmployee(server.api, { name: 'Van 2' });
      const limited = await createRule(server.api, { name: 'Over 60 for 30 s', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 60, minDurationSeconds: 30 } });
      const anyone = await createRule(server.api, { name: 'Over 75', kind: 1, parameters: { speedLimit: 75 } });
      const silent = [
        await createRule(server.api, { name: 'Van only', kind: 1, subscriberIDs: [van], parameters: { speedLimit: 10 } }),
        await createRule(server.api, { name: 'Off', kind: 1, enabled: false, parameters: { speedLimit: 10 } }),
        await createRule(server.api, { name: 'Mondays', kind: 1, weekdays: [1], parameters: { speedLimit: 10 } }),
        await createRule(server.api, { name: 'Evenings', kind: 1, timeFrom: '20:00', timeTo: '23:00', parameters: { speedLimit: 10 } }),
        await createRule(server.api, { name: 'Next year', kind: 1, validFrom: '2027-01-01T00:00:00', parameters: { speedLimit: 10 } }),
      ];
      const trip = new Trip(car, T0).park(60).drive(120, 72).drive(60, 50).drive(60, 80).park(60);
      await postLive(server.api, trip.fixes);

      const fast = (kmh: number) => trip.fixes.findIndex((f) => f.velocity === kmh);
      const first = trip.fixes[fast(72) + 3]!;
      const second = trip.fixes[fast(80) + 3]!;
      const bodies = await signalsOf(server, limited);
      assert.deepEqual(bodies.map(withoutId), [expectedBody(first, 1, limited, 'truck-7'), expectedBody(second, 1, limited, 'truck-7')]);
      assert.deepEqual(Object.keys(bodies[0]), ['signalID', 'signalDate', 'signalTypeID', 'subscriberID', 'subscriberExternalID', 'eventID', 'latitude', 'longitude', 'velocity']);
      assert.equal(bodies[0].signalDate, '2026-05-20T09:01:40+03:00', 'in the account’s zone');
      assert.deepEqual((await signalsOf(server, anyone)).map(withoutId), [expectedBody(trip.fixes[fast(80)]!, 1, anyone, 'truck-7')]);
      for (const rule of silent) assert.deepEqual(await signalsOf(server, rule), [], `rule ${rule}`);
      await assertUniqueIds(server);
    });

    it('a rule changed between batches counts from the next batch, even within one clock tick', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 11' });
      const rule = await createRule(server.api, { name: 'Over 60', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 60 } });
      const trip = new Trip(car, T0 + 3 * HOUR).drive(60, 72).drive(60, 40);
      await postLive(server.api, trip.fixes);
      assert.equal((await signalsOf(server, rule)).length, 1);
      // The server's clock is frozen: the change is made at the very instant the rule was created.
      assert.equal((await server.api.patch(`${RULES}/${rule}`, { parameters: { speedLimit: 80 } })).status, 204);
      const more = trip.fixes.length;
      trip.drive(60, 72).drive(60, 40).drive(60, 85);
      await postLive(server.api, trip.fixes.slice(more));
      const bodies = await signalsOf(server, rule);
      assert.deepEqual(bodies.map((b) => b.velocity), [72, 85]);
    });

    it('stops (3): once per stop that lasts minStopMinutes, through GPS jitter', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 8' });
      const rule = await createRule(server.api, { name: 'Stops of 5 min', kind: 3, subscriberIDs: [car], parameters: { minStopMinutes: 5 } });
      const jitter = (i: number) => ({ latitude: 55.75 + ((i * 7) % 5) * 0.00005 });
      const trip = new Trip(car, T0 + HOUR).drive(180, 40);
      const stopStart = trip.fixes.length;
      trip.park(8 * 60, jitter).drive(120, 40).park(4 * 60);
      await postLive(server.api, trip.fixes);
      const stop = trip.fixes[stopStart]!;
      const fired = trip.between(Date.parse(stop.locationDate) + 5 * 60_000, Infinity)[0]!;
      assert.deepEqual((await signalsOf(server, rule)).map(withoutId), [expectedBody(fired, 3, rule, null)]);
    });

    it('trip end (11): when the track ends, at its finish, as the track reads', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 9' });
      const rule = await createRule(server.api, { name: 'Trips', kind: 11, subscriberIDs: [car] });
      const trip = new Trip(car, T0 + 2 * HOUR).park(60).drive(180, 36);
      const finish = trip.fixes.length;
      trip.park(4 * 60);
      await postLive(server.api, trip.fixes);
      assert.deepEqual(await signalsOf(server, rule), [], 'standing for 4 minutes: the track has not ended');
      trip.park(2 * 60);
      await postLive(server.api, trip.fixes.slice(finish + 24));
      const [body, ...more] = await signalsOf(server, rule);
      assert.deepEqual(more, []);
      assert.deepEqual(withoutId(body), expectedBody(trip.fixes[finish]!, 11, rule, null));
      const tracks = (await server.api.get(`/v6/api/globalPositioningManagement/tracks?subscriberIDs=${car}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal(tracks.length, 1);
      assert.equal(tracks[0].finishDate, body.signalDate);
      assert.equal(body.signalDate, moscow(T0 + 2 * HOUR + 250_000));
    });
  });
}
