import { sql } from 'kysely';
import type { Database, Db, Tx } from '../store/database.js';
import { idTable } from './location-store.js';

/**
 * Retention's statements on the positioning tables (README, "Retention"). Old rows go oldest
 * first in slices of about `limit`: the `limit`-th oldest row's time is found through the
 * table's (…, time) index, then everything up to it is deleted by the same index range, so a
 * slice costs what its rows cost however much is left (and on PostgreSQL touches only the weeks
 * it lies in). No statement reads a row of another account.
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

/** Per table, the time column its oldest rows are found and sliced by, through an index led by (account or subscriber, time). */
const SLICED = {
  locations: 'location_date',
  vehicle_events: 'event_ms',
  statistics_buckets: 'bucket_ms',
} as const;
const TIMED = { ...SLICED, subscriber_requests: 'requested_at', pipeline_checkpoints: 'at_ms' } as const;

/**
 * Which of the account's `subscriberIds` have a row of `table` dated before `beforeMs`: one seek
 * each, one statement, so that an hourly run opens no transaction for a vehicle with nothing to remove.
 * (pipeline_checkpoints carries no account yet: the ids are the account's own.)
 */
export async function subscribersWithRowsBefore(
  database: Database,
  table: keyof typeof TIMED,
  accountId: number,
  subscriberIds: readonly number[],
  beforeMs: number,
): Promise<number[]> {
  if (subscriberIds.length === 0) return [];
  const time = sql.ref(`x.${TIMED[table]}`);
  const account = table === 'pipeline_checkpoints' ? sql`` : sql`x.account_id = ${accountId} AND `;
  const { rows } = await sql<{ id: number }>`
    SELECT s.id FROM ${idTable(database, subscriberIds)} AS s
    WHERE EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE ${account}x.subscriber_id = s.id AND ${time} < ${beforeMs})`.execute(database.db);
  return rows.map((r) => Number(r.id));
}

/**
 * Removes the subscriber's oldest rows of `table` dated before `beforeMs`, about `limit` of them
 * (a few more when several share the last instant); the number removed. Fewer than `limit`
 * means none are left.
 */
export async function deleteOldestOfSubscriber(tx: Tx, table: keyof typeof SLICED, accountId: number, subscriberId: number, beforeMs: number, limit: number): Promise<number> {
  const time = sql.ref(SLICED[table]);
  const scope = sql`account_id = ${accountId} AND subscriber_id = ${subscriberId} AND ${time} < ${beforeMs}`;
  const { rows } = await sql<{ at: number }>`
    SELECT ${time} AS at FROM ${sql.table(table)} WHERE ${scope} ORDER BY ${time} LIMIT 1 OFFSET ${limit - 1}`.execute(tx);
  const upTo = rows[0] === undefined ? sql`` : sql` AND ${time} <= ${Number(rows[0].at)}`;
  const result = await sql`DELETE FROM ${sql.table(table)} WHERE ${scope}${upTo}`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/** Removes the account's oldest closed tracks that ended before `beforeMs`, about `limit` of them, by (account, start). */
export async function deleteOldestTracks(tx: Tx, accountId: number, beforeMs: number, limit: number): Promise<number> {
  const scoped = () =>
    tx.selectFrom('tracks').where('account_id', '=', accountId).where('start_ms', '<', beforeMs).where('finish_ms', '<', beforeMs).where('is_open', '=', 0);
  const nth = await scoped().select('start_ms').orderBy('start_ms').limit(1).offset(limit - 1).executeTakeFirst();
  let remove = tx.deleteFrom('tracks').where('account_id', '=', accountId).where('start_ms', '<', beforeMs).where('finish_ms', '<', beforeMs).where('is_open', '=', 0);
  if (nth) remove = remove.where('start_ms', '<=', nth.start_ms);
  const result = await remove.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The subscriber's checkpoints before `beforeMs`: a replay cannot start there once the fixes
 * after them are gone. A subscriber has at most one an hour for 8 days, so one statement.
 */
export async function deleteCheckpointsBefore(tx: Tx, subscriberId: number, beforeMs: number): Promise<number> {
  const result = await tx.deleteFrom('pipeline_checkpoints').where('subscriber_id', '=', subscriberId).where('at_ms', '<', beforeMs).executeTakeFirst();
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
