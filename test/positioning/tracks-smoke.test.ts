import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const T0 = Date.parse('2026-05-20T06:00:00Z');
const BASE = '/v6/api/globalPositioningManagement';

/** A drive east along a parallel at a steady speed, every 10 s, from a parked start. */
function drive(subscriberID: number, fromMs: number, minutes: number, speedKmh: number, extra: (i: number) => object = () => ({})) {
  const fixes = [];
  const metresPerFix = (speedKmh / 3.6) * 10;
  const degPerMetre = 1 / (111_320 * Math.cos((55.75 * Math.PI) / 180));
  for (let i = 0; i <= minutes * 6; i++) {
    fixes.push({
      subscriberID,
      locationDate: new Date(fromMs + i * 10_000).toISOString(),
      latitude: 55.75,
      longitude: 37.6 + i * metresPerFix * degPerMetre,
      velocity: i === 0 ? 0 : speedKmh,
      ...extra(i),
    });
  }
  return fixes;
}

function park(subscriberID: number, fromMs: number, minutes: number, longitude: number, extra: (i: number) => object = () => ({})) {
  return Array.from({ length: minutes * 6 }, (_, i) => ({
    subscriberID,
    locationDate: new Date(fromMs + i * 10_000).toISOString(),
    latitude: 55.75,
    longitude,
    velocity: 0,
    ...extra(i),
  }));
}

