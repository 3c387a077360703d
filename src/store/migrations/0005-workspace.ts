import type { Kysely } from 'kysely';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * Sessions of the coordinator workspace: a random token in an HttpOnly cookie, stored only as
 * its SHA-256, so that a session survives a restart and works on every server.
 */
export const workspace: MigrationFactory = (dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('workspace_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', bigint, (c) => c.notNull().references('users.id'))
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('expires_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('workspace_sessions_user').on('workspace_sessions').column('user_id').execute();
  },
});
