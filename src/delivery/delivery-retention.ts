import type { Database } from '../store/database.js';
import { deleteAttemptsOf, deleteDeliveries, finishedDeliveriesBefore } from './delivery-log-store.js';

/**
 * Removes up to `limit` of the account's deliveries that finished before `beforeMs`, with their
 * attempts, in one transaction; the number removed (fewer than `limit`: none are left).
 */
export async function deleteFinishedDeliveries(database: Database, accountId: number, beforeMs: number, limit: number): Promise<number> {
  return database.transaction(async (tx) => {
    const ids = await finishedDeliveriesBefore(tx, accountId, beforeMs, limit);
    if (ids.length === 0) return 0;
    await deleteAttemptsOf(tx, accountId, ids);
    await deleteDeliveries(tx, accountId, ids);
    return ids.length;
  });
}
