import type { Kysely } from 'kysely';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * The processing pipeline (CONTRACT §2): running totals on each fix, per-subscriber state and
 * hourly checkpoints, tracks, vehicle events and quarter-hour statistics buckets.
 */
export const pipeline: MigrationFactory = (dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    const real = 'double precision';

    await db.schema.alterTable('accounts').addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}')).execute();
    for (const column of ['cum_distance_m', 'cum_track_m', 'cum_engine_s', 'fuel_smoothed', 'odo_anchor_km', 'odo_anchor_cum_m', 'odo_anchor_track_m']) {
      await db.schema.alterTable('locations').addColumn(column, real).execute();
    }

    await db.schema
      .createTable('pipeline_states')
      .addColumn('subscriber_id', bigint, (c) => c.primaryKey())
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('last_fix_ms', bigint)
      .addColumn('state', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('pipeline_checkpoints')
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('at_ms', bigint, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('pipeline_checkpoints_pk', ['subscriber_id', 'at_ms'])
      .execute();

    await db.schema
      .createTable('tracks')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('start_ms', bigint, (c) => c.notNull())
      .addColumn('finish_ms', bigint, (c) => c.notNull())
      .addColumn('start_lat', real, (c) => c.notNull())
      .addColumn('start_lon', real, (c) => c.notNull())
      .addColumn('finish_lat', real, (c) => c.notNull())
      .addColumn('finish_lon', real, (c) => c.notNull())
      .addColumn('distance_m', real, (c) => c.notNull())
      .addColumn('is_open', 'integer', (c) => c.notNull())
      .addColumn('start_address', 'text', (c) => c.notNull())
      .addColumn('finish_address', 'text', (c) => c.notNull())
      // 0 until the reverse geocoder has named the point (the address is then the fallback text).
      .addColumn('start_geocoded', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('finish_geocoded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // A track is known by where it starts in time: replays update it in place and its id stays.
    await db.schema.createIndex('tracks_subscriber_start').on('tracks').columns(['subscriber_id', 'start_ms']).unique().execute();
    await db.schema.createIndex('tracks_account_id').on('tracks').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('tracks_account_start').on('tracks').columns(['account_id', 'start_ms']).execute();

    await db.schema
      .createTable('vehicle_events')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('event_ms', bigint, (c) => c.notNull())
      .addColumn('detail', bigint, (c) => c.notNull())
      .addColumn('latitude', real, (c) => c.notNull())
      .addColumn('longitude', real, (c) => c.notNull())
      .addColumn('value', real, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('vehicle_events_key')
      .on('vehicle_events')
      .columns(['subscriber_id', 'event_ms', 'type', 'detail'])
      .unique()
      .execute();

    await db.schema
      .createTable('statistics_buckets')
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('bucket_ms', bigint, (c) => c.notNull())
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('first_fix_ms', bigint, (c) => c.notNull())
      .addColumn('last_fix_ms', bigint, (c) => c.notNull())
      .addColumn('fix_count', 'integer', (c) => c.notNull())
      .addColumn('metrics_before', 'text', (c) => c.notNull())
      .addColumn('first_fuel', real)
      .addColumn('metrics_end', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('statistics_buckets_pk', ['subscriber_id', 'bucket_ms'])
      .execute();
  },
});
