import { sql } from 'kysely';
import { BulkWriter, type Column } from '../store/bulk-writer.js';
import type { Database, Db, Tx } from '../store/database.js';
import type { Fix } from './fix.js';
import { LocationPartitions } from './location-partitions.js';
import type { FixMetrics } from './pipeline/pipeline-types.js';

const FIX_COLUMNS: Column[] = [
  { name: 'account_id', pgType: 'bigint' },
  { name: 'subscriber_id', pgType: 'bigint' },
  { name: 'location_date', pgType: 'bigint' },
  { name: 'received_at', pgType: 'bigint' },
  { name: 'is_valid', pgType: 'integer' },
  { name: 'latitude', pgType: 'double precision' },
  { name: 'longitude', pgType: 'double precision' },
  { name: 'angle', pgType: 'integer' },
  { name: 'velocity', pgType: 'double precision' },
  { name: 'fuel_level', pgType: 'double precision' },
  { name: 'ignition', pgType: 'integer' },
  { name: 'external_power', pgType: 'integer' },
  { name: 'odometer', pgType: 'double precision' },
  { name: 'engine_hours', pgType: 'double precision' },
  { name: 'sensors', pgType: 'text' },
];

/** The running totals the pipeline keeps on each fix (FixMetrics), in column order. */
export const METRIC_COLUMNS: Column[] = [
  { name: 'cum_distance_m', pgType: 'double precision' },
  { name: 'cum_track_m', pgType: 'double precision' },
  { name: 'cum_engine_s', pgType: 'double precision' },
  { name: 'fuel_smoothed', pgType: 'double precision' },
  { name: 'odo_anchor_km', pgType: 'double precision' },
  { name: 'odo_anchor_cum_m', pgType: 'double precision' },
  { name: 'odo_anchor_track_m', pgType: 'double precision' },
];

const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);

export function metricValues(metrics: FixMetrics | null): unknown[] {
  if (!metrics) return [null, null, null, null, null, null, null];
  return [
    metrics.cumDistanceM, metrics.cumTrackM, metrics.cumEngineS, metrics.fuelSmoothed,
    metrics.odoAnchorKm, metrics.odoAnchorCumM, metrics.odoAnchorTrackM,
  ];
}

/** Stores fixes, with the pipeline's metrics when already known, inside the caller's transaction. */
export class LocationStore {
  private readonly bulk: BulkWriter;
  readonly partitions: LocationPartitions;

  constructor(database: Database) {
    this.bulk = new BulkWriter(database);
    this.partitions = new LocationPartitions(database);
  }

  async insert(tx: Tx, accountId: number, receivedAt: number, fixes: Fix[], metrics: (FixMetrics | null)[]): Promise<void> {
    if (fixes.length === 0) return;
    await this.partitions.cover(tx, fixes.reduce((newest, fix) => Math.max(newest, fix.locationDateMs), Number.NEGATIVE_INFINITY));
    const rows = fixes.map((fix, i) => [
      accountId, fix.subscriberId, fix.locationDateMs, receivedAt, fix.isValid ? 1 : 0, fix.latitude, fix.longitude, fix.angle,
      fix.velocityKmh, fix.fuelLevel, flag(fix.ignition), flag(fix.externalPower), fix.odometer, fix.engineHours,
      fix.sensors ? JSON.stringify(fix.sensors) : null,
      ...metricValues(metrics[i] ?? null),
    ]);
    await this.bulk.upsert(tx, 'locations', [...FIX_COLUMNS, ...METRIC_COLUMNS], [], [], rows);
  }

  /**
   * New running totals for fixes a replay went over: rows of `[locationID, ...metricValues]`, all
   * of the account and dated `fromMs` or later (on PostgreSQL only the partitions from there on are searched).
   */
  async updateMetrics(tx: Tx, accountId: number, fromMs: number, rows: unknown[][]): Promise<void> {
    await this.bulk.updateByKey(tx, 'locations', { name: 'id', pgType: 'bigint' }, METRIC_COLUMNS, rows, [
      { column: 'account_id', op: '=', value: accountId },
      { column: 'location_date', op: '>=', value: fromMs },
    ]);
  }
}

/** A listed fix: the columns of interface 2.1. */
export interface LocationRow {
  id: number;
  subscriber_id: number;
  location_date: number;
  is_valid: number;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
}

