import { sql } from 'kysely';
import type { Database, Db } from '../store/database.js';
import { idTable } from './location-store.js';

/**
 * Each subscriber's last track that started before `beforeMs` (the only one of its tracks that
 * may still run at that instant): one seek per subscriber through (subscriber, start), one
 * statement. (`+account_id`: SQLite would otherwise walk (account, start) from the beginning.)
 */
export async function tracksRunningAt(database: Database, executor: Db, accountId: number, subscriberIds: readonly number[], beforeMs: number): Promise<number[]> {
  if (subscriberIds.length === 0) return [];
  const { rows } = await sql<{ id: number | null }>`
    SELECT (SELECT t.id FROM tracks t WHERE +t.account_id = ${accountId} AND t.subscriber_id = s.id AND t.start_ms < ${beforeMs}
            ORDER BY t.start_ms DESC LIMIT 1) AS id
    FROM ${idTable(database, subscriberIds)} AS s`.execute(executor);
  return rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)]));
}
