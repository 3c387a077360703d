import { sql } from 'kysely';
import type { Database, Db } from '../store/database.js';
import { idTable, isOneOf } from '../store/id-table.js';

/** A processed valid fix's time and the pipeline's running totals at it. */
export interface MetricRow {
  id: number;
  subscriber_id: number;
  location_date: number;
  cum_distance_m: number | null;
  cum_track_m: number | null;
  cum_engine_s: number | null;
  fuel_smoothed: number | null;
  odo_anchor_km: number | null;
  odo_anchor_cum_m: number | null;
  odo_anchor_track_m: number | null;
}

/** Per subscriber, the processed fixes that bound a period: the last in it, the first in it, the last before it. */
export interface PeriodEdges {
  last: MetricRow | null;
  first: MetricRow | null;
  before: MetricRow | null;
}

const METRIC_COLUMNS = sql.raw(
  'id, subscriber_id, location_date, cum_distance_m, cum_track_m, cum_engine_s, fuel_smoothed, odo_anchor_km, odo_anchor_cum_m, odo_anchor_track_m',
);

/**
 * The three edge fixes of `[fromMs, toMs]` for every subscriber in two statements, whatever their
 * number: one finds the edges' ids (three index seeks per subscriber through (account,
 * subscriber, time)), the other reads those rows. Running totals exist only on valid fixes the
 * pipeline has processed (`cum_distance_m` set).
 */
export async function periodEdges(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number): Promise<Map<number, PeriodEdges>> {
  const edges = new Map<number, PeriodEdges>();
  if (subscriberIds.length === 0) return edges;
  if (database.dialect === 'postgres') return periodEdgesByRow(database, executor, accountId, subscriberIds, fromMs, toMs);
  const edge = (where: ReturnType<typeof sql>, direction: 'ASC' | 'DESC') => sql`(
    SELECT x.id FROM locations x
    WHERE x.account_id = ${accountId} AND x.subscriber_id = s.id AND x.cum_distance_m IS NOT NULL AND ${where}
    ORDER BY x.location_date ${sql.raw(direction)}, x.id ${sql.raw(direction)} LIMIT 1)`;
  const { rows: ids } = await sql<{ subscriber_id: number; last_id: number | null; first_id: number | null; before_id: number | null }>`
    SELECT s.id AS subscriber_id,
      ${edge(sql`x.location_date <= ${toMs} AND x.location_date >= ${fromMs}`, 'DESC')} AS last_id,
      ${edge(sql`x.location_date >= ${fromMs} AND x.location_date <= ${toMs}`, 'ASC')} AS first_id,
      ${edge(sql`x.location_date < ${fromMs}`, 'DESC')} AS before_id
    FROM ${idTable(database, subscriberIds)} AS s`.execute(executor);
  const wanted = ids.flatMap((r) => [r.last_id, r.first_id, r.before_id]).filter((id): id is number => id !== null).map(Number);
  const rows = new Map<number, MetricRow>();
  if (wanted.length > 0) {
    const { rows: found } = await sql<MetricRow>`
      SELECT ${METRIC_COLUMNS} FROM locations WHERE account_id = ${accountId} AND ${isOneOf(database, 'id', wanted)}`.execute(executor);
    for (const row of found) rows.set(Number(row.id), numeric(row));
  }
  const pick = (id: number | null) => (id === null ? null : (rows.get(Number(id)) ?? null));
  for (const r of ids) edges.set(Number(r.subscriber_id), { last: pick(r.last_id), first: pick(r.first_id), before: pick(r.before_id) });
  return edges;
}

/**
 * periodEdges on PostgreSQL: each seek returns its row (an id alone would then be looked up in
 * every weekly partition of the locations; the seeks themselves touch only the partitions of
 * their period, newest or oldest first).
 */
