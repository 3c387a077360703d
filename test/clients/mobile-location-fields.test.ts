import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { MAP_OBJECTS, MOBILE, ZONES } from './client-fixtures.js';

/**
 * A reporting job (Python, requests + aiohttp) fills its database from the mobile locations:
 * `params=[("dateFrom", …), ("dateTo", …), ("subscriberIDs", id), …]`, then for each location
 * `if loc['state'] == 4:` (the original's "last known position") it drops the coordinates, and it
 * keeps `requestDate` and `locationDate`; its next run starts from the newest `requestDate`.
 * Every field of the original's mobile location must be there, or `loc['state']` raises KeyError.
 */
const ARRIVED = Date.parse('2026-11-23T12:00:00Z');
const ORIGINAL_FIELDS = ['locationDate', 'subscriberID', 'state', 'source', 'locationID', 'requestDate', 'address', 'longitude', 'latitude'];

for (const dialect of dialects) {
  describe(`mobile locations carry the original's fields on ${dialect}`, () => {
    let server: TestServer;
    let courier: number;
    let positions: any[];

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: ARRIVED });
      courier = await createEmployee(server.api, { name: 'Courier' });
      const zone = await server.api.post(ZONES, {
        name: 'Склад на Приморском',
        bounds: [
          { latitude: 59.98, longitude: 30.2 },
          { latitude: 59.98, longitude: 30.22 },
          { latitude: 59.99, longitude: 30.22 },
          { latitude: 59.99, longitude: 30.2 },
        ],
      });
      assert.equal(zone.status, 201, zone.text);
      const office = await server.api.post(MAP_OBJECTS, { name: 'Офис', address: 'Невский пр., 1', latitude: 59.936, longitude: 30.315 });
      assert.equal(office.status, 201, office.text);
      const at = (minutesBefore: number, latitude: number, longitude: number) => ({
        subscriberID: courier,
        locationDate: new Date(ARRIVED - minutesBefore * 60_000).toISOString(),
        latitude,
        longitude,
        velocity: 20,
        angle: 10,
      });
      // In the zone, 100 m from the office, and far from anything the account named; the first dated a day earlier (an upload).
      const r = await server.api.post(LOCATIONS, [at(24 * 60, 59.985, 30.21), at(2, 59.9365, 30.3165), at(1, 59.7, 30.6)]);
      assert.equal(r.status, 201, r.text);
      const page = await server.api.get(`${MOBILE}/locations?dateFrom=2026-11-22T00:00&dateTo=2026-11-23T16:00&subscriberIDs=${courier}&count=200`);
      assert.equal(page.status, 200, page.text);
      positions = page.body;
    });
    after(() => server.close());

    it('has every field the original serves on every position, as the job reads them', () => {
      assert.equal(positions.length, 3);
      for (const loc of positions) {
        for (const field of ORIGINAL_FIELDS) assert.ok(field in loc, `${field} in ${JSON.stringify(loc)}`);
        // The job's test: never 4 (no "last known position" stands in for a fix), so it keeps the coordinates.
        assert.notEqual(loc['state'], 4);
        assert.equal(loc.state, null);
        assert.equal(loc.source, null);
      }
    });

    it('dates requestDate when the fix arrived, in the account’s zone; locationDate when it was taken', () => {
      const [last, middle, upload] = positions;
      for (const loc of positions) assert.equal(loc.requestDate, '2026-11-23T15:00:00+03:00');
      assert.equal(last.locationDate, '2026-11-23T14:59:00+03:00');
      assert.equal(middle.locationDate, '2026-11-23T14:58:00+03:00');
      assert.equal(upload.locationDate, '2026-11-22T15:00:00+03:00', 'an upload: taken a day before it arrived');
    });

    it('names the place as the account named it: the zone, else the map object within 200 m, else null', () => {
      assert.deepEqual(
        positions.map((loc) => loc.address),
        [null, 'Офис', 'Склад на Приморском'],
      );
    });

    it('answers one position by id with the same fields', async () => {
      for (const loc of positions) {
        const r = await server.api.get(`${MOBILE}/locations/${loc.locationID}`);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body, loc);
      }
    });

    it('keeps the GPS locations to interface 2.1 exactly', async () => {
      const r = await server.api.get(`${LOCATIONS}?subscriberIDs=${courier}&dateFrom=2026-11-22T00:00&dateTo=2026-11-23T16:00`);
      assert.equal(r.status, 200, r.text);
      for (const loc of r.body) {
        assert.deepEqual(Object.keys(loc).sort(), ['angle', 'isValid', 'latitude', 'locationDate', 'locationID', 'longitude', 'subscriberID', 'velocity']);
      }
    });
  });
}
