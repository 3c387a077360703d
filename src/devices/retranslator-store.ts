import type { Selectable } from 'kysely';
import type { Db } from '../store/database.js';
import type { EgtsRetranslatorsTable } from '../store/schema.js';

/** The statements of the EGTS retranslators an account lets in (`egts_retranslators`). */

export type RetranslatorRow = Selectable<EgtsRetranslatorsTable>;

/** The account's retranslators, by id. */
export async function listRetranslators(db: Db, accountId: number): Promise<RetranslatorRow[]> {
  return db.selectFrom('egts_retranslators').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function findRetranslator(db: Db, accountId: number, id: number): Promise<RetranslatorRow | null> {
  return (await db.selectFrom('egts_retranslators').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The new retranslator's id, or null when the account has one with this dispatcher id already (the unique index decides). */
export async function insertRetranslator(db: Db, row: Omit<RetranslatorRow, 'id'>): Promise<number | null> {
  const inserted = await db
    .insertInto('egts_retranslators')
    .values(row)
    .onConflict((c) => c.columns(['account_id', 'dispatcher_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/** Whether there was one to delete. */
export async function deleteRetranslator(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('egts_retranslators').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Every account's retranslator with this dispatcher id, for the listener: an incoming session
 * names only the dispatcher id, and its password picks the account (no account is known yet).
 */
export async function retranslatorsWithDispatcherId(db: Db, dispatcherId: number): Promise<Pick<RetranslatorRow, 'id' | 'account_id' | 'password_hash'>[]> {
  return db.selectFrom('egts_retranslators').select(['id', 'account_id', 'password_hash']).where('dispatcher_id', '=', dispatcherId).orderBy('id').execute();
}