/**
 * A page of the account's fixes of a period, newest first by id; a client pages by passing the
 * last id it saw (CONTRACT §1, real API). The period bounds the weekly partitions searched on
 * PostgreSQL; one vehicle's day is read through (account, subscriber, time).
 */
export function listLocations(
  db: Db,
  accountId: number,
  filter: { fromMs: number; toMs: number; subscriberIds?: readonly number[]; beforeId?: number; count: number; offset: number },
) {
  let select = db
    .selectFrom('locations')
    .select(['id', 'subscriber_id', 'location_date', 'is_valid', 'latitude', 'longitude', 'angle', 'velocity'])
    .where('account_id', '=', accountId)
    .where('location_date', '>=', filter.fromMs)
    .where('location_date', '<=', filter.toMs);
  if (filter.subscriberIds?.length) {
    // `+id`: these vehicles' period is sought through (account, subscriber, time) and sorted. With
    // a bare `id`, SQLite would rather walk the account's fixes backwards by id, through every
    // other vehicle's and every later day's: a read that slows down as the store grows.
    const id = sql<number>`+${sql.ref('id')}`;
    select = select.where('subscriber_id', 'in', filter.subscriberIds);
    if (filter.beforeId !== undefined) select = select.where(id, '<', filter.beforeId);
    return select.orderBy(id, 'desc').limit(filter.count).offset(filter.offset);
  }
  // The account's newest: backwards through (account, id), stopping at the page's end.
  if (filter.beforeId !== undefined) select = select.where('id', '<', filter.beforeId);
  return select.orderBy('id', 'desc').limit(filter.count).offset(filter.offset);
}

/**
 * The latest fix (by its time, then id) of each of these subscribers of the account, in subscriber
 * order: one index seek per subscriber through (account, subscriber, time), whatever the history.
 */
export async function latestFixes(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[]): Promise<LocationRow[]> {
  if (subscriberIds.length === 0) return [];
  const ids = idTable(database, subscriberIds);
  // PostgreSQL: the row itself from each seek (an id alone would be looked up in every weekly partition).
  const { rows } = database.dialect === 'postgres' ? await sql<LocationRow>`
    SELECT l.id, l.subscriber_id, l.location_date, l.is_valid, l.latitude, l.longitude, l.angle, l.velocity
    FROM ${ids} AS s CROSS JOIN LATERAL (
      SELECT x.id, x.subscriber_id, x.location_date, x.is_valid, x.latitude, x.longitude, x.angle, x.velocity FROM locations x
      WHERE x.account_id = ${accountId} AND x.subscriber_id = s.id
      ORDER BY x.location_date DESC, x.id DESC LIMIT 1) AS l
    ORDER BY l.subscriber_id`.execute(executor) : await sql<LocationRow>`
    SELECT l.id, l.subscriber_id, l.location_date, l.is_valid, l.latitude, l.longitude, l.angle, l.velocity
    FROM locations l
    WHERE l.account_id = ${accountId} AND l.id IN (
      SELECT (SELECT x.id FROM locations x
              WHERE x.account_id = ${accountId} AND x.subscriber_id = s.id
              ORDER BY x.location_date DESC, x.id DESC LIMIT 1)
      FROM ${ids} AS s)
    ORDER BY l.subscriber_id`.execute(executor);
  return rows.map((r) => ({ ...r, id: Number(r.id), subscriber_id: Number(r.subscriber_id), location_date: Number(r.location_date) }));
}

/** The account's subscribers the pipeline has seen: every subscriber with fixes or derived rows has a state. */
export async function subscribersWithData(executor: Db, accountId: number): Promise<number[]> {
  const rows = await executor.selectFrom('pipeline_states').select('subscriber_id').where('account_id', '=', accountId).orderBy('subscriber_id').execute();
  return rows.map((r) => r.subscriber_id);
}

/**
 * A list of ids as a one-column table `(id)` to select from, one parameter whatever its length:
 * an array on PostgreSQL, a JSON text on SQLite.
 */
export function idTable(database: Database, ids: readonly number[]) {
  return database.dialect === 'postgres'
    ? sql`(SELECT unnest(${[...ids]}::bigint[]) AS id)`
    : sql`(SELECT value AS id FROM json_each(${JSON.stringify(ids)}))`;
}
