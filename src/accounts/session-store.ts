import type { Db, Tx } from '../store/database.js';
import type { AccountRow } from './account-store.js';

/**
 * The statements of workspace sign-in: users, sessions and counted password tries. Sessions and
 * users are found by a credential (a login, a token's digest) before the account is known; every
 * other statement names the account.
 */

export interface UserRow {
  id: number;
  account_id: number;
  login: string;
  password_hash: string;
  role: string;
  subscriber_group_ids: string | null;
  is_active: number;
  must_change_password: number;
}

/** The session's user and expiry, with its account's columns (`id` is the account's). */
export type SessionRow = AccountRow & {
  user_id: number;
  expires_at: number;
  login: string;
  setup_only: number;
  role: string;
  subscriber_group_ids: string | null;
  is_active: number;
  must_change_password: number;
};

/** The user a sign-in names (logins are unique across accounts). */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'account_id', 'login', 'password_hash', 'role', 'subscriber_group_ids', 'is_active', 'must_change_password'])
    .where('login', '=', login)
    .executeTakeFirst();
  return row ?? null;
}

/** A user of the account; `name` defaults to the login, `role` to admin (the operator's and the first start's users). */
export async function insertUser(
  db: Db | Tx,
  accountId: number,
  user: { login: string; passwordHash: string; name?: string; role?: string; subscriberGroupIds?: string | null; mustChangePassword?: boolean },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      account_id: accountId,
      login: user.login,
      password_hash: user.passwordHash,
      name: user.name ?? user.login,
      role: user.role ?? 'admin',
      subscriber_group_ids: user.subscriberGroupIds ?? null,
      must_change_password: user.mustChangePassword ? 1 : 0,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The login of each of the account's users among `ids` (for who did something). */
export function userLogins(db: Db, accountId: number, ids: readonly number[]): Promise<{ id: number; login: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'login']).where('account_id', '=', accountId).where('id', 'in', [...ids]).execute();
}

export async function findPasswordHash(db: Db, accountId: number, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

/** The user's own new password, which is no longer a temporary one. */
export async function setPasswordHash(tx: Tx, accountId: number, userId: number, passwordHash: string): Promise<void> {
  await tx.updateTable('users').set({ password_hash: passwordHash, must_change_password: 0 }).where('account_id', '=', accountId).where('id', '=', userId).execute();
}

/** Ended sessions of every account are forgotten as new ones begin (and by retention, hourly); the number removed. */
export async function deleteEndedSessions(executor: Db | Tx, now: number): Promise<number> {
  const result = await executor.deleteFrom('workspace_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertSession(
  tx: Tx,
  row: { tokenHash: string; accountId: number; userId: number; createdAt: number; expiresAt: number; setupOnly: boolean },
): Promise<void> {
  await tx
    .insertInto('workspace_sessions')
    .values({
      token_hash: row.tokenHash,
      account_id: row.accountId,
      user_id: row.userId,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
      setup_only: row.setupOnly ? 1 : 0,
    })
    .execute();
}

/** A cookie's session with its user's login and account, by the token's digest. */
export async function findSession(db: Db, tokenHash: string): Promise<SessionRow | null> {
  const row = await db
    .selectFrom('workspace_sessions as s')
    .innerJoin('users as u', (join) => join.onRef('u.id', '=', 's.user_id').onRef('u.account_id', '=', 's.account_id'))
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['s.user_id', 's.expires_at', 's.setup_only', 'u.login', 'u.role', 'u.subscriber_group_ids', 'u.is_active', 'u.must_change_password'])
    .select(['a.id', 'a.name', 'a.time_zone', 'a.sms_enabled', 'a.settings', 'a.retention_days', 'a.locale', 'a.settings_confirmed_at'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ?? null;
}

/** Moves a used session's end forward (sliding expiry). */
export async function extendSession(db: Db, accountId: number, tokenHash: string, expiresAt: number): Promise<void> {
  await db.updateTable('workspace_sessions').set({ expires_at: expiresAt }).where('account_id', '=', accountId).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('workspace_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Every session of the user but the one kept (after a password change). */
export async function deleteOtherSessions(tx: Tx, accountId: number, userId: number, keptTokenHash: string): Promise<void> {
  await tx
    .deleteFrom('workspace_sessions')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('token_hash', '!=', keptTokenHash)
    .execute();
}

/**
 * Counts one password try under the key in a single statement, so tries sent at once to several
 * servers are each counted (the row is locked while it is updated): a window whose time has
 * passed starts again at 1. Returns the tries counted in the window, this one included, and when
 * the window began.
 */
export async function countTry(db: Db, keyDigest: string, now: number, windowMs: number): Promise<{ tries: number; since: number }> {
  return db
    .insertInto('sign_in_attempts')
    .values({ key_digest: keyDigest, tries: 1, since: now })
    .onConflict((oc) =>
      oc.column('key_digest').doUpdateSet((eb) => {
        const expired = eb('sign_in_attempts.since', '<=', now - windowMs);
        return {
          tries: eb.case().when(expired).then(1).else(eb('sign_in_attempts.tries', '+', 1)).end(),
          since: eb.case().when(expired).then(now).else(eb.ref('sign_in_attempts.since')).end(),
        };
      }),
    )
    .returning(['tries', 'since'])
    .executeTakeFirstOrThrow();
}

/** A right password clears the key's tries. */
export async function clearTries(db: Db, keyDigest: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('key_digest', '=', keyDigest).execute();
}

/** Tries whose window began at or before `beforeMs` lock nothing any more. */
export async function deleteTriesBefore(db: Db, beforeMs: number): Promise<number> {
  const result = await db.deleteFrom('sign_in_attempts').where('since', '<=', beforeMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
