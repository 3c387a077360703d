// An account's GPS filter through its route: the defaults in effect, the account's own rules, refusals
// that change nothing, and the rules taking effect on the fixes that come next.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read } from '../helpers/bad-input.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const PATH = '/v6/api/accountManagement/gpsFilter';
const DEFAULTS = { zeroCoordinates: true, duplicates: true, maxAccuracyM: 500, maxSpeedKmh: 300, confirmFixes: 3 };
const T0 = Date.parse('2026-05-20T06:00:00Z');

for (const dialect of dialects) {
  describe(`an account's GPS filter on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { now: T0 + 3_600_000 });
    });
    after(() => server.close());

    it('is the defaults until the account sets its own rules; rules left out of a PUT take their defaults', async () => {
      assert.deepEqual(await read(server.api, PATH), DEFAULTS);
      assert.equal((await server.api.put(PATH, { maxSpeedKmh: 200, zeroCoordinates: false, unknownRule: 5 })).status, 204);
      assert.deepEqual(await read(server.api, PATH), { ...DEFAULTS, maxSpeedKmh: 200, zeroCoordinates: false });
      const stored = await server.database.db.selectFrom('accounts').select('settings').where('id', '=', server.account.id).executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(stored.settings), { gpsFilter: { maxSpeedKmh: 200, zeroCoordinates: false } }, 'unknown fields are not stored');
      assert.equal((await server.api.put(PATH, { confirmFixes: 5 })).status, 204);
      assert.deepEqual(await read(server.api, PATH), { ...DEFAULTS, confirmFixes: 5 });

      const other = await server.newAccount();
      assert.deepEqual(await read(other.api, PATH), DEFAULTS, 'another account keeps its own');
    });

    it('refuses rules of the wrong type or out of range with 400 code 2, and changes nothing', async () => {
      for (const body of [{ maxSpeedKmh: -1 }, { maxSpeedKmh: '300' }, { confirmFixes: 1.5 }, { duplicates: 'yes' }, { maxAccuracyM: 2_000_000 }, []]) {
        await assertRefusedUnchanged(() => read(server.api, PATH), () => server.api.put(PATH, body), { code: 2 }, JSON.stringify(body));
      }
      // A rule sent as null is a missing argument (CONTRACT §1): leave it out to take its default.
      await assertRefusedUnchanged(() => read(server.api, PATH), () => server.api.put(PATH, { maxAccuracyM: null }), { code: 52, field: 'maxAccuracyM' }, 'null');
    });

    it('applies to the fixes that come next', async () => {
      const car = await createEmployee(server.api, { name: 'Car' });
      const at = (seconds: number, latitude: number) => ({ subscriberID: car, locationDate: new Date(T0 + seconds * 1000).toISOString(), latitude, longitude: 37.6, velocity: 0 });
      const validity = async () => {
        const listed = await server.api.get(`${LOCATIONS}?subscriberIDs=${car}&dateFrom=2026-05-20T00:00:00Z`);
        return listed.body.map((l: any) => l.isValid).reverse();
      };
      assert.equal((await server.api.put(PATH, {})).status, 204);
      assert.equal((await server.api.post(LOCATIONS, [at(0, 55.75), at(10, 55.85)])).status, 201);
      assert.deepEqual(await validity(), [true, false], '11 km in 10 s is set aside');
      assert.equal((await server.api.put(PATH, { maxSpeedKmh: 0 })).status, 204);
      assert.equal((await server.api.post(LOCATIONS, [at(20, 55.95)])).status, 201);
      assert.deepEqual(await validity(), [true, false, true], 'with the rule off, the next jump is kept');
    });
  });
}