for (const dialect of dialects) {
  describe(`tracks, events and statistics on ${dialect}`, () => {
    let server: TestServer;
    let car: number;
    before(async () => {
      server = await startServer(dialect, { now: T0 + 6 * 3_600_000 });
      car = await createEmployee(server.api, { name: 'Truck 7', vehicleSettings: { speedLimit: 60, prolongedSpeedSeconds: 60, initialOdometer: 1000 } });
    });
    after(() => server.close());

    it('turns a drive into one track, speeding events and statistics', async () => {
      const trip = drive(car, T0, 20, 72, (i) => ({ fuelLevel: 50 - i * 0.01, ignition: true }));
      const lastLon = trip.at(-1)!.longitude;
      const stop = park(car, T0 + 20 * 60_000 + 10_000, 10, lastLon, () => ({ fuelLevel: 48.8, ignition: false }));
      assert.equal((await server.api.post(LOCATIONS, [...trip, ...stop])).status, 201);

      const tracks = (await server.api.get(`${BASE}/tracks?dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-21T00:00:00Z`)).body;
      assert.equal(tracks.length, 1, JSON.stringify(tracks));
      const [track] = tracks;
      assert.equal(track.subscriberID, car);
      assert.equal(track.startDate, '2026-05-20T06:00:00+00:00');
      assert.equal(track.duration, 20 * 60 + 10, 'ends where it stopped');
      assert.ok(Math.abs(track.distance - 24_000) < 200, `distance ${track.distance}`);
      assert.match(track.startAddress, /^55\.75000, 37\.60000$/);

      const points = (await server.api.get(`${BASE}/tracks/${track.trackID}/locations`)).body;
      assert.equal(points.length, 20 * 6 + 2);
      assert.equal(points[0].locationDate, track.startDate);

      const events = (await server.api.get(`${BASE}/events?subscriberIDs=${car}&startDate=2026-05-20T00:00:00Z&finishDate=2026-05-21T00:00:00Z`)).body;
      assert.deepEqual(events.data.map((g: any) => g.subscriberID), [car]);
      assert.deepEqual(events.data[0].events.map((e: any) => [e.type, e.value, e.eventDate]), [
        [4, 72, '2026-05-20T06:00:10+00:00'],
        [5, 72, '2026-05-20T06:00:10+00:00'],
      ]);

      const stats = (await server.api.get(`${BASE}/statistics?subscriberIDs=${car}&interval=1&dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-21T00:00:00Z`)).body;
      const [record] = stats.data[0].statistics;
      assert.ok(Math.abs(record.mileage - 24) < 0.2, `mileage ${record.mileage}`);
      assert.ok(Math.abs(record.engineMotohours - (20 * 60 + 10) / 3600) < 0.01, `engine ${record.engineMotohours}`);
      assert.ok(Math.abs(record.totalVehicleDistance - 1024) < 0.2);
      assert.ok(Math.abs(record.fuelConsumption - 1.2) < 0.1, `fuel ${record.fuelConsumption}`);
      assert.equal(record.endFuelLevel, 48.8);

      const hourly = (await server.api.get(`${BASE}/statistics?subscriberIDs=${car}&interval=2&dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-21T00:00:00Z`)).body;
      assert.equal(hourly.data[0].statistics.length, 1);
      const perFix = (await server.api.get(`${BASE}/statistics?subscriberIDs=${car}&interval=3&count=5&offset=1&dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-21T00:00:00Z`)).body;
      assert.equal(perFix.data[0].statistics.length, 5);
      assert.equal(perFix.data[0].statistics[0].locationDate, '2026-05-20T06:00:10+00:00');
    });

    it('gives the same result when the trip arrives late and out of order', async () => {
      const other = await createEmployee(server.api, { name: 'Truck 8', vehicleSettings: { speedLimit: 60 } });
      const trip = drive(other, T0, 20, 72);
      const stop = park(other, T0 + 20 * 60_000 + 10_000, 10, trip.at(-1)!.longitude);
      const all = [...trip, ...stop];
      const shuffled = [...all].sort((a, b) => ((a.locationDate.charCodeAt(17) * 7 + a.longitude * 1e6) % 13) - ((b.locationDate.charCodeAt(17) * 7 + b.longitude * 1e6) % 13));
      for (let i = 0; i < shuffled.length; i += 17) {
        assert.equal((await server.api.post(LOCATIONS, shuffled.slice(i, i + 17))).status, 201);
      }
      const mine = (await server.api.get(`${BASE}/tracks?subscriberIDs=${car}&dateFrom=2026-05-20T00:00:00Z`)).body;
      const theirs = (await server.api.get(`${BASE}/tracks?subscriberIDs=${other}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal(theirs.length, 1);
      const strip = (t: any) => ({ ...t, trackID: 0, subscriberID: 0 });
      assert.deepEqual(strip(theirs[0]), strip(mine[0]));
      const events = (await server.api.get(`${BASE}/events?subscriberIDs=${other}&startDate=2026-05-20T00:00:00Z`)).body;
      assert.deepEqual(events.data[0].events.map((e: any) => e.type), [4, 5]);
    });

    it('lists a track in progress with its latest fix as finish, under the same id as it grows', async () => {
      const van = await createEmployee(server.api, { name: 'Van 3' });
      const trip = drive(van, T0 + 2 * 3_600_000, 10, 36);
      assert.equal((await server.api.post(LOCATIONS, trip.slice(0, 31))).status, 201);
      const first = (await server.api.get(`${BASE}/tracks?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal(first.length, 1);
      assert.equal(first[0].finishDate, '2026-05-20T08:05:00+00:00');
      assert.equal((await server.api.post(LOCATIONS, trip.slice(31))).status, 201);
      const later = (await server.api.get(`${BASE}/tracks?subscriberIDs=${van}&dateFrom=2026-05-20T08:07:00Z`)).body;
      assert.equal(later.length, 1, 'found by its current finish, not the one it had when first listed');
      assert.equal(later[0].trackID, first[0].trackID);
      assert.equal(later[0].finishDate, '2026-05-20T08:10:00+00:00');
      assert.ok(later[0].distance > first[0].distance + 2900, `${later[0].distance} vs ${first[0].distance}`);
      const one = (await server.api.get(`${BASE}/tracks/${first[0].trackID}`)).body;
      assert.deepEqual(one, later[0]);
      const points = (await server.api.get(`${BASE}/tracks/${first[0].trackID}/locations`)).body;
      assert.equal(points.length, trip.length);
    });

    it('acknowledges fixes sent again without storing them twice', async () => {
      const bus = await createEmployee(server.api, { name: 'Bus 9' });
      const trip = drive(bus, T0 + 4 * 3_600_000, 5, 36);
      assert.equal((await server.api.post(LOCATIONS, trip)).status, 201);
      const again = await server.api.post(LOCATIONS, [...trip.slice(10, 20), trip.at(-1)]);
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, { accepted: 11 });
      const stored = (await server.api.get(`${LOCATIONS}?subscriberIDs=${bus}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal(stored.length, trip.length);
      const [track] = (await server.api.get(`${BASE}/tracks?subscriberIDs=${bus}&dateFrom=2026-05-20T00:00:00Z`)).body;
      assert.equal((await server.api.get(`${BASE}/tracks/${track.trackID}/locations`)).body.length, trip.length);
    });

    it('refuses statistics without a valid interval (code 2) or without subscriberIDs (code 52)', async () => {
      const none = await server.api.get(`${BASE}/statistics?subscriberIDs=${car}`);
      assert.equal(none.status, 400);
      assert.equal(none.body.code, 2);
      const four = await server.api.get(`${BASE}/statistics?subscriberIDs=${car}&interval=4`);
      assert.equal(four.body.code, 2);
      const noIds = await server.api.get(`${BASE}/statistics?interval=1`);
      assert.equal(noIds.body.code, 52);
      const noIdsEvents = await server.api.get(`${BASE}/events`);
      assert.equal(noIdsEvents.body.code, 52);
    });
  });
}
