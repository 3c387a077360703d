import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { at, createRule, expectedBody, postLive, signalsOf, T0, Trip, withoutId, ZONES } from './signal-api.js';

const HOUR = 3_600_000;

/** A square zone from `westM` to `eastM` east of START and ±`halfM` north and south of `northM`. */
function square(westM: number, eastM: number, northM = 0, halfM = 500) {
  const corners = [at(westM, northM - halfM), at(eastM, northM - halfM), at(eastM, northM + halfM), at(westM, northM + halfM)];
  return corners.map((p) => ({ latitude: p.lat, longitude: p.lon }));
}

for (const dialect of dialects) {
  describe(`zone entry and exit signals (2) through the API on ${dialect}`, () => {
    let server: TestServer;
    let depot: number;
    let yard: number;
    let groupExit: number;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
      depot = (await server.api.post(ZONES, { name: 'Depot', bounds: square(1000, 2000) })).body.zoneID;
      const group = (await server.api.post('/v6/api/zoneManagement/zoneGroups', { name: 'Yards' })).body.zoneGroupID;
      yard = (await server.api.post(ZONES, { name: 'Yard', zoneGroupID: group, bounds: square(3000, 3500) })).body.zoneID;
      groupExit = await createRule(server.api, { name: 'Yards, exit', kind: 2, parameters: { zoneGroupIDs: [group], on: 'exit' } });
    });
    after(() => server.close());

    it('fires entry and exit per zone, with zoneID, zoneName and zoneEventType, by zone or by group', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 7', externalSubscriberID: 'truck-7' });
      const both = await createRule(server.api, { name: 'Depot', kind: 2, subscriberIDs: [car], parameters: { zoneIDs: [depot], on: 'both' } });
      const entries = await createRule(server.api, { name: 'Anywhere, entry', kind: 2, subscriberIDs: [car], parameters: { zoneIDs: [depot, yard], on: 'entry' } });
      const trip = new Trip(car, T0).park(60).drive(480, 36);
      await postLive(server.api, trip.fixes);
      const east = (f: { longitude: number }) => f.longitude;
      const firstPast = (m: number) => trip.fixes.find((f) => east(f) >= at(m).lon)!;
      const depotIn = firstPast(1000);
      const depotOut = firstPast(2050);
      const yardIn = firstPast(3000);
      const zone = (zoneID: number, zoneName: string, zoneEventType: number) => ({ zoneID, zoneName, zoneEventType });
      const bodies = await signalsOf(server, both);
      assert.deepEqual(bodies.map(withoutId), [
        expectedBody(depotIn, 2, both, 'truck-7', zone(depot, 'Depot', 1)),
        expectedBody(depotOut, 2, both, 'truck-7', zone(depot, 'Depot', 2)),
      ]);
      assert.deepEqual(Object.keys(bodies[0]), [
        'signalID', 'signalDate', 'signalTypeID', 'subscriberID', 'subscriberExternalID', 'zoneID', 'zoneName', 'zoneEventType', 'eventID', 'latitude', 'longitude', 'velocity',
      ]);
      assert.deepEqual((await signalsOf(server, entries)).map(withoutId), [
        expectedBody(depotIn, 2, entries, 'truck-7', zone(depot, 'Depot', 1)),
        expectedBody(yardIn, 2, entries, 'truck-7', zone(yard, 'Yard', 1)),
      ]);
      const groupExits = (await signalsOf(server, groupExit)).filter((b) => b.subscriberID === car);
      assert.deepEqual(groupExits.map(withoutId), [expectedBody(firstPast(3550), 2, groupExit, 'truck-7', zone(yard, 'Yard', 2))]);
    });

    it('invents nothing for a vehicle parked on the boundary with GPS jitter', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 8' });
      const rule = await createRule(server.api, { name: 'Depot', kind: 2, subscriberIDs: [car], parameters: { zoneIDs: [depot], on: 'both' } });
      // Up to 25 m either side of the depot's west edge, for half an hour.
      const edge = at(1000);
      const offsetsM = [-25, 10, -5, 20, -15, 5, -20, 25, -10, 15];
      const trip = new Trip(car, T0 + HOUR).drive(90, 36);
      trip.eastM = 1000;
      trip.park(30 * 60, (i) => ({ longitude: edge.lon + (offsetsM[i % offsetsM.length]! / 1000) * (at(1000).lon - at(0).lon) }));
      await postLive(server.api, trip.fixes);
      const bodies = await signalsOf(server, rule);
      assert.deepEqual(bodies.map((b) => [b.zoneEventType, b.longitude]), [[1, trip.fixes[10]!.longitude]], 'one entry, at the first fix inside, and no exit');
    });

    it('forgets a zone disabled while the vehicle is in it: no exit is invented; a change counts from the next batch', async () => {
      const car = await createEmployee(server.api, { name: 'Truck 9' });
      const rule = await createRule(server.api, { name: 'Depot', kind: 2, subscriberIDs: [car], parameters: { zoneIDs: [depot], on: 'both' } });
      const trip = new Trip(car, T0 + 2 * HOUR).drive(150, 36);
      await postLive(server.api, trip.fixes);
      assert.deepEqual((await signalsOf(server, rule)).map((b) => b.zoneEventType), [1]);
      assert.equal((await server.api.patch(`${ZONES}/${depot}`, { enabled: false })).status, 204);
      try {
        const before = trip.fixes.length;
        trip.drive(150, 36);
        await postLive(server.api, trip.fixes.slice(before));
        assert.deepEqual((await signalsOf(server, rule)).map((b) => b.zoneEventType), [1], 'left a disabled zone: no exit');
      } finally {
        assert.equal((await server.api.patch(`${ZONES}/${depot}`, { enabled: true })).status, 204);
      }
      const before = trip.fixes.length;
      trip.drive(60, 36);
      await postLive(server.api, trip.fixes.slice(before));
      assert.deepEqual((await signalsOf(server, rule)).map((b) => b.zoneEventType), [1], 'outside it when it came back');
    });
  });
}
