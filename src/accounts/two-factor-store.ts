import type { Db, Tx } from '../store/database.js';

/** The statements of the second factor: a user's TOTP secret and recovery codes, and setup-only sessions. Each names the account. */

export interface TwoFactorRow {
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
}

export async function findTwoFactor(db: Db | Tx, accountId: number, userId: number): Promise<TwoFactorRow | null> {
  const row = await db
    .selectFrom('users')
    .select(['totp_secret', 'totp_pending_secret', 'totp_last_step'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/** A secret shown to the user and not yet confirmed with a code; a new one replaces the last. */
export async function setPendingSecret(db: Db, accountId: number, userId: number, secret: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending_secret: secret }).where('account_id', '=', accountId).where('id', '=', userId).execute();
}

/** The pending secret becomes the user's, the code's step its last used one. */
export async function enableTotp(tx: Tx, accountId: number, userId: number, secret: string, step: number, now: number): Promise<void> {
  await tx
    .updateTable('users')
    .set({ totp_secret: secret, totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .execute();
}

export async function disableTotp(tx: Tx, accountId: number, userId: number): Promise<void> {
  await tx
    .updateTable('users')
    .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .execute();
}

/**
 * Takes a code's time step when it is later than the last one taken, in one statement: a code is
 * good once, even when it is sent twice at once. False when the step was taken already.
 */
export async function takeTotpStep(db: Db | Tx, accountId: number, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(tx: Tx, accountId: number, userId: number, codeHashes: string[]): Promise<void> {
  await tx.deleteFrom('recovery_codes').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  if (codeHashes.length === 0) return;
  await tx
    .insertInto('recovery_codes')
    .values(codeHashes.map((code_hash) => ({ account_id: accountId, user_id: userId, code_hash })))
    .execute();
}

/** Marks an unused recovery code used, in one statement (twice at once, one wins); false when there is none. */
export async function useRecoveryCode(db: Db | Tx, accountId: number, userId: number, codeHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Db, accountId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's setup-only sessions become whole once the second factor is on. */
export async function endSetupOnly(tx: Tx, accountId: number, userId: number): Promise<void> {
  await tx.updateTable('workspace_sessions').set({ setup_only: 0 }).where('account_id', '=', accountId).where('user_id', '=', userId).execute();
}
