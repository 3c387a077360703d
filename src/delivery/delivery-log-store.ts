import { sql } from 'kysely';
import type { Db, Tx } from '../store/database.js';
import type { DeliveriesTable, DeliveryStatus } from '../store/schema.js';

/** The statements of the deliveries log (its routes) and of waking the delivery workers. */

export type DeliveryRow = Omit<DeliveriesTable, 'id' | 'attempt_count'> & { id: number; attempt_count: number };
export interface AttemptRow {
  delivery_id: number;
  attempted_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface DeliveryFilter {
  fromMs: number;
  toMs: number;
  status?: DeliveryStatus | undefined;
  eventRuleId?: number | undefined;
  beforeId?: number | undefined;
  count: number;
  offset: number;
}

/** The account's deliveries created in the period, newest first. */
export async function listDeliveries(db: Db, accountId: number, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  let select = db
    .selectFrom('deliveries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('created_at', '>=', filter.fromMs)
    .where('created_at', '<=', filter.toMs);
  if (filter.status) select = select.where('status', '=', filter.status);
  if (filter.eventRuleId !== undefined) select = select.where('event_rule_id', '=', filter.eventRuleId);
  if (filter.beforeId !== undefined) select = select.where('id', '<', filter.beforeId);
  return select.orderBy('id', 'desc').limit(filter.count).offset(filter.offset).execute();
}

export async function findDelivery(db: Db, accountId: number, id: number): Promise<DeliveryRow | null> {
  const row = await db.selectFrom('deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** A finished delivery goes again from its first attempt; false when it is still pending (or not the account's). */
export async function requeueDelivery(tx: Tx, accountId: number, id: number, now: number): Promise<boolean> {
  const result = await tx
    .updateTable('deliveries')
    .set({ status: 'pending', attempt_count: 0, next_attempt_at: now, finished_at: null, locked_by: null, locked_until: null })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'delivered'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The attempts of these deliveries of the account, in order. */
export async function attemptsOf(db: Db, accountId: number, deliveryIds: number[]): Promise<AttemptRow[]> {
  return db
    .selectFrom('delivery_attempts')
    .select(['delivery_id', 'attempted_at', 'duration_ms', 'status_code', 'error'])
    .where('account_id', '=', accountId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('id')
    .execute();
}

/** PostgreSQL: tells every server's delivery worker, once the transaction commits, that there is work. */
export async function notifyWorkers(tx: Tx, channel: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, '')`.execute(tx);
}

/**
 * Up to `limit` of the account's deliveries that finished (delivered, or failed for good) before
 * `beforeMs`, oldest first through (account, finished_at): what retention removes. Pending ones
 * never: nothing is deleted before it is sent or finally failed (DESIGN).
 */
export async function finishedDeliveriesBefore(tx: Tx, accountId: number, beforeMs: number, limit: number): Promise<number[]> {
  const rows = await tx
    .selectFrom('deliveries')
    .select('id')
    .where('account_id', '=', accountId)
    .where('finished_at', '<', beforeMs)
    .where('status', '<>', 'pending')
    .orderBy('finished_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteAttemptsOf(tx: Tx, accountId: number, deliveryIds: readonly number[]): Promise<void> {
  await tx.deleteFrom('delivery_attempts').where('account_id', '=', accountId).where('delivery_id', 'in', [...deliveryIds]).execute();
}

export async function deleteDeliveries(tx: Tx, accountId: number, deliveryIds: readonly number[]): Promise<void> {
  await tx.deleteFrom('deliveries').where('account_id', '=', accountId).where('id', 'in', [...deliveryIds]).execute();
}
