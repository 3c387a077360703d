import type { Tx } from '../store/database.js';

const IDS_PER_STATEMENT = 500;

/**
 * `n` new signal ids, ascending, unique across servers sharing the database: the ids of rows
 * inserted into `signal_ids` (a sequence on PostgreSQL, AUTOINCREMENT on SQLite, never reused)
 * and removed again in the same transaction.
 */
export async function allocateSignalIds(tx: Tx, n: number): Promise<number[]> {
  const now = Date.now();
  const ids: number[] = [];
  for (let from = 0; from < n; from += IDS_PER_STATEMENT) {
    const count = Math.min(IDS_PER_STATEMENT, n - from);
    const rows = await tx
      .insertInto('signal_ids')
      .values(Array.from({ length: count }, () => ({ created_at: now })))
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  ids.sort((a, b) => a - b);
  if (ids.length > 0) await tx.deleteFrom('signal_ids').where('id', '>=', ids[0]!).where('id', '<=', ids.at(-1)!).execute();
  return ids;
}
