import type { Db, Tx } from '../store/database.js';
import type { AccountRow } from './account-store.js';

/** The statements of an account's API tokens (Settings → API tokens, `/v6/api/userManagement/tokens`). */

export interface TokenRecord {
  id: number;
  label: string;
  role: string;
  subscriber_group_ids: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}
const tokenColumns = ['id', 'label', 'role', 'subscriber_group_ids', 'created_at', 'last_used_at', 'revoked_at'] as const;

/** A live token's account, role and scope, by the token's digest (the token finds the account). */
export async function findTokenPrincipal(
  db: Db,
  tokenHash: string,
): Promise<
  (AccountRow & { token_id: number; token_label: string; user_id: number | null; role: string; subscriber_group_ids: string | null; last_used_at: number | null }) | null
> {
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['a.id', 'a.name', 'a.time_zone', 'a.sms_enabled', 'a.settings', 'a.retention_days', 'a.locale', 'a.settings_confirmed_at'])
    .select(['t.id as token_id', 't.label as token_label', 't.user_id', 't.role', 't.subscriber_group_ids', 't.last_used_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Marks the token used, unless it was marked since `since`: one write a minute per token at most,
 * however many servers and requests use it.
 */
export async function touchToken(db: Db, accountId: number, id: number, now: number, since: number): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}

export async function listTokens(db: Db, accountId: number): Promise<TokenRecord[]> {
  return db.selectFrom('api_tokens').select(tokenColumns).where('account_id', '=', accountId).orderBy('id').execute();
}

export async function findToken(executor: Db | Tx, accountId: number, id: number): Promise<TokenRecord | null> {
  return (await executor.selectFrom('api_tokens').select(tokenColumns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function insertToken(
  tx: Tx,
  token: { accountId: number; userId: number | null; tokenHash: string; label: string; role: string; subscriberGroupIds: string | null },
  now: number,
): Promise<TokenRecord> {
  return tx
    .insertInto('api_tokens')
    .values({
      account_id: token.accountId,
      user_id: token.userId,
      token_hash: token.tokenHash,
      label: token.label,
      role: token.role,
      subscriber_group_ids: token.subscriberGroupIds,
      created_at: now,
    })
    .returning(tokenColumns)
    .executeTakeFirstOrThrow();
}

export async function changeToken(tx: Tx, accountId: number, id: number, change: { label?: string; role?: string; subscriberGroupIds?: string | null }): Promise<void> {
  const set = {
    ...(change.label === undefined ? {} : { label: change.label }),
    ...(change.role === undefined ? {} : { role: change.role }),
    ...(change.subscriberGroupIds === undefined ? {} : { subscriber_group_ids: change.subscriberGroupIds }),
  };
  if (Object.keys(set).length === 0) return;
  await tx.updateTable('api_tokens').set(set).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Revokes the token: its next request, on any server, is a 401 (tokens are looked up on every request). */
export async function revokeToken(tx: Tx, accountId: number, id: number, now: number): Promise<void> {
  await tx.updateTable('api_tokens').set({ revoked_at: now }).where('account_id', '=', accountId).where('id', '=', id).where('revoked_at', 'is', null).execute();
}
