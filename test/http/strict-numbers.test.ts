import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * numbers in paths and query strings are decimal digits (CONTRACT §1: a
 * non-integer is 400 code 2). JavaScript's Number() reads `0x10` as 16, so `DELETE /zones/0x10`
 * deleted zone 16; and ids beyond a column's range were a 500 on PostgreSQL.
 */

const ZONES = '/v6/api/zoneManagement/zones';
const GROUPS = '/v6/api/zoneManagement/zoneGroups';
const LENIENT = ['0x2', '0b10', '0o2', '2e0', '+2', '2.0', ' 2', '2 ', 'Infinity', '-Infinity', 'NaN', '２'];

for (const dialect of dialects) {
  describe(`strict numbers (${dialect})`, () => {
    let server: TestServer;
    let zoneId: number;

    before(async () => {
      server = await startServer(dialect);
      await server.api.post(GROUPS, { name: 'one' });
      const group = await server.api.post(GROUPS, { name: 'two' });
      assert.equal(group.body.zoneGroupID, 2);
      for (let i = 0; i < 16; i += 1) zoneId = (await server.api.post(ZONES, { name: `zone ${i}` })).body.zoneID;
      assert.equal(zoneId, 16);
    });
    after(async () => server?.close());

    for (const text of LENIENT) {
      it(`reads no id or count from ${JSON.stringify(text)}`, async () => {
        const value = encodeURIComponent(text);
        const group = await server.api.get(`${GROUPS}/${value}`);
        assert.equal(group.status, 400, `GET ${GROUPS}/${text}: ${group.text}`);
        assert.equal(group.body.code, 2);
        const count = await server.api.get(`${LOCATIONS}?count=${value}`);
        assert.equal(count.status, 400, `count=${text}: ${count.text}`);
        assert.equal(count.body.code, 2);
        const list = await server.api.get(`${LOCATIONS}?subscriberIDs=1,${value}`);
        assert.equal(list.status, 400, `subscriberIDs=1,${text}: ${list.text}`);
      });
    }

    it('DELETE /zones/0x10 deletes nothing', async () => {
      const refused = await server.api.delete(`${ZONES}/0x10`);
      assert.equal(refused.status, 400);
      assert.equal((await server.api.get(`${ZONES}/16`)).status, 200, 'zone 16 is still there');
    });

    it('takes plain digits, leading zeros included', async () => {
      assert.equal((await server.api.get(`${GROUPS}/2`)).status, 200);
      assert.equal((await server.api.get(`${GROUPS}/002`)).status, 200);
    });

    for (const id of ['1e20', 'Infinity', '99999999999999999999', '9223372036854775808', '-1', '0']) {
      it(`an operator route with account id ${id} answers 4xx, never 500`, async () => {
        const response = await server.api.withToken(ADMIN_TOKEN).patch(`/admin/v1/accounts/${id}`, { smsEnabled: true });
        assert.equal(response.status, 400, response.text);
        assert.equal(response.body.code, 2);
      });
    }
  });
}
