import type { Db } from '../store/database.js';
import type { IdempotencyKeysTable } from '../store/schema.js';

/** The statements of `Idempotency-Key` (CONTRACT §1): one row per account and key. */

/** Forgets the key when its answer is older than `expiredBeforeMs`, or its claim was abandoned before `abandonedBeforeMs`. */
export async function deleteStaleKey(db: Db, accountId: number, key: string, expiredBeforeMs: number, abandonedBeforeMs: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where((eb) =>
      eb.or([eb('created_at', '<', expiredBeforeMs), eb.and([eb('status_code', 'is', null), eb('created_at', '<', abandonedBeforeMs)])]),
    )
    .execute();
}

/** Claims the key for a first request; false when the key is already there (a repeat). */
export async function claimKey(db: Db, accountId: number, key: string, fingerprint: string, now: number): Promise<boolean> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ account_id: accountId, key, fingerprint, status_code: null, response_body: null, response_headers: null, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function findKey(db: Db, accountId: number, key: string): Promise<IdempotencyKeysTable | null> {
  const row = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
  return row ?? null;
}

export async function deleteKey(db: Db, accountId: number, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
}

/** The first request's answer, kept for the repeats. */
export async function storeAnswer(db: Db, accountId: number, key: string, answer: { statusCode: number; body: string; headers: string }): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: answer.statusCode, response_body: answer.body, response_headers: answer.headers })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute();
}

/** Removes up to `limit` of the account's keys created before `beforeMs` (retention's hourly sweep); the number removed. */
export async function deleteExpiredKeys(db: Db, accountId: number, beforeMs: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('created_at', '<', beforeMs)
    .where('key', 'in', (eb) => eb.selectFrom('idempotency_keys').select('key').where('account_id', '=', accountId).where('created_at', '<', beforeMs).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
