import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Selectable } from 'kysely';
import type { Database, Tx } from './database.js';
import { PREPARED } from './prepared.js';
import type { Schema } from './schema.js';

const SQLITE_ROWS_PER_STATEMENT = 64;
const SQLITE_MAX_PARAMETERS = 32_766;

/** A condition every updated row must meet besides its key: `column op value`. */
export interface Condition {
  column: string;
  op: '=' | '>=' | '<=';
  value: number;
}

/** The PostgreSQL array element type a column's values are sent as. */
export type PgType = 'bigint' | 'integer' | 'double precision' | 'text';

/** A row of table T as a bulk statement writes it: some of its columns, typed as the schema has them. */
type RowOf<T extends keyof Schema> = Partial<Selectable<Schema[T]>>;

/**
 * One multi-row INSERT: the table, the columns written (in this order) with their PostgreSQL
 * types, and what a conflict on `conflict` does: update `update`, or nothing.
 */
export interface BulkInsert<T extends keyof Schema, Row extends RowOf<T>> {
  readonly table: T;
  readonly columns: { readonly [K in keyof Row]-?: PgType };
  readonly conflict?: readonly (keyof Row & string)[];
  readonly update?: readonly (keyof Row & string)[];
}

/** One UPDATE of many rows, each found by its `key` columns (the account's id among them). */
export interface BulkUpdate<T extends keyof Schema, Row extends RowOf<T>> {
  readonly table: T;
  readonly key: readonly (keyof Row & string)[];
  readonly columns: { readonly [K in keyof Row]-?: PgType };
}

/** Declares a bulk INSERT; the row type ties its columns to the schema. */
export function bulkInsert<T extends keyof Schema, Row extends RowOf<T>>(shape: BulkInsert<T, Row>): BulkInsert<T, Row> {
  return shape;
}

/** Declares a bulk UPDATE by key. */
export function bulkUpdate<T extends keyof Schema, Row extends RowOf<T>>(shape: BulkUpdate<T, Row>): BulkUpdate<T, Row> {
  return shape;
}

type AnyRow = Record<string, unknown>;

/** A bulk INSERT with its rows, as `insertAll` takes several at once. */
export interface BulkRows {
  readonly shape: BulkInsert<keyof Schema, AnyRow>;
  readonly rows: readonly AnyRow[];
}

/** Pairs rows with their statement; the row type ties them to it. */
export function rowsFor<T extends keyof Schema, Row extends RowOf<T>>(shape: BulkInsert<T, Row>, rows: readonly Row[]): BulkRows {
  return { shape, rows } as unknown as BulkRows;
}

const namesOf = <Row>(columns: { readonly [K in keyof Row]-?: PgType }) => Object.keys(columns) as (keyof Row & string)[];

/**
 * Many rows in one go, for the ingestion hot path. SQLite reuses one prepared statement per shape
 * and chunk size (many rows per statement: one step into SQLite per chunk instead of per row, no
 * round trips); PostgreSQL gets the rows as one JSON parameter in one statement, so a batch
 * is one round trip whatever its size. Both run on the caller's transaction. Rows are typed
 * objects; they become positional values only here.
 *
 * SQLite's inserts are `INSERT OR FAIL`: a constraint that fails stops the statement without
 * undoing the rows it already wrote, so SQLite keeps no statement journal for it (with the
 * default ABORT, every multi-row statement copied each page it touched first: a twentieth of a
 * tracker burst's main thread, and a temporary file's writes once the copies outgrew memory).
 * The error still reaches the caller, whose transaction is rolled back: no caller goes on with a
 * transaction after a failed bulk insert, and none may.
 */
export class BulkWriter {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly inserts = new Map<BulkInsert<keyof Schema, AnyRow>, Map<number, BetterSqlite3.Statement>>();

  constructor(private readonly database: Database) {}

  /** INSERT … ON CONFLICT (conflict) DO UPDATE SET update = excluded.update (or DO NOTHING, or no clause). */
  async insert<T extends keyof Schema, Row extends RowOf<T>>(tx: Tx, shape: BulkInsert<T, Row>, rows: readonly Row[]): Promise<void> {
    await this.insertAll(tx, [rowsFor(shape, rows)]);
  }

  /**
   * Inserts into different tables, in the caller's transaction. On PostgreSQL they go as one
   * statement, each but the last a data-modifying WITH: one round trip for all of them (each is
   * applied once, and none sees another's rows, so no two may touch the same table).
   */
  async insertAll(tx: Tx, inserts: readonly BulkRows[]): Promise<void> {
    const writes = inserts.filter((w) => w.rows.length > 0);
    if (writes.length === 0) return;
    if (this.database.sqlite) {
      for (const write of writes) this.sqliteInsert(write);
      return;
    }
    const last = writes.at(-1)!;
    const ctes = writes.slice(0, -1).map((write, i) => sql`${sql.raw(`w${i}`)} AS (${this.postgresInsert(write)})`);
    await (ctes.length > 0 ? sql`${PREPARED}WITH ${sql.join(ctes)} ${this.postgresInsert(last)}` : sql`${PREPARED}${this.postgresInsert(last)}`).execute(tx);
  }

