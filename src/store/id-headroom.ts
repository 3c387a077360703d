import { sql } from 'kysely';
import type { Database } from './database.js';

/**
 * Ids are 64-bit on both stores (bigint sequences on PostgreSQL, SQLite's INTEGER rowids), but
 * they reach clients as JSON numbers, exact only up to 2^53 - 1. Sequences count up by one, so
 * that is centuries away; this guard stops a server whose sequence was set near it (by hand, or
 * a restored dump) while 2^43 ids (100 days at a million a second) are still left, instead of
 * letting answers round one id into another.
 */
export const ID_LIMIT = Number.MAX_SAFE_INTEGER - 2 ** 43;

export class IdHeadroomError extends Error {}

/** The table whose id sequence is furthest along, and how far. */
export async function highestIdSequence(database: Database): Promise<{ table: string; lastId: number } | null> {
  const { rows } =
    database.dialect === 'postgres'
      ? await sql<{ table: string; last_id: string | null }>`
          SELECT sequencename AS table, last_value::text AS last_id FROM pg_sequences
          WHERE schemaname = current_schema() ORDER BY last_value DESC NULLS LAST LIMIT 1`.execute(database.db)
      : await sql<{ table: string; last_id: string | null }>`
          SELECT name AS "table", CAST(seq AS TEXT) AS last_id FROM sqlite_sequence ORDER BY seq DESC LIMIT 1`.execute(database.db);
  const row = rows[0];
  if (!row || row.last_id === null) return null;
  return { table: row.table.replace(/_id_seq$/, ''), lastId: Number(row.last_id) };
}

/** Throws when some table's ids have come within 2^43 of 2^53. */
export async function checkIdHeadroom(database: Database): Promise<void> {
  const highest = await highestIdSequence(database);
  if (highest && highest.lastId > ID_LIMIT) {
    throw new IdHeadroomError(
      `the ids of ${highest.table} have reached ${highest.lastId}, within 2^43 of 2^53 (the largest id JSON answers carry exactly); ` +
        'renumbering is needed before the server may run on',
    );
  }
}
