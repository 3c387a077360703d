import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * Why the GPS filter set a fix aside (null: it did not), and the accuracy the device sent, which
 * the filter judges. Fixes set aside are stored with is_valid 0; the reason tells them from fixes
 * the device itself sent as invalid, so a replay judges them again as in-order arrival would.
 * Nullable columns without default: no rewrite of the rows, and on PostgreSQL the partitions of
 * `locations` take them from their parent.
 */
export const gpsFilter: MigrationFactory = (_dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('locations').addColumn('filter_reason', 'integer').execute();
    await db.schema.alterTable('locations').addColumn('accuracy_m', 'double precision').execute();
  },
});
