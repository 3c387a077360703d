import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrate, type Database } from '../../src/store/database.js';
import { databaseMigratedTo, dialects, type TestDatabase } from '../helpers/stores.js';

/**
 * Migration 0007 gives pipeline checkpoints and workspace sessions their account, keeping the rows
 * a server wrote before it: a checkpoint takes the account of its subscriber's pipeline state, or
 * of the subscriber; a session that of its user.
 */
for (const dialect of dialects) {
  describe(`migration 0007 keeps existing rows (${dialect})`, () => {
    let store: TestDatabase;
    let database: Database;
    before(async () => {
      store = await databaseMigratedTo(dialect, '0006-clients');
      database = store.database;
    });
    after(() => store.drop());

    it('backfills account_id from pipeline states, subscribers and users', async () => {
      const run = (text: string) => sql.raw(text).execute(database.db);
      await run(`INSERT INTO accounts (id, name, time_zone, sms_enabled, created_at) VALUES (1, 'A', 'UTC', 0, 0), (2, 'B', 'UTC', 0, 0)`);
      await run(`INSERT INTO subscribers (id, account_id, name, document, vehicle_settings, created_at, updated_at) VALUES
                 (10, 1, 'a', '{}', '{}', 0, 0), (20, 2, 'b', '{}', '{}', 0, 0)`);
      await run(`INSERT INTO users (id, account_id, login, password_hash, created_at) VALUES (5, 2, 'b-admin', 'x', 0)`);
      await run(`INSERT INTO workspace_sessions (token_hash, user_id, created_at, expires_at) VALUES ('t', 5, 0, 1)`);
      await run(`INSERT INTO pipeline_states (subscriber_id, account_id, last_fix_ms, state) VALUES (10, 1, 7, '{}')`);
      await run(`INSERT INTO pipeline_checkpoints (subscriber_id, at_ms, state) VALUES (10, 3600000, 's10'), (20, 3600000, 's20'), (99, 3600000, 'orphan')`);

      await migrate(database);

      const checkpoints = await database.db.selectFrom('pipeline_checkpoints').select(['account_id', 'subscriber_id', 'at_ms', 'state']).orderBy('subscriber_id').execute();
      assert.deepEqual(checkpoints, [
        { account_id: 1, subscriber_id: 10, at_ms: 3_600_000, state: 's10' },
        { account_id: 2, subscriber_id: 20, at_ms: 3_600_000, state: 's20' },
      ]);
      const sessions = await database.db.selectFrom('workspace_sessions').select(['token_hash', 'account_id', 'user_id']).execute();
      assert.deepEqual(sessions, [{ token_hash: 't', account_id: 2, user_id: 5 }]);
    });
  });
}
