import { sql } from 'kysely';
import type { Db, Tx } from '../store/database.js';
import type { SubscriberRequestsTable } from '../store/schema.js';

export type RequestRow = Omit<SubscriberRequestsTable, 'id' | 'account_id'> & { id: number };
const columns = ['id', 'subscriber_id', 'requested_at', 'result_code', 'location_id', 'message'] as const;

export async function insertRequest(tx: Tx, accountId: number, row: Omit<RequestRow, 'id'>): Promise<number> {
  const { id } = await tx
    .insertInto('subscriber_requests')
    .values({ account_id: accountId, ...row })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** PostgreSQL: one request of an employee at a time, so that two at once cannot both pass the rate limit. */
export async function lockEmployeeRequests(tx: Tx, accountId: number, subscriberId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`locate:${accountId}:${subscriberId}`}, 0))`.execute(tx);
}

/** When the employee's last request that was answered (not refused as too often) was made, or null. */
export async function lastAnsweredAt(tx: Tx, accountId: number, subscriberId: number, tooOften: number): Promise<number | null> {
  const row = await tx
    .selectFrom('subscriber_requests')
    .select('requested_at')
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('result_code', '<>', tooOften)
    .orderBy('requested_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.requested_at ?? null;
}

export async function listRequests(
  db: Db,
  accountId: number,
  filter: { fromMs: number; toMs: number; subscriberIds: number[] | undefined; count: number; offset: number },
): Promise<RequestRow[]> {
  let select = db
    .selectFrom('subscriber_requests')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('requested_at', '>=', filter.fromMs)
    .where('requested_at', '<=', filter.toMs);
  if (filter.subscriberIds?.length) select = select.where('subscriber_id', 'in', filter.subscriberIds);
  return select.orderBy('id', 'desc').limit(filter.count).offset(filter.offset).execute();
}

export async function findRequest(db: Db, accountId: number, id: number): Promise<RequestRow | null> {
  const row = await db.selectFrom('subscriber_requests').select(columns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}