async function periodEdgesByRow(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number): Promise<Map<number, PeriodEdges>> {
  const ids = idTable(database, subscriberIds);
  const edge = (name: keyof PeriodEdges, where: ReturnType<typeof sql>, direction: 'ASC' | 'DESC') => sql`
    SELECT ${sql.lit(name)} AS edge, e.* FROM ${ids} AS s CROSS JOIN LATERAL (
      SELECT ${METRIC_COLUMNS} FROM locations x
      WHERE x.account_id = ${accountId} AND x.subscriber_id = s.id AND x.cum_distance_m IS NOT NULL AND ${where}
      ORDER BY x.location_date ${sql.raw(direction)}, x.id ${sql.raw(direction)} LIMIT 1) AS e`;
  const { rows } = await sql<MetricRow & { edge: keyof PeriodEdges }>`
    ${edge('last', sql`x.location_date <= ${toMs} AND x.location_date >= ${fromMs}`, 'DESC')}
    UNION ALL ${edge('first', sql`x.location_date >= ${fromMs} AND x.location_date <= ${toMs}`, 'ASC')}
    UNION ALL ${edge('before', sql`x.location_date < ${fromMs}`, 'DESC')}`.execute(executor);
  const edges = new Map<number, PeriodEdges>();
  for (const { edge: name, ...row } of rows) {
    const subscriberId = Number(row.subscriber_id);
    const found = edges.get(subscriberId) ?? { last: null, first: null, before: null };
    found[name] = numeric(row);
    edges.set(subscriberId, found);
  }
  return edges;
}

/** pg answers bigint columns as text unless told otherwise: ids and instants as numbers. */
function numeric(row: MetricRow): MetricRow {
  return { ...row, id: Number(row.id), subscriber_id: Number(row.subscriber_id), location_date: Number(row.location_date) };
}

/** A statistics bucket's running totals, as stored. */
export interface BucketRow {
  subscriber_id: number;
  bucket_ms: number;
  last_fix_ms: number;
  metrics_before: string;
  first_fuel: number | null;
  metrics_end: string;
}

/**
 * Per subscriber, the first and the last statistics bucket of `[fromMs, toMs]` (buckets counted
 * from the quarter hour `fromMs` lies in): interval 1 over a period whose fixes retention removed
 * reads its totals here instead. Two index seeks per subscriber, one statement.
 */
export async function bucketEdges(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number): Promise<Map<number, { first: BucketRow; last: BucketRow }>> {
  const found = new Map<number, { first: BucketRow; last: BucketRow }>();
  if (subscriberIds.length === 0) return found;
  const ids = idTable(database, subscriberIds);
  const edge = (fn: 'min' | 'max') => sql`
    SELECT s.id AS subscriber_id, (SELECT ${sql.raw(fn)}(x.bucket_ms) FROM statistics_buckets x
      WHERE x.account_id = ${accountId} AND x.subscriber_id = s.id AND x.bucket_ms >= ${fromMs} AND x.bucket_ms <= ${toMs}) AS bucket_ms
    FROM ${ids} AS s`;
  const { rows } = await sql<BucketRow>`
    SELECT b.subscriber_id, b.bucket_ms, b.last_fix_ms, b.metrics_before, b.first_fuel, b.metrics_end
    FROM statistics_buckets b
    WHERE b.account_id = ${accountId} AND (b.subscriber_id, b.bucket_ms) IN (${edge('min')} UNION ${edge('max')})
    ORDER BY b.subscriber_id, b.bucket_ms`.execute(executor);
  for (const row of rows) {
    const bucket = { ...row, subscriber_id: Number(row.subscriber_id), bucket_ms: Number(row.bucket_ms), last_fix_ms: Number(row.last_fix_ms) };
    const edges = found.get(bucket.subscriber_id);
    if (edges) edges.last = bucket;
    else found.set(bucket.subscriber_id, { first: bucket, last: bucket });
  }
  return found;
}

