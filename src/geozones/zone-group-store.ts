import type { Db, Tx } from '../store/database.js';

/** The statements of zone groups. */

export type ZoneGroupRow = { id: number; name: string; parent_id: number | null; region_id: number | null };
export type ZoneGroupColumns = Omit<ZoneGroupRow, 'id'>;

const columns = ['id', 'name', 'parent_id', 'region_id'] as const;

export async function listZoneGroups(db: Db, accountId: number): Promise<ZoneGroupRow[]> {
  return db.selectFrom('zone_groups').select(columns).where('account_id', '=', accountId).orderBy('id').execute();
}

export async function findZoneGroup(executor: Db, accountId: number, id: number): Promise<ZoneGroupRow | null> {
  const row = await executor.selectFrom('zone_groups').select(columns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

export async function insertZoneGroup(tx: Tx, accountId: number, group: ZoneGroupColumns, now: number): Promise<number> {
  const { id } = await tx
    .insertInto('zone_groups')
    .values({ ...group, account_id: accountId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateZoneGroup(tx: Tx, accountId: number, id: number, group: ZoneGroupColumns, now: number): Promise<void> {
  await tx.updateTable('zone_groups').set({ ...group, updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Whether a group of the account has this one as its parent. */
export async function groupHasChildren(tx: Tx, accountId: number, id: number): Promise<boolean> {
  const row = await tx.selectFrom('zone_groups').select('id').where('account_id', '=', accountId).where('parent_id', '=', id).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function deleteZoneGroup(tx: Tx, accountId: number, id: number): Promise<void> {
  await tx.deleteFrom('zone_groups').where('account_id', '=', accountId).where('id', '=', id).execute();
}
