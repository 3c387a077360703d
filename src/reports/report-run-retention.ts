import type { Database } from '../store/database.js';
import { deleteRunsBefore } from './schedule-store.js';

/**
 * The fewest days a schedule's claim on an occurrence (`report_runs`) is kept, whatever
 * DELIVERY_RETENTION_DAYS says: a schedule changed after a send is set to its next occurrence from
 * then, which may report on the period just sent (a monthly one moved from the 1st to the 28th
 * sends the same month again), and the claim is what stops that second send. A monthly claim
 * matters until the 28th of the month after its period, so 31 days cover every schedule.
 */
export const REPORT_RUN_MIN_DAYS = 31;

/** Removes up to `limit` of the account's claims made before `beforeMs` in one statement; the number removed (fewer: none left). */
export function deleteReportRunsBefore(database: Database, accountId: number, beforeMs: number, limit: number): Promise<number> {
  return deleteRunsBefore(database.db, accountId, beforeMs, limit);
}
