import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * A task's history of changes: one row per change, written in the change's own
 * transaction. Change events (interface 6.4) reach the outbox only while a rule carries them, so
 * they cannot be the history. Tasks that exist already get their creation as the first row, its
 * initiator unknown.
 */
export const taskHistory: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('task_changes')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('task_id', bigint, (c) => c.notNull())
      .addColumn('changed_at', bigint, (c) => c.notNull())
      .addColumn('change_type', 'integer', (c) => c.notNull())
      .addColumn('initiator_kind', 'text')
      .addColumn('initiator_id', bigint)
      .addColumn('previous_values', 'text', (c) => c.notNull())
      .addColumn('new_values', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('task_changes_task').on('task_changes').columns(['account_id', 'task_id', 'id']).execute();
    await sql`INSERT INTO task_changes (account_id, task_id, changed_at, change_type, previous_values, new_values)
      SELECT account_id, id, created_at, 1, '{}', '{}' FROM tasks`.execute(db);
  },
});
