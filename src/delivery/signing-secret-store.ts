import { sql } from 'kysely';
import type { Db } from '../store/database.js';

/** The statements of webhook signing secrets: one current secret per account, and rotated-out ones until they expire. */

/** A new current secret, unless the account has one (two servers may try at once; the unique index keeps one). */
export async function insertCurrentSecret(db: Db, accountId: number, secret: string, now: number): Promise<void> {
  await sql`INSERT INTO signing_secrets (account_id, secret, created_at, expires_at)
            VALUES (${accountId}, ${secret}, ${now}, NULL)
            ON CONFLICT (account_id) WHERE expires_at IS NULL DO NOTHING`.execute(db);
}

export async function findCurrentSecret(db: Db, accountId: number): Promise<string | null> {
  const row = await db.selectFrom('signing_secrets').select('secret').where('account_id', '=', accountId).where('expires_at', 'is', null).executeTakeFirst();
  return row?.secret ?? null;
}

/** The current secret keeps signing until `expiresAt`, beside its successor. */
export async function expireCurrentSecret(db: Db, accountId: number, expiresAt: number): Promise<void> {
  await db.updateTable('signing_secrets').set({ expires_at: expiresAt }).where('account_id', '=', accountId).where('expires_at', 'is', null).execute();
}

/** The secrets that sign now: the current one and those not yet expired, newest first. */
export async function liveSecrets(db: Db, accountId: number, now: number): Promise<{ secret: string; expires_at: number | null }[]> {
  return db
    .selectFrom('signing_secrets')
    .select(['secret', 'expires_at'])
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
}
