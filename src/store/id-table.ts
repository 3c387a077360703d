import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from './database.js';

/**
 * A list of ids as a one-column table `(id)` to select from, one parameter whatever its length:
 * an array on PostgreSQL, a JSON text on SQLite. One SQL text for any number of ids, and far
 * cheaper to build than an `IN` list of as many parameters. To keep only the rows whose column is
 * one of the ids, use `isOneOf`.
 */
export function idTable(database: Pick<Database, 'dialect'>, ids: readonly number[]) {
  return database.dialect === 'postgres'
    ? sql`(SELECT unnest(${[...ids]}::bigint[]) AS id)`
    : sql`(SELECT value AS id FROM json_each(${JSON.stringify(ids)}))`;
}

/**
 * `column` is one of `ids`, as a condition: `column = ANY(array)` on PostgreSQL, `column IN` the
 * id table on SQLite. On PostgreSQL the array form is planned as an index probe per id whatever
 * the table's statistics say. As `IN (SELECT unnest(…))` it is a semi-join, which the planner
 * may turn around: on a table filled since it was last analysed (the employees of an account just
 * imported, the pipeline states of a fleet's first fixes) it estimated one row and compared every
 * row of the table with every id, 250 ms for 200 ids among 10,000 employees instead of 1 ms, and
 * the ingest queue's group transactions waited on it until autovacuum analysed the table. One
 * statement text whatever the number of ids, so it is prepared once (a Kysely `in` list is a
 * statement of its own for every length).
 */
export function isOneOf(database: Pick<Database, 'dialect'>, column: string, ids: readonly number[]): RawBuilder<SqlBool>;
/** `column` is one of `values`, a list of texts (device keys): the same, as `text[]` on PostgreSQL. */
export function isOneOf(database: Pick<Database, 'dialect'>, column: string, values: readonly string[], type: 'text'): RawBuilder<SqlBool>;
export function isOneOf(database: Pick<Database, 'dialect'>, column: string, values: readonly (number | string)[], type: 'bigint' | 'text' = 'bigint') {
  return database.dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = ANY(${[...values]}::${sql.raw(type)}[])`
    : sql<SqlBool>`${sql.ref(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}
