import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const NOW = Date.parse('2026-05-20T12:00:00Z');

for (const dialect of dialects) {
  describe(`locations on ${dialect}`, () => {
    let server: TestServer;
    let ivan: number;
    let olga: number;

    before(async () => {
      server = await startServer(dialect, { now: NOW, timeZone: 'Europe/Moscow' });
      ivan = await createEmployee(server.api, { name: 'Ivan' });
      olga = await createEmployee(server.api, { name: 'Olga' });
    });
    after(() => server.close());

    it('stores a batch and reads it back newest first, in the account zone', async () => {
      const batch = [
        { subscriberID: ivan, locationDate: '2026-05-20T08:00:00Z', latitude: 55.7558, longitude: 37.6173, angle: 90, velocity: 42.5 },
        { subscriberID: ivan, locationDate: '2026-05-20T11:01:00+03:00', latitude: 55.76, longitude: 37.62, isValid: false },
        { subscriberID: olga, locationDate: '2026-05-20T11:30:00.250', latitude: 59.93, longitude: 30.31 },
      ];
      const posted = await server.api.post(LOCATIONS, batch);
      assert.equal(posted.status, 201);
      assert.deepEqual(posted.body, { accepted: 3 });

      const listed = await server.api.get(LOCATIONS);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.length, 3);
      const [third, second, first] = listed.body;
      assert.ok(third.locationID > second.locationID && second.locationID > first.locationID, 'newest id first');
      assert.deepEqual(first, {
        locationDate: '2026-05-20T11:00:00+03:00',
        subscriberID: ivan,
        locationID: first.locationID,
        isValid: true,
        longitude: 37.6173,
        latitude: 55.7558,
        angle: 90,
        velocity: 42.5,
      });
      assert.equal(second.locationDate, '2026-05-20T11:01:00+03:00');
      assert.equal(second.isValid, false);
      assert.equal(second.angle, 0);
      assert.equal(second.velocity, 0);
      // No offset: the account's zone (Moscow); fractional seconds kept when not zero.
      assert.equal(third.locationDate, '2026-05-20T11:30:00.250+03:00');
      assert.equal(third.subscriberID, olga);

      const one = await server.api.get(`${LOCATIONS}/${first.locationID}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, first);
    });

    it('pages with count and lastLocationID until nothing is left', async () => {
      const batch = Array.from({ length: 25 }, (_, i) => ({
        subscriberID: olga,
        locationDate: new Date(NOW - 3_600_000 + i * 1000).toISOString(),
        latitude: 59.9,
        longitude: 30.3,
      }));
      assert.equal((await server.api.post(LOCATIONS, batch)).status, 201);
      const seen: number[] = [];
      let last: number | undefined;
      for (;;) {
        const page = await server.api.get(`${LOCATIONS}?subscriberIDs=${olga}&count=10${last ? `&lastLocationID=${last}` : ''}`);
        assert.equal(page.status, 200);
        if (page.body.length === 0) break;
        assert.ok(page.body.length <= 10);
        for (const l of page.body) seen.push(l.locationID);
        last = page.body.at(-1).locationID;
      }
      assert.equal(seen.length, 26, 'every fix of Olga once');
      assert.deepEqual(seen, [...seen].sort((a, b) => b - a));
      assert.equal(new Set(seen).size, seen.length);
    });

    it('filters by period and by subscriberIDs in all three forms', async () => {
      const forms = [`subscriberIDs=${ivan}`, `subscriberIDs=${ivan},${ivan}`, `subscriberIDs[]=${ivan}`];
      for (const form of forms) {
        const r = await server.api.get(`${LOCATIONS}?${form}`);
        assert.equal(r.status, 200, form);
        assert.ok(r.body.length === 2 && r.body.every((l: any) => l.subscriberID === ivan), form);
      }
      const both = await server.api.get(`${LOCATIONS}?subscriberIDs=${ivan}&subscriberIDs=${olga}&count=1000`);
      assert.equal(both.body.length, 28);
      const bracket = await server.api.get(`${LOCATIONS}?subscriberIDs[]=${ivan}&subscriberIDs[]=${olga}`);
      assert.equal(bracket.body.length, 28);

      const window = await server.api.get(`${LOCATIONS}?dateFrom=2026-05-20T10:59:00&dateTo=2026-05-20T11:00:30`);
      assert.deepEqual(window.body.map((l: any) => l.locationDate), ['2026-05-20T11:00:00+03:00']);
      const sameInUtc = await server.api.get(`${LOCATIONS}?dateFrom=2026-05-20T07:59:00Z&dateTo=2026-05-20T08:00:30Z`);
      assert.deepEqual(sameInUtc.body, window.body);
    });

    it('defaults to the last 72 hours', async () => {
      const old = { subscriberID: ivan, locationDate: new Date(NOW - 73 * 3_600_000).toISOString(), latitude: 1, longitude: 1 };
      assert.equal((await server.api.post(LOCATIONS, [old])).status, 201);
      const listed = await server.api.get(`${LOCATIONS}?subscriberIDs=${ivan}`);
      assert.equal(listed.body.length, 2, 'the 73-hour-old fix is outside the default period');
      const wide = await server.api.get(`${LOCATIONS}?subscriberIDs=${ivan}&dateFrom=2026-05-10T00:00:00Z`);
      assert.equal(wide.body.length, 3);
    });

    it('refuses mixed date-time forms with code 225 and a reversed period with code 2', async () => {
      const mixed = await server.api.get(`${LOCATIONS}?dateFrom=2026-05-19T00:00:00Z&dateTo=2026-05-20T00:00:00`);
      assert.equal(mixed.status, 400);
      assert.equal(mixed.body.code, 225);
      assert.equal(mixed.body.description, 'REQUEST_DATE_TIME_INCONSISTENT_FORMAT');
      const reversed = await server.api.get(`${LOCATIONS}?dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-19T00:00:00Z`);
      assert.equal(reversed.status, 400);
      assert.equal(reversed.body.code, 2);
      assert.ok(reversed.body.validationErrors.dateFrom);
    });

    it('rejects a whole batch when one item is bad, naming it by index, and stores nothing', async () => {
      const before = (await server.api.get(`${LOCATIONS}?count=1000&dateFrom=2026-01-01T00:00:00Z`)).body.length;
      const good = { subscriberID: ivan, locationDate: '2026-05-20T09:00:00Z', latitude: 1, longitude: 1 };
      const badLatitude = await server.api.post(LOCATIONS, [good, { ...good, latitude: 91 }]);
      assert.equal(badLatitude.status, 400);
      assert.equal(badLatitude.body.code, 2);
      assert.deepEqual(Object.keys(badLatitude.body.validationErrors), ['[1].latitude']);

      const unknown = await server.api.post(LOCATIONS, [good, good, { ...good, subscriberID: 999_999 }]);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 12);
      assert.deepEqual(Object.keys(unknown.body.validationErrors), ['[2].subscriberID']);

      const badDate = await server.api.post(LOCATIONS, [good, { ...good, locationDate: '2026-02-30T00:00:00Z' }]);
      assert.equal(badDate.status, 400);
      assert.ok(badDate.body.validationErrors['[1].locationDate']);

      const after = (await server.api.get(`${LOCATIONS}?count=1000&dateFrom=2026-01-01T00:00:00Z`)).body.length;
      assert.equal(after, before);
    });

    it('keeps accounts apart: another account sees none of these fixes and cannot post for these employees', async () => {
      const stranger = await server.newAccount();
      const listed = await stranger.api.get(`${LOCATIONS}?dateFrom=2026-01-01T00:00:00Z`);
      assert.deepEqual(listed.body, []);
      const mine = (await server.api.get(LOCATIONS)).body[0];
      const peek = await stranger.api.get(`${LOCATIONS}/${mine.locationID}`);
      assert.equal(peek.status, 404);
      assert.equal(peek.body.code, 1001);
      const post = await stranger.api.post(LOCATIONS, [{ subscriberID: ivan, locationDate: '2026-05-20T09:00:00Z', latitude: 1, longitude: 1 }]);
      assert.equal(post.status, 404);
      assert.equal(post.body.code, 12);
    });

    it('answers 404 code 1001 for a location that does not exist', async () => {
      const r = await server.api.get(`${LOCATIONS}/987654321`);
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 1001);
    });
  });
}
