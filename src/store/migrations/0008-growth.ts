import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { historyPartitionName, WEEK_MS, weekStartMs } from '../weeks.js';
import type { MigrationFactory } from './migration-helpers.js';

/** Fixes are never dated more than 24 h ahead (ingestion refuses them); the history partition reaches past that. */
const HISTORY_REACH_MS = 2 * 86_400_000;

/**
 * Years of data: each account's retention, the mark below which an account's fixes
 * are gone (the pipeline never replays across it), an index to find finished deliveries by age,
 * and, on PostgreSQL, the locations partitioned by week of `location_date`.
 */
export const growth: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

    // Days of fixes the account keeps; null: the server's RETENTION_DAYS; 0: for ever.
    await db.schema.alterTable('accounts').addColumn('retention_days', 'integer').execute();
    await db.schema
      .createTable('location_retention')
      .addColumn('account_id', bigint, (c) => c.primaryKey())
      .addColumn('removed_before_ms', bigint, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('deliveries_finished')
      .on('deliveries')
      .columns(['account_id', 'finished_at'])
      .where(sql.ref('finished_at'), 'is not', null)
      .execute();

    if (dialect === 'postgres') await partitionLocations(db, weekStartMs(Date.now() + HISTORY_REACH_MS) + WEEK_MS);
  },
});

/**
 * The existing table becomes the history partition of a new partitioned `locations`, keeping its
 * rows and ids without copying them: only the new primary key is built, and the partition bound
 * checked, in one pass over the rows. The id sequence moves to the new table (it would go with
 * the history partition when retention drops it). A partitioned table's primary key must hold the
 * partition key, so it is (id, location_date); ids stay unique because one sequence gives them.
 */
async function partitionLocations(db: Kysely<unknown>, historyUntilMs: number): Promise<void> {
  const history = historyPartitionName('locations');
  await sql`ALTER TABLE locations RENAME TO ${sql.table(history)}`.execute(db);
  await sql`ALTER TABLE ${sql.table(history)} DROP CONSTRAINT locations_pkey`.execute(db);
  await sql`ALTER INDEX locations_account_id RENAME TO locations_history_account_id`.execute(db);
  await sql`ALTER INDEX locations_subscriber_date RENAME TO locations_history_subscriber_date`.execute(db);
  await sql`CREATE TABLE locations (LIKE ${sql.table(history)} INCLUDING DEFAULTS) PARTITION BY RANGE (location_date)`.execute(db);
  await sql`ALTER SEQUENCE locations_id_seq OWNED BY locations.id`.execute(db);
  await sql`ALTER TABLE locations ADD CONSTRAINT locations_pkey PRIMARY KEY (id, location_date)`.execute(db);
  // The same indexes as before, now on every partition (the history's own are attached, not rebuilt).
  await sql`CREATE INDEX locations_account_id ON locations (account_id, id)`.execute(db);
  await sql`CREATE INDEX locations_subscriber_date ON locations (account_id, subscriber_id, location_date, id)`.execute(db);
  await sql`ALTER TABLE locations ATTACH PARTITION ${sql.table(history)} FOR VALUES FROM (MINVALUE) TO (${sql.lit(historyUntilMs)})`.execute(db);
}
