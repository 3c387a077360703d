import type { Db, Tx } from '../store/database.js';

/** The statements of an account's users (Settings → Users, `/v6/api/userManagement/users`); each names the account. */

export interface UserRecord {
  id: number;
  login: string;
  name: string;
  role: string;
  subscriber_group_ids: string | null;
  is_active: number;
  last_sign_in_at: number | null;
}
const userColumns = ['id', 'login', 'name', 'role', 'subscriber_group_ids', 'is_active', 'last_sign_in_at'] as const;

export async function listUsers(db: Db, accountId: number): Promise<UserRecord[]> {
  return db.selectFrom('users').select(userColumns).where('account_id', '=', accountId).orderBy('id').execute();
}

/** One user of the account; `forUpdate` (PostgreSQL) holds it while a change is decided. */
export async function findUser(executor: Db | Tx, accountId: number, id: number, forUpdate = false): Promise<UserRecord | null> {
  let select = executor.selectFrom('users').select(userColumns).where('account_id', '=', accountId).where('id', '=', id);
  if (forUpdate) select = select.forUpdate();
  return (await select.executeTakeFirst()) ?? null;
}

/**
 * The ids of the account's active admins, locked on PostgreSQL (`forUpdate`): two admins demoting
 * each other at once are decided one after the other, so one admin always stays.
 */
export async function activeAdminIds(tx: Tx, accountId: number, forUpdate: boolean): Promise<number[]> {
  let select = tx.selectFrom('users').select('id').where('account_id', '=', accountId).where('role', '=', 'admin').where('is_active', '=', 1);
  if (forUpdate) select = select.forUpdate();
  return (await select.execute()).map((row) => row.id);
}

export async function changeUser(
  tx: Tx,
  accountId: number,
  id: number,
  change: { name?: string; role?: string; subscriberGroupIds?: string | null; isActive?: boolean; passwordHash?: string; mustChangePassword?: boolean },
): Promise<void> {
  const set = {
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.role === undefined ? {} : { role: change.role }),
    ...(change.subscriberGroupIds === undefined ? {} : { subscriber_group_ids: change.subscriberGroupIds }),
    ...(change.isActive === undefined ? {} : { is_active: change.isActive ? 1 : 0 }),
    ...(change.passwordHash === undefined ? {} : { password_hash: change.passwordHash }),
    ...(change.mustChangePassword === undefined ? {} : { must_change_password: change.mustChangePassword ? 1 : 0 }),
  };
  if (Object.keys(set).length === 0) return;
  await tx.updateTable('users').set(set).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Every session of the user (it was turned off, removed, or given a new password). */
export async function deleteUserSessions(tx: Tx, accountId: number, id: number): Promise<void> {
  await tx.deleteFrom('workspace_sessions').where('account_id', '=', accountId).where('user_id', '=', id).execute();
}

/** The tokens the user made stay the account's; they no longer name their maker. */
export async function forgetTokenMaker(tx: Tx, accountId: number, id: number): Promise<void> {
  await tx.updateTable('api_tokens').set({ user_id: null }).where('account_id', '=', accountId).where('user_id', '=', id).execute();
}

export async function deleteUser(tx: Tx, accountId: number, id: number): Promise<void> {
  await tx.deleteFrom('users').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** When the user last signed in. */
export async function recordSignIn(db: Db | Tx, accountId: number, id: number, now: number): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}
