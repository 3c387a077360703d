import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read } from '../helpers/bad-input.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const RETRANSLATORS = '/v6/api/trackerManagement/egtsRetranslators';
const NOW = Date.parse('2024-05-20T10:00:00Z');

for (const dialect of dialects) {
  describe(`EGTS retranslators API on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { now: NOW });
    });
    after(() => server?.close());

    it('adds a retranslator and never shows its password again; the store keeps only a hash', async () => {
      const created = await server.api.post(RETRANSLATORS, { dispatcherID: 2219, name: 'Regional dispatch', password: 'Relay-Pass-01' });
      assert.equal(created.status, 201, created.text);
      const id = created.body.retranslatorID;
      assert.deepEqual(created.body, { retranslatorID: id, dispatcherID: 2219, name: 'Regional dispatch', createdAt: '2024-05-20T10:00:00+00:00' });
      assert.equal(created.headers.get('location'), `${RETRANSLATORS}/${id}`);
      assert.deepEqual(await read(server.api, RETRANSLATORS), [created.body]);
      assert.deepEqual(await read(server.api, `${RETRANSLATORS}/${id}`), created.body);
      const row = await server.database.db.selectFrom('egts_retranslators').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^scrypt\$/);
      assert.ok(!row.password_hash.includes('Relay-Pass-01'));
      assert.deepEqual(await server.services.devices.retranslators.authenticate(2219, 'Relay-Pass-01'), { accountId: server.account.id, retranslatorId: id });
      assert.equal(await server.services.devices.retranslators.authenticate(2219, 'Relay-Pass-02'), null);
    });

    it('refuses a second retranslator with the account\'s dispatcher id (409) and bad fields (400), changing nothing', async () => {
      const list = () => read(server.api, RETRANSLATORS);
      await assertRefusedUnchanged(list, () => server.api.post(RETRANSLATORS, { dispatcherID: 2219, name: 'Again', password: 'Relay-Pass-02' }), { code: 1008, field: 'dispatcherID' }, 'same dispatcher id');
      const bad: [string, Record<string, unknown>, number][] = [
        ['a short password', { dispatcherID: 1, name: 'x', password: 'short' }, 2],
        ['a password with a space', { dispatcherID: 1, name: 'x', password: 'with a space' }, 2],
        ['a password longer than UPSW holds', { dispatcherID: 1, name: 'x', password: 'p'.repeat(32) }, 2],
        ['a Cyrillic password', { dispatcherID: 1, name: 'x', password: 'пароль-пароль' }, 2],
        ['a dispatcher id above 32 bits', { dispatcherID: 4_294_967_296, name: 'x', password: 'Relay-Pass-03' }, 2],
        ['a negative dispatcher id', { dispatcherID: -1, name: 'x', password: 'Relay-Pass-03' }, 2],
        ['no password', { dispatcherID: 1, name: 'x' }, 52],
        ['no name', { dispatcherID: 1, password: 'Relay-Pass-03' }, 52],
      ];
      for (const [label, body, code] of bad) await assertRefusedUnchanged(list, () => server.api.post(RETRANSLATORS, body), { code: [code, 2] }, label);
    });

    it('keeps accounts apart: another account sees none, cannot read or delete one, and may use the same dispatcher id', async () => {
      const [mine] = (await read(server.api, RETRANSLATORS)) as { retranslatorID: number }[];
      const other = await server.newAccount();
      assert.deepEqual(await read(other.api, RETRANSLATORS), []);
      const list = () => read(server.api, RETRANSLATORS);
      await assertRefusedUnchanged(list, () => other.api.get(`${RETRANSLATORS}/${mine!.retranslatorID}`), { code: 1024 }, 'read another account\'s');
      await assertRefusedUnchanged(list, () => other.api.delete(`${RETRANSLATORS}/${mine!.retranslatorID}`), { code: 1024 }, 'delete another account\'s');
      const theirs = await other.api.post(RETRANSLATORS, { dispatcherID: 2219, name: 'Same platform', password: 'Other-Pass-01' });
      assert.equal(theirs.status, 201, theirs.text);
      assert.deepEqual(await server.services.devices.retranslators.authenticate(2219, 'Other-Pass-01'), { accountId: other.account.id, retranslatorId: theirs.body.retranslatorID });
    });

    it('deletes a retranslator: 204, then 404; it no longer authenticates', async () => {
      const [mine] = (await read(server.api, RETRANSLATORS)) as { retranslatorID: number }[];
      assert.equal((await server.api.delete(`${RETRANSLATORS}/${mine!.retranslatorID}`)).status, 204);
      await assertRefusedUnchanged(() => read(server.api, RETRANSLATORS), () => server.api.delete(`${RETRANSLATORS}/${mine!.retranslatorID}`), { code: 1024 }, 'deleted twice');
      assert.equal(await server.services.devices.retranslators.authenticate(2219, 'Relay-Pass-01'), null);
    });
  });
}
