import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * Where and when an employee's device last connected: the address a tracker's accepted login
 * came from (`device_address`) and its time (`device_connected_at`), shown on the employee's
 * page beside the last data. Null until the device's next login.
 */
export const deviceConnections: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema.alterTable('subscribers').addColumn('device_address', 'text').execute();
    await db.schema.alterTable('subscribers').addColumn('device_connected_at', bigint).execute();
  },
});
