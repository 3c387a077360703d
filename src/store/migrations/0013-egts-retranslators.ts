import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * The EGTS retranslators an account lets in (docs/operators/devices-egts.md): another platform relaying the
 * account's vehicles names itself by a dispatcher id and proves a password, kept as its scrypt
 * hash. A dispatcher id is unique within an account only: two accounts may each know a platform
 * as dispatcher 1, and its password tells which one it is.
 */
export const egtsRetranslators: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('egts_retranslators')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('dispatcher_id', bigint, (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('egts_retranslators_account_dispatcher').unique().on('egts_retranslators').columns(['account_id', 'dispatcher_id']).execute();
    await db.schema.createIndex('egts_retranslators_dispatcher').on('egts_retranslators').column('dispatcher_id').execute();
  },
});
