import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * Module boundaries: every tenant table carries `account_id`, so that every statement
 * can filter on it and the tables can one day be distributed by account (DESIGN "Growing past one
 * machine"); and sign-in attempts are counted in the database, shared by every server.
 *
 * - `pipeline_checkpoints` gets `account_id` as the first column of its key. The table is rebuilt
 *   (SQLite cannot change a primary key in place), taking the account from the subscriber's
 *   pipeline state or, failing that, from the subscriber; a checkpoint of neither is of no use and
 *   is left behind.
 * - `workspace_sessions` gets `account_id`, the account of the session's user.
 * - `sign_in_attempts`: tries per (login, client) and per user (password changes), keyed by a
 *   digest of that text. Not a tenant table: a sign-in is counted before any account is known.
 */
export const boundaries: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

    await db.schema
      .createTable('pipeline_checkpoints_new')
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('at_ms', bigint, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('pipeline_checkpoints_key', ['account_id', 'subscriber_id', 'at_ms'])
      .execute();
    await sql`INSERT INTO pipeline_checkpoints_new (account_id, subscriber_id, at_ms, state)
              SELECT COALESCE(p.account_id, s.account_id), c.subscriber_id, c.at_ms, c.state
              FROM pipeline_checkpoints c
              LEFT JOIN pipeline_states p ON p.subscriber_id = c.subscriber_id
              LEFT JOIN subscribers s ON s.id = c.subscriber_id
              WHERE COALESCE(p.account_id, s.account_id) IS NOT NULL`.execute(db);
    await db.schema.dropTable('pipeline_checkpoints').execute();
    await db.schema.alterTable('pipeline_checkpoints_new').renameTo('pipeline_checkpoints').execute();

    // SQLite adds a NOT NULL column only with a default; every row gets its real account at once.
    await db.schema
      .alterTable('workspace_sessions')
      .addColumn('account_id', bigint, (c) => (dialect === 'postgres' ? c : c.notNull().defaultTo(0)))
      .execute();
    await sql`UPDATE workspace_sessions SET account_id = (SELECT u.account_id FROM users u WHERE u.id = workspace_sessions.user_id)`.execute(db);
    if (dialect === 'postgres') await sql`ALTER TABLE workspace_sessions ALTER COLUMN account_id SET NOT NULL`.execute(db);

    await db.schema
      .createTable('sign_in_attempts')
      .addColumn('key_digest', 'text', (c) => c.primaryKey())
      .addColumn('tries', 'integer', (c) => c.notNull())
      .addColumn('since', bigint, (c) => c.notNull())
      .execute();
    // Sweeping old attempts finds them by when their window began.
    await db.schema.createIndex('sign_in_attempts_since').on('sign_in_attempts').column('since').execute();
  },
});
