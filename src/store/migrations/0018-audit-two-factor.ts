import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * The audit log (who changed what, and every sign-in), and the second factor of sign-in: a
 * user's TOTP secret, its one-time recovery codes (hashed), and sessions limited to setting the
 * second factor up where the account requires it.
 */
export const auditTwoFactor: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('audit_entries')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('at', bigint, (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', bigint)
      .addColumn('actor_label', 'text')
      .addColumn('address', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('object_id', bigint)
      .addColumn('changes', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_entries_account').on('audit_entries').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('audit_entries_at').on('audit_entries').column('at').execute();

    await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
    await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
    await db.schema.alterTable('users').addColumn('totp_enabled_at', bigint).execute();
    await db.schema.alterTable('users').addColumn('totp_last_step', bigint).execute();
    await db.schema
      .createTable('recovery_codes')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('user_id', bigint, (c) => c.notNull().references('users.id'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', bigint)
      .execute();
    await db.schema.createIndex('recovery_codes_user').on('recovery_codes').columns(['account_id', 'user_id']).execute();
    await db.schema.alterTable('workspace_sessions').addColumn('setup_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
});
