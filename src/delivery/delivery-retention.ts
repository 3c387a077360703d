import type { Database } from '../store/database.js';

/**
 * Removes up to `limit` of the account's deliveries that finished (delivered, or failed for good)
 * before `beforeMs`, with their attempts, in one transaction; the number removed. Oldest first,
 * through (account, finished_at). Pending deliveries are never removed: nothing is deleted
 * before it is sent or finally failed (DESIGN).
 */
export async function deleteFinishedDeliveries(database: Database, accountId: number, beforeMs: number, limit: number): Promise<number> {
  return database.transaction(async (tx) => {
    const rows = await tx
      .selectFrom('deliveries')
      .select('id')
      .where('account_id', '=', accountId)
      .where('finished_at', '<', beforeMs)
      .where('status', '<>', 'pending')
      .orderBy('finished_at')
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    await tx.deleteFrom('delivery_attempts').where('account_id', '=', accountId).where('delivery_id', 'in', ids).execute();
    await tx.deleteFrom('deliveries').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    return ids.length;
  });
}
