import { sql, type Selectable } from 'kysely';
import { BulkWriter, bulkInsert, bulkUpdate, rowsFor, type BulkRows } from '../store/bulk-writer.js';
import type { Database, Db, Tx } from '../store/database.js';
import { idTable } from '../store/id-table.js';
import type { LocationsTable } from '../store/schema.js';
import type { Fix } from './fix.js';
import { LocationPartitions } from './location-partitions.js';
import type { FixMetrics } from './pipeline/pipeline-types.js';

/** The running totals the pipeline keeps on each fix (FixMetrics), as columns. */
export type MetricColumns = Pick<
  LocationsTable,
  'cum_distance_m' | 'cum_track_m' | 'cum_engine_s' | 'fuel_smoothed' | 'odo_anchor_km' | 'odo_anchor_cum_m' | 'odo_anchor_track_m'
>;

/** A fix as ingestion stores it. */
export type LocationInsert = Omit<Selectable<LocationsTable>, 'id'>;
/** New running totals of one stored fix of the account, and whether the GPS filter sets it aside. */
export type LocationMetricsUpdate = MetricColumns & Pick<LocationsTable, 'is_valid' | 'filter_reason'> & { account_id: number; id: number };

const METRIC_TYPES = {
  cum_distance_m: 'double precision',
  cum_track_m: 'double precision',
  cum_engine_s: 'double precision',
  fuel_smoothed: 'double precision',
  odo_anchor_km: 'double precision',
  odo_anchor_cum_m: 'double precision',
  odo_anchor_track_m: 'double precision',
} as const;

const INSERT_LOCATIONS = bulkInsert<'locations', LocationInsert>({
  table: 'locations',
  columns: {
    account_id: 'bigint',
    subscriber_id: 'bigint',
    location_date: 'bigint',
    received_at: 'bigint',
    is_valid: 'integer',
    latitude: 'double precision',
    longitude: 'double precision',
    angle: 'integer',
    velocity: 'double precision',
    fuel_level: 'double precision',
    ignition: 'integer',
    external_power: 'integer',
    odometer: 'double precision',
    engine_hours: 'double precision',
    sensors: 'text',
    filter_reason: 'integer',
    accuracy_m: 'double precision',
    ...METRIC_TYPES,
  },
});

const UPDATE_METRICS = bulkUpdate<'locations', LocationMetricsUpdate>({
  table: 'locations',
  key: ['account_id', 'id'],
  columns: { account_id: 'bigint', id: 'bigint', is_valid: 'integer', filter_reason: 'integer', ...METRIC_TYPES },
});

const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);

export function metricColumns(metrics: FixMetrics | null): MetricColumns {
  return {
    cum_distance_m: metrics?.cumDistanceM ?? null,
    cum_track_m: metrics?.cumTrackM ?? null,
    cum_engine_s: metrics?.cumEngineS ?? null,
    fuel_smoothed: metrics?.fuelSmoothed ?? null,
    odo_anchor_km: metrics?.odoAnchorKm ?? null,
    odo_anchor_cum_m: metrics?.odoAnchorCumM ?? null,
    odo_anchor_track_m: metrics?.odoAnchorTrackM ?? null,
  };
}

/**
 * The insert of these fixes, with the pipeline's metrics when already known, for
 * `BulkWriter.insertAll`; `rejected[i]`, when not 0, is why the GPS filter set fix i aside: it is
 * stored invalid, with the reason (so a replay can judge it again as the device sent it).
 */