  private sqliteInsert({ shape, rows }: BulkRows): void {
    const names = namesOf<AnyRow>(shape.columns);
    const chunk = Math.max(1, Math.min(SQLITE_ROWS_PER_STATEMENT, Math.floor(SQLITE_MAX_PARAMETERS / names.length)));
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      // The values as arguments, not as one array: better-sqlite3 binds arguments directly but
      // fetches an array's elements one by one (binding was a tenth of a tracker burst's main thread).
      this.insertStatement(shape, names, part.length).run(...flatValues(part, names));
    }
  }

  /** The prepared INSERT of `count` rows of this shape (found by shape and count: its text is long, hashing it per chunk was not free). */
  private insertStatement(shape: BulkInsert<keyof Schema, AnyRow>, names: string[], count: number): BetterSqlite3.Statement {
    let byCount = this.inserts.get(shape);
    if (!byCount) this.inserts.set(shape, (byCount = new Map()));
    let statement = byCount.get(count);
    if (!statement) {
      const tuple = `(${names.map(() => '?').join(', ')})`;
      statement = this.prepare(`INSERT OR FAIL INTO ${shape.table} (${names.join(', ')}) VALUES ${Array(count).fill(tuple).join(', ')}${onConflict(shape)}`);
      byCount.set(count, statement);
    }
    return statement;
  }

  /**
   * The rows as one JSON parameter, read back by `json_to_recordset` with the columns' types: one
   * JSON.stringify instead of node-postgres escaping every element of a text array per column
   * (that escaping was a tenth of the main thread's time per fix on PostgreSQL). The
   * values are finite numbers, strings and nulls; no NaN or Infinity reaches a bulk write (the
   * decoders refuse them), which JSON could not carry.
   */
  private postgresInsert({ shape, rows }: BulkRows) {
    const names = namesOf<AnyRow>(shape.columns);
    const record = names.map((name) => `${name} ${shape.columns[name]}`).join(', ');
    return sql`INSERT INTO ${sql.raw(shape.table)} (${sql.raw(names.join(', '))}) SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(${sql.raw(record)})${sql.raw(onConflict(shape))}`;
  }

  /**
   * UPDATE table SET columns… WHERE key = the row's key, for each row, and every condition of
   * `where` (on a partitioned table, a bound on the partition key, so that only the partitions it
   * can touch are planned).
   */
  async update<T extends keyof Schema, Row extends RowOf<T>>(tx: Tx, shape: BulkUpdate<T, Row>, rows: readonly Row[], where: readonly Condition[] = []): Promise<void> {
    if (rows.length === 0) return;
    const names = namesOf<Row>(shape.columns);
    const set = names.filter((n) => !shape.key.includes(n));
    if (this.database.sqlite) {
      const conditions = where.map((c) => ` AND ${c.column} ${c.op} ?`).join('');
      const statement = this.prepare(
        `UPDATE ${shape.table} SET ${set.map((c) => `${c} = ?`).join(', ')} WHERE ${shape.key.map((k) => `${k} = ?`).join(' AND ')}${conditions}`,
      );
      const order = [...set, ...shape.key];
      const bound = where.map((c) => c.value);
      for (const row of rows) statement.run([...order.map((n) => row[n]), ...bound]);
      return;
    }
    const extra = where.map((c) => sql` AND t.${sql.raw(c.column)} ${sql.raw(c.op)} ${c.value}`);
    await sql`${PREPARED}UPDATE ${sql.raw(shape.table)} AS t SET ${sql.raw(set.map((c) => `${c} = u.${c}`).join(', '))}
              FROM unnest(${this.arrays(shape.columns, names, rows)}) AS u(${sql.raw(names.join(', '))})
              WHERE ${sql.raw(shape.key.map((k) => `t.${k} = u.${k}`).join(' AND '))}${sql.join(extra, sql``)}`.execute(tx);
  }

  private prepare(text: string): BetterSqlite3.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.database.sqlite!.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private arrays<Row>(types: { readonly [K in keyof Row]-?: PgType }, names: (keyof Row & string)[], rows: readonly Row[]) {
    return sql.join(names.map((name) => sql`${rows.map((row) => row[name])}::${sql.raw(types[name])}[]`));
  }
}

/** The rows' values in column order, one flat list (SQLite's positional parameters). */
function flatValues<Row>(rows: readonly Row[], names: readonly (keyof Row)[]): unknown[] {
  const values = new Array<unknown>(rows.length * names.length);
  let k = 0;
  for (const row of rows) for (const name of names) values[k++] = row[name];
  return values;
}

/** ` ON CONFLICT (…) DO UPDATE SET …` (or DO NOTHING), or nothing without a conflict target. */
function onConflict(shape: BulkInsert<keyof Schema, AnyRow>): string {
  const update = shape.update ?? [];
  // A conflicting row of another account is never overwritten (ids are unique across accounts; this makes it certain).
  const sameAccount = 'account_id' in shape.columns ? ` WHERE ${shape.table}.account_id = excluded.account_id` : '';
  const action = update.length ? `DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}${sameAccount}` : 'DO NOTHING';
  return shape.conflict?.length ? ` ON CONFLICT (${shape.conflict.join(', ')}) ${action}` : '';
}
