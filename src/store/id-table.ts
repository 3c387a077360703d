import { sql } from 'kysely';
import type { Database } from './database.js';

/**
 * A list of ids as a one-column table `(id)` to select from, one parameter whatever its length:
 * an array on PostgreSQL, a JSON text on SQLite. One SQL text for any number of ids, and far
 * cheaper to build than an `IN` list of as many parameters.
 */
export function idTable(database: Pick<Database, 'dialect'>, ids: readonly number[]) {
  return database.dialect === 'postgres'
    ? sql`(SELECT unnest(${[...ids]}::bigint[]) AS id)`
    : sql`(SELECT value AS id FROM json_each(${JSON.stringify(ids)}))`;
}
