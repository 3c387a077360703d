import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { axiosQuery, GPS, ingest, MOBILE, pageThrough, trips } from './client-fixtures.js';

/**
 * The HR system's archiving run (TypeScript, axios), replayed request for request: the mobile
 * positioning locations and tracks of a two-day window in local time, 200 a page, paged with
 * lastLocationID / lastTrackID until a short page, beside the GPS locations.
 */
const NOW = Date.parse('2026-11-23T17:53:13Z');
/** A mobile position without the original's mobile fields: what the GPS list shows of the same fix. */
const MOBILE_FIELDS = ['address', 'requestDate', 'source', 'state'];
const gps = (positions: any[]) => positions.map((p) => Object.fromEntries(Object.entries(p).filter(([key]) => !MOBILE_FIELDS.includes(key))));
const WINDOW = { dateFrom: '2026-11-21T20:53:13', dateTo: '2026-11-23T20:53:13' };

for (const dialect of dialects) {
  describe(`HR archive client on ${dialect}`, () => {
    let server: TestServer;
    let first: number;
    let second: number;
    let allLocations: any[];
    let allTracks: any[];

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: NOW });
      first = await createEmployee(server.api, { name: 'Courier one' });
      second = await createEmployee(server.api, { name: 'Courier two' });
      // 250 + 200 fixes: three pages of 200, 200 and 50; nine trips.
      await ingest(server.api, [...trips(first, Date.parse('2026-11-22T06:00:00Z'), 5, 50), ...trips(second, Date.parse('2026-11-22T12:00:00Z'), 4, 50, 55.8)]);
      allLocations = (await server.api.get(`${GPS}/locations?${axiosQuery({ ...WINDOW, count: 1000 })}`)).body;
      allTracks = (await server.api.get(`${GPS}/tracks?${axiosQuery({ ...WINDOW, count: 1000 })}`)).body;
    });
    after(() => server.close());

    it('archives every location in pages of 200 with lastLocationID until a short page, the same fixes as the GPS list', async () => {
      assert.equal(allLocations.length, 450);
      const { items, pages } = await pageThrough(server.api, `${MOBILE}/locations`, WINDOW, 'lastLocationID', 'locationID', 200);
      assert.deepEqual(pages, [200, 200, 50]);
      assert.deepEqual(gps(items), allLocations, 'same ids, fields and order (newest first)');
      assert.equal(new Set(items.map((l) => l.locationID)).size, 450, 'no fix twice');
      for (const item of items) assert.deepEqual(Object.keys(item).sort(), [...Object.keys(allLocations[0]), ...MOBILE_FIELDS].sort());
      assert.match(items[0].locationDate, /\+03:00$/, 'answered in the account’s zone');
    });

    it('archives every track with lastTrackID, trackID ascending, the same tracks as the GPS list', async () => {
      assert.equal(allTracks.length, 9);
      const whole = await pageThrough(server.api, `${MOBILE}/tracks`, WINDOW, 'lastTrackID', 'trackID', 200);
      assert.deepEqual(whole.pages, [9]);
      assert.deepEqual(whole.items, allTracks);
      const paged = await pageThrough(server.api, `${MOBILE}/tracks`, WINDOW, 'lastTrackID', 'trackID', 4);
      assert.deepEqual(paged.pages, [4, 4, 1]);
      assert.deepEqual(paged.items, allTracks);
      const ids = paged.items.map((t) => t.trackID);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    });

    it('reads one location by id, as the GPS route does', async () => {
      const sample = allLocations[17];
      const r = await server.api.get(`${MOBILE}/locations/${sample.locationID}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(gps([r.body]), [sample]);
    });

    it('takes subscriberIDs as axios brackets, a comma list or repeated, all alike', async () => {
      const forms = [
        axiosQuery({ ...WINDOW, subscriberIDs: [second], count: 200 }),
        `${axiosQuery({ ...WINDOW, count: 200 })}&subscriberIDs=${second},${second}`,
        `${axiosQuery({ ...WINDOW, count: 200 })}&subscriberIDs=${second}&subscriberIDs=${second}`,
      ];
      const expected = allLocations.filter((l) => l.subscriberID === second);
      assert.equal(expected.length, 200);
      for (const query of forms) {
        const r = await server.api.get(`${MOBILE}/locations?${query}`);
        assert.equal(r.status, 200, `${query}: ${r.text}`);
        assert.deepEqual(gps(r.body), expected, query);
      }
      const both = await server.api.get(`${MOBILE}/tracks?${axiosQuery({ ...WINDOW, subscriberIDs: [first, second] })}`);
      assert.deepEqual(both.body, allTracks);
    });

    it('reads six-digit fractions with %2B offsets, and offset skips', async () => {
      const query = 'dateFrom=2026-11-22T09:00:00.000000%2B03:00&dateTo=2026-11-22T09:30:00.123456%2B03:00&count=200';
      const r = await server.api.get(`${MOBILE}/locations?${query}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.length, 50, 'the first trip of the first courier: 06:00 to 06:24:30 UTC');
      assert.ok(r.body.every((l: any) => l.subscriberID === first));
      const skipped = await server.api.get(`${MOBILE}/locations?${axiosQuery({ ...WINDOW, count: 200, offset: 10 })}`);
      assert.deepEqual(gps(skipped.body), allLocations.slice(10, 210));
      const tracks = await server.api.get(`${MOBILE}/tracks?${axiosQuery({ ...WINDOW, count: 3, offset: 2 })}`);
      assert.deepEqual(tracks.body, allTracks.slice(2, 5));
    });

    it('ignores parameters it does not know', async () => {
      const r = await server.api.get(`${MOBILE}/locations?${axiosQuery({ ...WINDOW, count: 5, withAddress: true, source: 'lbs' })}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(gps(r.body), allLocations.slice(0, 5));
    });

    describe('refuses bad parameters with the envelope and changes nothing', () => {
      const cases: [string, string, Refusal][] = [
        ['locations', 'count=201', { code: 66, field: 'count' }],
        ['tracks', 'count=201', { code: 66, field: 'count' }],
        ['locations', 'count=1000', { code: 66, field: 'count' }],
        ['locations', 'count=0', { code: 2, field: 'count' }],
        ['locations', 'count=1.5', { code: 2, field: 'count' }],
        ['tracks', 'count=abc', { code: 2, field: 'count' }],
        ['locations', 'offset=-1', { code: 2, field: 'offset' }],
        ['tracks', 'offset=x', { code: 2, field: 'offset' }],
        ['locations', 'lastLocationID=0', { code: 2, field: 'lastLocationID' }],
        ['locations', 'lastLocationID=0x10', { code: 2, field: 'lastLocationID' }],
        ['tracks', 'lastTrackID=-1', { code: 2, field: 'lastTrackID' }],
        ['locations', 'subscriberIDs[]=one', { code: 2, field: /^subscriberIDs/ }],
        ['tracks', 'subscriberIDs=1,,2', { code: 2, field: /^subscriberIDs/ }],
        ['locations', 'dateFrom=yesterday', { code: 2, field: 'dateFrom' }],
        ['tracks', 'dateTo=2026-11-23T25:00:00', { code: 2, field: 'dateTo' }],
        ['locations', 'dateFrom=2026-11-22T00:00:00&dateTo=2026-11-23T00:00:00Z', { code: 225 }],
        ['tracks', 'dateFrom=2026-11-23T00:00:00&dateTo=2026-11-22T00:00:00', { code: 2, field: 'dateFrom' }],
      ];
      for (const [route, query, expected] of cases) {
        it(`${route}?${query}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(
            () => read(server.api, `${GPS}/locations?${axiosQuery({ ...WINDOW, count: 1000 })}`),
            () => server.api.get(`${MOBILE}/${route}?${query}`),
            expected,
            query,
          );
        });
      }
      it('locations/{locationID} refuses a bad id with code 2 and answers 404 code 1001 for an unknown one', async () => {
        await assertRefusedUnchanged(() => read(server.api, `${GPS}/locations?count=1`), () => server.api.get(`${MOBILE}/locations/abc`), { code: 2 });
        await assertRefusedUnchanged(() => read(server.api, `${GPS}/locations?count=1`), () => server.api.get(`${MOBILE}/locations/999999`), { code: 1001 });
      });
    });

    it('shows another account nothing: empty lists, 404 code 1001 for a location', async () => {
      const stranger = await server.newAccount('Europe/Moscow');
      const lists = await stranger.api.get(`${MOBILE}/locations?${axiosQuery({ ...WINDOW, count: 200 })}`);
      assert.deepEqual(lists.body, []);
      assert.deepEqual((await stranger.api.get(`${MOBILE}/tracks?${axiosQuery(WINDOW)}`)).body, []);
      const one = await stranger.api.get(`${MOBILE}/locations/${allLocations[0].locationID}`);
      assert.equal(one.status, 404);
      assert.equal(one.body.code, 1001);
    });
  });
}
