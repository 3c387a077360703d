import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * A device key names the protocol it is heard on (`device_protocol`: null, as every key before,
 * is heard on every listener) and may carry a password the terminal's login must give
 * (`device_password`, a scrypt hash; null: none). Existing employees keep null for both and go on
 * working as they did.
 */
export const deviceIdentity: MigrationFactory = (_dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('subscribers').addColumn('device_protocol', 'text').execute();
    await db.schema.alterTable('subscribers').addColumn('device_password', 'text').execute();
  },
});
