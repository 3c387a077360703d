import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * Reports: what the pipeline now keeps for them (a track's highest speed, zone visits)
 * and the report schedules with the claims of their sends.
 */
export const reports: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    const double = 'double precision';

    await db.schema.alterTable('tracks').addColumn('max_speed_kmh', double).execute();
    // The trips report pages tracks by employee and start: this index holds what its filter needs,
    // so the rows a page skips are stepped over in the index without reading the table.
    await db.schema.createIndex('tracks_account_subscriber_span').on('tracks').columns(['account_id', 'subscriber_id', 'start_ms', 'finish_ms', 'is_open']).execute();

    await db.schema
      .createTable('zone_visits')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('zone_id', bigint, (c) => c.notNull())
      .addColumn('zone_name', 'text', (c) => c.notNull())
      .addColumn('entered_ms', bigint, (c) => c.notNull())
      .addColumn('left_ms', bigint)
      .addColumn('latitude', double, (c) => c.notNull())
      .addColumn('longitude', double, (c) => c.notNull())
      .execute();
    // The pipeline's key (an exit updates its entry); reports read by account, subscriber and time.
    await db.schema.createIndex('zone_visits_key').on('zone_visits').columns(['subscriber_id', 'zone_id', 'entered_ms']).unique().execute();
    await db.schema.createIndex('zone_visits_account').on('zone_visits').columns(['account_id', 'subscriber_id', 'entered_ms']).execute();

    await db.schema
      .createTable('report_schedules')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('report', 'text', (c) => c.notNull())
      .addColumn('subscriber_ids', 'text', (c) => c.notNull())
      .addColumn('subscriber_group_ids', 'text', (c) => c.notNull())
      .addColumn('recipients', 'text', (c) => c.notNull())
      .addColumn('frequency', 'text', (c) => c.notNull())
      .addColumn('weekday', 'integer')
      .addColumn('month_day', 'integer')
      .addColumn('time_of_day', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('next_run_ms', bigint, (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('report_schedules_account').on('report_schedules').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('report_schedules_due').on('report_schedules').columns(['enabled', 'next_run_ms']).execute();

    await db.schema
      .createTable('report_runs')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('schedule_id', bigint, (c) => c.notNull())
      .addColumn('period_from_ms', bigint, (c) => c.notNull())
      .addColumn('period_to_ms', bigint, (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .execute();
    // One claim per due occurrence: a second server (or a restart) inserting the same one gets nothing.
    await db.schema.createIndex('report_runs_occurrence').on('report_runs').columns(['schedule_id', 'period_from_ms']).unique().execute();
    await db.schema.createIndex('report_runs_account').on('report_runs').columns(['account_id', 'schedule_id']).execute();
  },
});
