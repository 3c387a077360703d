import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * A device key finds its living employee (the OsmAnd listener, a tracker's login, the employee's
 * task endpoints). The keys asked for in one turn of the event loop are read together, as when a
 * fleet reconnects after a restart: each asker still gets the owner of its own key.
 */
for (const dialect of dialects) {
  describe(`device keys looked up together on ${dialect}`, () => {
    let server: TestServer;
    let other: Awaited<ReturnType<TestServer['newAccount']>>;
    before(async () => {
      server = await startServer(dialect);
      other = await server.newAccount();
    });
    after(async () => server?.close());

    it('answers every key asked for at once with its own owner, across accounts, and null for unknown and deleted ones', async () => {
      const mine: number[] = [];
      for (let i = 0; i < 30; i++) mine.push(await createEmployee(server.api, { name: `Phone ${i}`, deviceKey: `together-${i}` }));
      const theirs = await createEmployee(other.api, { name: 'Elsewhere', deviceKey: 'together-theirs' });
      const gone = await createEmployee(server.api, { name: 'Gone', deviceKey: 'together-gone' });
      const deleted = await server.api.delete(`${SUBSCRIBERS}/${gone}`);
      assert.ok(deleted.status < 300, deleted.text);

      const employees = server.services.employees;
      const asked = [...mine.map((_, i) => `together-${i}`), 'together-theirs', 'together-gone', 'together-unknown', 'together-3'];
      // All asked in one turn: one read serves them.
      const owners = await Promise.all(asked.map((key) => employees.findByDeviceKey(key)));
      mine.forEach((id, i) => assert.deepEqual(owners[i], { accountId: server.account.id, subscriberId: id, readingMap: null }));
      assert.deepEqual(owners[30], { accountId: other.account.id, subscriberId: theirs, readingMap: null });
      assert.equal(owners[31], null, 'a deleted employee is no owner');
      assert.equal(owners[32], null, 'an unknown key has no owner');
      assert.deepEqual(owners[33], owners[3], 'a key asked twice gets the same owner');
    });

    it('more keys at once than one read takes are all answered', async () => {
      // Written at once, as an import writes them.
      const rows = Array.from({ length: 1200 }, (_, i) => ({
        account_id: server.account.id, name: `Many ${i}`, is_active: 1, device_key: `many-${i}`, document: '{}', vehicle_settings: '{}', created_at: 0, updated_at: 0,
      }));
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 300) {
        for (const { id } of await server.database.db.insertInto('subscribers').values(rows.slice(i, i + 300)).returning('id').execute()) ids.push(Number(id));
      }
      const owners = await Promise.all(ids.map((_, i) => server.services.employees.findByDeviceKey(`many-${i}`)));
      assert.deepEqual(
        owners.map((owner) => owner?.subscriberId),
        ids,
      );
    });
  });
}
