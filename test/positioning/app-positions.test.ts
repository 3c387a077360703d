import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const APP_LOCATIONS = '/mobile/v1/locations';
const T0 = Date.parse('2026-05-20T09:00:00Z');

/**
 * `POST /mobile/v1/locations`: the phone's position while the employee's app is open, by the
 * device key, into the same ingest path as the OsmAnd port: stored with its accuracy, and the
 * employee online. A stranger's key or a wrong fix stores nothing.
 */
for (const dialect of dialects) {
  describe(`positions from the employee's app on ${dialect}`, () => {
    let server: TestServer;
    let ivan: number;
    const key = 'ivan-app-phone';
    // The app sends its fixes as a list (those it kept while offline, or one).
    const post = (fix: unknown, authorization: string | null = `Device ${key}`) =>
      server.api.withToken(null).post(APP_LOCATIONS, [fix], authorization === null ? {} : { authorization });
    const fixes = async () => (await server.api.get(`${LOCATIONS}?subscriberIDs=${ivan}&dateFrom=2026-05-19T00:00:00Z&dateTo=2026-05-21T00:00:00Z`)).body as any[];

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      ivan = await createEmployee(server.api, { name: 'Ivan', deviceKey: key });
    });
    after(() => server.close());

    it('stores the fix with its accuracy and turns the employee online', async () => {
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${ivan}`)).body.isOnline, false);
      const r = await post({ locationDate: '2026-05-20T08:59:30Z', latitude: 56.8389, longitude: 60.6057, accuracy: 14.5, velocity: 3.6, angle: 270 });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body, { accepted: 1 });
      const [fix] = await fixes();
      assert.equal(fix.locationDate, '2026-05-20T11:59:30+03:00');
      assert.equal(fix.latitude, 56.8389);
      assert.equal(fix.longitude, 60.6057);
      assert.equal(fix.angle, 270);
      assert.equal(fix.velocity, 3.6);
      const row = await server.database.db.selectFrom('locations').select('accuracy_m').where('account_id', '=', server.account.id).where('id', '=', fix.locationID).executeTakeFirstOrThrow();
      assert.equal(row.accuracy_m, 14.5);
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${ivan}`)).body.isOnline, true);
    });

    it('refuses an unknown or missing key with 401 code 1, and a wrong fix with 400, storing nothing', async () => {
      const before = (await fixes()).length;
      const good = { locationDate: '2026-05-20T08:59:40Z', latitude: 56.8, longitude: 60.6 };
      for (const authorization of [null, 'Device someone-elses-key', 'Bearer token']) {
        const r = await post(good, authorization);
        assert.equal(r.status, 401, `${authorization}: ${r.text}`);
        assert.equal(r.body.code, 1);
        assert.equal(r.headers.get('www-authenticate'), 'Device');
      }
      for (const body of [
        { ...good, latitude: 91 },
        { ...good, locationDate: '2026-05-22T09:00:00Z' },
        { ...good, locationDate: '20.05.2026 08:59' },
      ]) {
        const r = await post(body);
        assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.body.code, 2);
      }
      const undated = await post({ latitude: 56.8, longitude: 60.6 });
      assert.equal(undated.status, 400);
      assert.equal(undated.body.code, 52, 'a missing field');
      assert.equal((await fixes()).length, before);
    });
  });
}
