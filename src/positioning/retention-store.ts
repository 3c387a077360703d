import { sql } from 'kysely';
import type { Database, Db, Tx } from '../store/database.js';
import { idTable } from '../store/id-table.js';

/**
 * Retention's statements on the positioning tables (docs/operators/retention.md). Old rows go oldest
 * first in slices of about `limit`: the `limit`-th oldest row's time is found through the
 * table's (…, time) index (`nthOldest…`), then everything up to it is deleted by the same index
 * range (`delete…UpTo`), so a slice costs what its rows cost however much is left (and on
 * PostgreSQL touches only the weeks it lies in). Every statement names the account.
 */

/** The instant below which the account's fixes were removed, or null when none ever were. */
export async function removedBefore(executor: Db, accountId: number): Promise<number | null> {
  const row = await executor.selectFrom('location_retention').select('removed_before_ms').where('account_id', '=', accountId).executeTakeFirst();
  return row?.removed_before_ms ?? null;
}

/** Moves the account's mark up to `beforeMs` (never down: what is gone stays gone). */
export async function markRemovedBefore(executor: Db, accountId: number, beforeMs: number): Promise<void> {
  await executor
    .insertInto('location_retention')
    .values({ account_id: accountId, removed_before_ms: beforeMs })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ removed_before_ms: sql`CASE WHEN excluded.removed_before_ms > location_retention.removed_before_ms THEN excluded.removed_before_ms ELSE location_retention.removed_before_ms END` }))
    .execute();
}

/** Per table, the time column its oldest rows are found and sliced by, through an index led by (account, subscriber, time). */
const SLICED = {
  locations: 'location_date',
  vehicle_events: 'event_ms',
  statistics_buckets: 'bucket_ms',
} as const;
// Zone visits by their start: a vehicle whose only old visit is still open gets one empty slice.
const TIMED = { ...SLICED, subscriber_requests: 'requested_at', pipeline_checkpoints: 'at_ms', zone_visits: 'entered_ms' } as const;

export type SlicedTable = keyof typeof SLICED;
export type TimedTable = keyof typeof TIMED;

/**
 * Which of the account's `subscriberIds` have a row of `table` dated before `beforeMs`: one seek
 * each, one statement, so that an hourly run opens no transaction for a vehicle with nothing to remove.
 */
export async function subscribersWithRowsBefore(database: Database, table: TimedTable, accountId: number, subscriberIds: readonly number[], beforeMs: number): Promise<number[]> {
  if (subscriberIds.length === 0) return [];
  const time = sql.ref(`x.${TIMED[table]}`);
  const { rows } = await sql<{ id: number }>`
    SELECT s.id FROM ${idTable(database, subscriberIds)} AS s
    WHERE EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.account_id = ${accountId} AND x.subscriber_id = s.id AND ${time} < ${beforeMs})`.execute(database.db);
  return rows.map((r) => Number(r.id));
}

/** The time of the subscriber's `n`-th oldest row of `table` before `beforeMs`, or null when it has fewer. */
export async function nthOldestOfSubscriber(tx: Tx, table: SlicedTable, accountId: number, subscriberId: number, beforeMs: number, n: number): Promise<number | null> {
  const time = sql.ref(SLICED[table]);
  const { rows } = await sql<{ at: number }>`
    SELECT ${time} AS at FROM ${sql.table(table)}
    WHERE account_id = ${accountId} AND subscriber_id = ${subscriberId} AND ${time} < ${beforeMs}
    ORDER BY ${time} LIMIT 1 OFFSET ${n - 1}`.execute(tx);
  return rows[0] === undefined ? null : Number(rows[0].at);
}

/** Removes the subscriber's rows of `table` before `beforeMs` and, when given, at or before `upToMs`; the number removed. */
export async function deleteOfSubscriberUpTo(tx: Tx, table: SlicedTable, accountId: number, subscriberId: number, beforeMs: number, upToMs: number | null): Promise<number> {
  const time = sql.ref(SLICED[table]);
  const upTo = upToMs === null ? sql`` : sql` AND ${time} <= ${upToMs}`;
  const result = await sql`
    DELETE FROM ${sql.table(table)}
    WHERE account_id = ${accountId} AND subscriber_id = ${subscriberId} AND ${time} < ${beforeMs}${upTo}`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/** The start of the account's `n`-th oldest closed track that ended before `beforeMs`, by (account, start); null when fewer. */
export async function nthOldestTrackStart(tx: Tx, accountId: number, beforeMs: number, n: number): Promise<number | null> {
  const row = await tx
    .selectFrom('tracks')
    .select('start_ms')
    .where('account_id', '=', accountId)
    .where('start_ms', '<', beforeMs)
    .where('finish_ms', '<', beforeMs)
    .where('is_open', '=', 0)
    .orderBy('start_ms')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
  return row?.start_ms ?? null;
}

/** Removes the account's closed tracks that ended before `beforeMs` and, when given, started at or before `upToMs`; the number removed. */
export async function deleteTracksUpTo(tx: Tx, accountId: number, beforeMs: number, upToMs: number | null): Promise<number> {
  let remove = tx.deleteFrom('tracks').where('account_id', '=', accountId).where('start_ms', '<', beforeMs).where('finish_ms', '<', beforeMs).where('is_open', '=', 0);
  if (upToMs !== null) remove = remove.where('start_ms', '<=', upToMs);
  const result = await remove.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The time the subscriber's `n`-th oldest closed zone visit that ended before `beforeMs` began, by
 * the (account, subscriber, entered) index; null when it has fewer. A visit still open (the vehicle
 * is inside) stays, however long ago it began: the reports show it until it ends.
 */
export async function nthOldestClosedVisit(tx: Tx, accountId: number, subscriberId: number, beforeMs: number, n: number): Promise<number | null> {
  const row = await tx
    .selectFrom('zone_visits')
    .select('entered_ms')
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('entered_ms', '<', beforeMs)
    .where('left_ms', '<', beforeMs)
    .orderBy('entered_ms')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
  return row?.entered_ms ?? null;
}

/** Removes the subscriber's zone visits that ended before `beforeMs` and, when given, began at or before `upToMs`; the number removed. */
export async function deleteClosedVisitsUpTo(tx: Tx, accountId: number, subscriberId: number, beforeMs: number, upToMs: number | null): Promise<number> {
  let remove = tx
    .deleteFrom('zone_visits')
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('entered_ms', '<', beforeMs)
    .where('left_ms', '<', beforeMs);
  if (upToMs !== null) remove = remove.where('entered_ms', '<=', upToMs);
  const result = await remove.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** "Locate now" requests of the subscriber made before `beforeMs` (they name fixes that are gone). */
export async function deleteRequestsBefore(tx: Tx, accountId: number, subscriberId: number, beforeMs: number): Promise<number> {
  const result = await tx
    .deleteFrom('subscriber_requests')
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('requested_at', '<', beforeMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