export function insertionOf(accountId: number, receivedAt: number, fixes: Fix[], metrics: (FixMetrics | null)[], rejected?: number[]): BulkRows {
  const rows = fixes.map((fix, i): LocationInsert => ({
    account_id: accountId,
    subscriber_id: fix.subscriberId,
    location_date: fix.locationDateMs,
    received_at: receivedAt,
    is_valid: fix.isValid && !rejected?.[i] ? 1 : 0,
    filter_reason: rejected?.[i] || null,
    accuracy_m: fix.accuracyM ?? null,
    latitude: fix.latitude,
    longitude: fix.longitude,
    angle: fix.angle,
    velocity: fix.velocityKmh,
    fuel_level: fix.fuelLevel,
    ignition: flag(fix.ignition),
    external_power: flag(fix.externalPower),
    odometer: fix.odometer,
    engine_hours: fix.engineHours,
    sensors: fix.sensors ? JSON.stringify(fix.sensors) : null,
    ...metricColumns(metrics[i] ?? null),
  }));
  return rowsFor(INSERT_LOCATIONS, rows);
}

/** Stores fixes, with the pipeline's metrics when already known, inside the caller's transaction. */
export class LocationStore {
  private readonly bulk: BulkWriter;
  readonly partitions: LocationPartitions;

  constructor(database: Database) {
    this.bulk = new BulkWriter(database);
    this.partitions = new LocationPartitions(database);
  }

  /**
   * Before the batch's fixes are stored: on PostgreSQL, the weekly partition of the newest exists
   * (made in this transaction when it is past the newest week made).
   */
  async coverWeeksOf(tx: Tx, fixes: readonly Fix[]): Promise<void> {
    if (fixes.length === 0) return;
    await this.partitions.cover(tx, fixes.reduce((newest, fix) => Math.max(newest, fix.locationDateMs), Number.NEGATIVE_INFINITY));
  }

  /** Stores fixes made into an insertion by `insertionOf`. */
  async insert(tx: Tx, insertion: BulkRows): Promise<void> {
    await this.bulk.insertAll(tx, [insertion]);
  }

  /**
   * New running totals for fixes a replay went over, all dated `fromMs` or later (on PostgreSQL
   * only the weekly partitions from there on are searched).
   */
  async updateMetrics(tx: Tx, fromMs: number, rows: LocationMetricsUpdate[]): Promise<void> {
    await this.bulk.update(tx, UPDATE_METRICS, rows, [{ column: 'location_date', op: '>=', value: fromMs }]);
  }
}

/** A listed fix: the columns of interface 2.1, and when it arrived (the mobile routes' requestDate). */
export interface LocationRow {
  id: number;
  subscriber_id: number;
  location_date: number;
  received_at: number;
  is_valid: number;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
}

const listed = ['id', 'subscriber_id', 'location_date', 'received_at', 'is_valid', 'latitude', 'longitude', 'angle', 'velocity'] as const;

export interface LocationFilter {
  fromMs: number;
  toMs: number;
  subscriberIds?: number[] | undefined;
  /** Pages go newest first: ids below the last one a client saw. */
  beforeId?: number | undefined;
  count: number;
  offset: number;
}

/**
 * The account's fixes dated in the period, newest (by id) first. The period bounds the weekly
 * partitions searched on PostgreSQL; one vehicle's day is read through (account, subscriber, time).
 */
export async function listLocations(db: Db, accountId: number, filter: LocationFilter): Promise<LocationRow[]> {
  let select = db
    .selectFrom('locations')
    .select(listed)
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
    return select.orderBy(id, 'desc').limit(filter.count).offset(filter.offset).execute();
  }
  // The account's newest: backwards through (account, id), stopping at the page's end.
  if (filter.beforeId !== undefined) select = select.where('id', '<', filter.beforeId);
  return select.orderBy('id', 'desc').limit(filter.count).offset(filter.offset).execute();
}

export async function findLocation(db: Db, accountId: number, id: number): Promise<LocationRow | null> {
  const row = await db.selectFrom('locations').select(listed).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** The valid fixes of one subscriber of the account from `fromMs` to `toMs`, oldest first (a track's). */
export async function validFixesBetween(db: Db, accountId: number, subscriberId: number, fromMs: number, toMs: number): Promise<LocationRow[]> {
  return db
    .selectFrom('locations')
    .select(listed)
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('location_date', '>=', fromMs)
    .where('location_date', '<=', toMs)
    .where('is_valid', '=', 1)
    .orderBy('location_date')
    .orderBy('id')
    .execute();
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
