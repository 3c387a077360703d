import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { AccountService } from '../../src/accounts/account-service.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { databaseMigratedTo, dialects } from '../helpers/stores.js';
import { setStatus, TASKS } from './task-fixtures.js';

/** The server's clock: every change is dated by it. */
const T0 = Date.parse('2026-05-20T09:00:00Z');
const HISTORY = (taskID: number | string) => `${TASKS}/${taskID}/history`;

for (const dialect of dialects) {
  describe(`a task's history on ${dialect}`, () => {
    let server: TestServer;
    let anna: number;
    let boris: number;

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      anna = await createEmployee(server.api, { name: 'Anna', deviceKey: 'anna-phone-1' });
      boris = await createEmployee(server.api, { name: 'Boris', deviceKey: 'boris-phone-1' });
    });
    after(() => server.close());

    it('lists the creation, each reassignment and status change with its initiator and the values before and after', async () => {
      const created = await server.api.post(TASKS, { title: 'Deliver pallets', startDate: '2026-05-20T14:00:00', subscriberID: anna });
      assert.equal(created.status, 201, created.text);
      const taskID = created.body.taskID as number;

      server.setNow(T0 + 60_000);
      assert.equal((await server.api.patch(`${TASKS}/${taskID}`, { subscriberID: boris })).status, 204);
      // The same value again is no change: no entry.
      assert.equal((await server.api.patch(`${TASKS}/${taskID}`, { subscriberID: boris })).status, 204);
      server.setNow(T0 + 120_000);
      const done = await setStatus(server.api, 'boris-phone-1', taskID, { status: 3, comment: 'Signed' });
      assert.equal(done.status, 200, done.text);

      const history = await server.api.get(HISTORY(taskID));
      assert.equal(history.status, 200, history.text);
      const userID = (await new AccountService(server.database).authenticate(server.token))?.userID;
      assert.deepEqual(
        history.body.map((c: any) => ({ ...c, changeID: undefined })),
        [
          { changeID: undefined, changeDate: '2026-05-20T12:00:00+03:00', changeTypeID: 1, userID, changedValues: {}, newValues: {} },
          { changeID: undefined, changeDate: '2026-05-20T12:01:00+03:00', changeTypeID: 2, userID, changedValues: { subscriberID: anna }, newValues: { subscriberID: boris } },
          {
            changeID: undefined,
            changeDate: '2026-05-20T12:02:00+03:00',
            changeTypeID: 2,
            subscriberID: boris,
            changedValues: { status: 0, lastStatusChangeDate: '2026-05-20T12:00:00+03:00', statusComment: null },
            newValues: { status: 3, lastStatusChangeDate: '2026-05-20T12:02:00+03:00', statusComment: 'Signed' },
          },
        ],
      );
      const ids = history.body.map((c: any) => c.changeID as number);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids, 'oldest first');
    });

    it('is 404 code 18 for a deleted task, an unknown one and another account’s', async () => {
      const created = await server.api.post(TASKS, { title: 'Short-lived', startDate: '2026-05-20T14:00:00' });
      assert.equal((await server.api.delete(`${TASKS}/${created.body.taskID}`)).status, 204);
      for (const path of [HISTORY(created.body.taskID), HISTORY(999_999)]) {
        const r = await server.api.get(path);
        assert.equal(r.status, 404, path);
        assert.equal(r.body.code, 18);
      }
      const mine = await server.api.post(TASKS, { title: 'Mine', startDate: '2026-05-20T14:00:00' });
      const stranger = await server.newAccount();
      const r = await stranger.api.get(HISTORY(mine.body.taskID));
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 18);
    });
  });

  it(`on ${dialect}, tasks created before the history existed start it with their creation, initiator unknown`, async () => {
    // A database as a server before the history left it.
    const { database, drop } = await databaseMigratedTo(dialect, '0009-reports');
    try {
      const account = await database.db
        .insertInto('accounts')
        .values({ name: 'Old', time_zone: 'UTC', sms_enabled: 0, created_at: T0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto('tasks')
        .values({ account_id: account.id, subscriber_id: null, external_id: null, status: 0, start_ms: T0, deadline_ms: null, document: '{}', created_at: T0 - 5000, updated_at: T0, deleted_at: null, task_type_id: null })
        .execute();
      const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
      const up = await migrator.migrateToLatest();
      assert.equal(up.error, undefined);
      const rows = await database.db.selectFrom('task_changes').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.equal(Number(rows[0]!.changed_at), T0 - 5000);
      assert.equal(rows[0]!.change_type, 1);
      assert.equal(rows[0]!.initiator_kind, null);
    } finally {
      await drop();
    }
  });
}
