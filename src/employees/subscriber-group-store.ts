import type { Db, Tx } from '../store/database.js';
import type { SubscriberGroup } from './subscriber-group-schema.js';

const columns = ['id', 'name', 'region_id', 'comment'] as const;
type Row = { id: number; name: string; region_id: number | null; comment: string };
const toGroup = (row: Row): SubscriberGroup => ({ subscriberGroupID: row.id, name: row.name, regionID: row.region_id, comment: row.comment });

export async function listGroups(db: Db, accountId: number): Promise<SubscriberGroup[]> {
  const rows = await db.selectFrom('subscriber_groups').select(columns).where('account_id', '=', accountId).orderBy('id').execute();
  return rows.map(toGroup);
}

/**
 * One group of the account. `lock` (PostgreSQL only): an employee write shares the row so that the
 * group cannot be deleted under it; the delete takes it for update.
 */
export async function findGroup(executor: Db | Tx, accountId: number, id: number, lock: 'share' | 'update' | null = null): Promise<SubscriberGroup | null> {
  let select = executor.selectFrom('subscriber_groups').select(columns).where('account_id', '=', accountId).where('id', '=', id);
  if (lock === 'share') select = select.forShare();
  if (lock === 'update') select = select.forUpdate();
  const row = await select.executeTakeFirst();
  return row ? toGroup(row) : null;
}

export async function insertGroup(tx: Tx, accountId: number, group: Omit<SubscriberGroup, 'subscriberGroupID'>, now: number): Promise<number> {
  const { id } = await tx
    .insertInto('subscriber_groups')
    .values({ account_id: accountId, name: group.name, region_id: group.regionID, comment: group.comment, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateGroup(tx: Tx, accountId: number, group: SubscriberGroup, now: number): Promise<void> {
  await tx
    .updateTable('subscriber_groups')
    .set({ name: group.name, region_id: group.regionID, comment: group.comment, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', group.subscriberGroupID)
    .execute();
}

/** Whether a living employee of the account is in the group (a deleted one keeps its group id, unseen). */
export async function groupHasEmployees(tx: Tx, accountId: number, id: number): Promise<boolean> {
  const row = await tx
    .selectFrom('subscribers')
    .select('id')
    .where('account_id', '=', accountId)
    .where('group_id', '=', id)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteGroup(tx: Tx, accountId: number, id: number): Promise<void> {
  await tx.deleteFrom('subscriber_groups').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Which of these ids name a group of the account (the scope of a user or token is checked against them). */
export async function groupIdsAmong(db: Db, accountId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('subscriber_groups').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}