/** The quarter-hour buckets of these subscribers from `fromMs` to `toMs` (the bucket being filled is in the pipeline's state). */
export async function bucketRows(db: Db, accountId: number, subscriberIds: number[], fromMs: number, toMs: number) {
  return db
    .selectFrom('statistics_buckets')
    .select(['subscriber_id', 'bucket_ms', 'last_fix_ms', 'metrics_before', 'first_fuel', 'metrics_end'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', subscriberIds)
    .where('bucket_ms', '>=', fromMs)
    .where('bucket_ms', '<=', toMs)
    .execute();
}

/** A page of the processed valid fixes of these subscribers in the period, by subscriber, then time (interval 3). */
export async function processedFixes(db: Db, accountId: number, subscriberIds: number[], period: { fromMs: number; toMs: number; count: number; offset: number }): Promise<Omit<MetricRow, 'id'>[]> {
  return (
    db
      .selectFrom('locations')
      .select(['subscriber_id', 'location_date', 'cum_distance_m', 'cum_track_m', 'cum_engine_s', 'fuel_smoothed', 'odo_anchor_km', 'odo_anchor_cum_m', 'odo_anchor_track_m'])
      .where('account_id', '=', accountId)
      // Running totals exist only on valid fixes the pipeline has processed.
      .where('cum_distance_m', 'is not', null)
      .where('subscriber_id', 'in', subscriberIds)
      .where('location_date', '>=', period.fromMs)
      .where('location_date', '<=', period.toMs)
      .orderBy('subscriber_id')
      .orderBy('location_date')
      .orderBy('id')
      .limit(period.count)
      .offset(period.offset)
      .execute()
  );
}

/** Fuel fillings and drains (vehicle events of types 1 and 2) of these subscribers in the period. */
export async function fuelChanges(db: Db, accountId: number, subscriberIds: number[], fromMs: number, toMs: number): Promise<{ subscriber_id: number; type: number; event_ms: number; value: number }[]> {
  return db
    .selectFrom('vehicle_events')
    .select(['subscriber_id', 'type', 'event_ms', 'value'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', subscriberIds)
    .where('type', 'in', [1, 2])
    .where('event_ms', '>=', fromMs)
    .where('event_ms', '<=', toMs)
    .execute();
}

/** Per subscriber and window, the bucket values at the window's edges; a window without buckets has nulls. */
export interface WindowEdgeRow {
  subscriber_id: number;
  /** Index of the window in the windows asked for. */
  day: number;
  /** The running totals before the first bucket's first fix (JSON of `FixMetrics`). */
  first_before: string | null;
  first_fuel: number | null;
  /** The running totals at the last bucket's last fix (JSON of `FixMetrics`). */
  last_end: string | null;
  last_fix_ms: number | null;
}

/**
 * For each subscriber and each window `[fromMs, toMs)` (whole quarter hours: the reports' local
 * days), the first and the last bucket's edge values: four index seeks per subscriber and window
 * into (account, subscriber, bucket), whatever the vehicle did in it.
 */
export async function windowEdges(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[], windows: readonly { fromMs: number; toMs: number }[]): Promise<WindowEdgeRow[]> {
  const edge = (column: string, direction: 'ASC' | 'DESC') => sql`(
      SELECT b.${sql.raw(column)} FROM statistics_buckets b
      WHERE b.subscriber_id = s.id AND b.account_id = ${accountId} AND b.bucket_ms >= d.from_ms AND b.bucket_ms < d.to_ms
      ORDER BY b.bucket_ms ${sql.raw(direction)} LIMIT 1)`;
  const { rows } = await sql<{ [K in keyof WindowEdgeRow]: WindowEdgeRow[K] | string }>`
      SELECT s.id AS subscriber_id, d.n AS day,
        ${edge('metrics_before', 'ASC')} AS first_before, ${edge('first_fuel', 'ASC')} AS first_fuel,
        ${edge('metrics_end', 'DESC')} AS last_end, ${edge('last_fix_ms', 'DESC')} AS last_fix_ms
      FROM ${idTable(database, subscriberIds)} AS s CROSS JOIN ${windowTable(database, windows)} AS d`.execute(executor);
  // pg answers bigint columns as text.
  return rows.map((r) => ({
    subscriber_id: Number(r.subscriber_id),
    day: Number(r.day),
    first_before: r.first_before as string | null,
    first_fuel: r.first_fuel as number | null,
    last_end: r.last_end as string | null,
    last_fix_ms: r.last_fix_ms === null ? null : Number(r.last_fix_ms),
  }));
}

/** `(from_ms, to_ms, n)` rows of the windows, as a table both stores can join: one parameter per column. */
function windowTable(database: Database, windows: readonly { fromMs: number; toMs: number }[]) {
  if (database.dialect === 'postgres') {
    return sql`(SELECT w.from_ms, w.to_ms, w.n - 1 AS n FROM unnest(${windows.map((w) => w.fromMs)}::bigint[], ${windows.map((w) => w.toMs)}::bigint[]) WITH ORDINALITY AS w(from_ms, to_ms, n))`;
  }
  const json = JSON.stringify(windows.map((w) => [w.fromMs, w.toMs]));
  return sql`(SELECT json_extract(value, '$[0]') AS from_ms, json_extract(value, '$[1]') AS to_ms, key AS n FROM json_each(${json}))`;
}

/** The running engine total on the subscriber's processed fixes at these times (the stops' idling: up to a few hundred times a call). */
export async function engineTotalsAt(db: Db, accountId: number, subscriberId: number, timesMs: readonly number[]): Promise<{ location_date: number; cum_engine_s: number | null }[]> {
  return db
    .selectFrom('locations')
    .select(['location_date', 'cum_engine_s'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('location_date', 'in', [...timesMs])
    .where('cum_engine_s', 'is not', null)
    .execute();
}
