import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * The account's language (`ru` or `en`) for what it reads, and when an admin first confirmed the
 * account's zone and language: until then the workspace asks for them at sign-in, since the
 * first start creates the account on the server's defaults.
 */
export const accountLanguage: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema.alterTable('accounts').addColumn('locale', 'text', (c) => c.notNull().defaultTo('en')).execute();
    await db.schema.alterTable('accounts').addColumn('settings_confirmed_at', bigint).execute();
  },
});
