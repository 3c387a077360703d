import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Database, Tx } from './database.js';
import { PREPARED } from './prepared.js';

const SQLITE_ROWS_PER_STATEMENT = 64;
const SQLITE_MAX_PARAMETERS = 32_766;

export interface Column {
  name: string;
  /** The PostgreSQL array element type the values are sent as. */
  pgType: 'bigint' | 'integer' | 'double precision' | 'text';
}

/** One bulk upsert: `INSERT … ON CONFLICT (conflict) DO UPDATE SET update = excluded.update` (or DO NOTHING). */
export interface BulkUpsert {
  table: string;
  columns: Column[];
  conflict: string[];
  update: string[];
  rows: unknown[][];
}

/**
 * Many rows in one go, for the ingestion hot path. SQLite reuses one prepared statement per shape
 * and runs it per row (microseconds each, no round trips); PostgreSQL gets the rows as column
 * arrays in one statement (`unnest`), so a batch is one round trip whatever its size. Both run
 * on the caller's transaction.
 */
export class BulkWriter {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly database: Database) {}

  /** INSERT … ON CONFLICT (conflict) DO UPDATE SET update = excluded.update (or DO NOTHING). */
  async upsert(tx: Tx, table: string, columns: Column[], conflict: string[], update: string[], rows: unknown[][]): Promise<void> {
    await this.upsertAll(tx, [{ table, columns, conflict, update, rows }]);
  }

  /**
   * Upserts into different tables, in the caller's transaction. On PostgreSQL they go as one
   * statement, each but the last a data-modifying WITH: one round trip for all of them (each is
   * applied once, and none sees another's rows, so no two may touch the same table).
   */
  async upsertAll(tx: Tx, upserts: BulkUpsert[]): Promise<void> {
    const writes = upserts.filter((u) => u.rows.length > 0);
    if (writes.length === 0) return;
    if (this.database.sqlite) {
      for (const write of writes) this.sqliteUpsert(write);
      return;
    }
    const [last, ...before] = [writes.at(-1)!, ...writes.slice(0, -1)];
    const ctes = before.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${this.postgresUpsert(write)})`);
    await (ctes.length > 0 ? sql`${PREPARED}WITH ${sql.join(ctes)} ${this.postgresUpsert(last)}` : sql`${PREPARED}${this.postgresUpsert(last)}`).execute(tx);
  }

  private sqliteUpsert({ table, columns, conflict, update, rows }: BulkUpsert): void {
    // Many rows per statement: one step into SQLite per chunk instead of per row.
    const chunk = Math.max(1, Math.min(SQLITE_ROWS_PER_STATEMENT, Math.floor(SQLITE_MAX_PARAMETERS / columns.length)));
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      const statement = this.prepare(`INSERT INTO ${table} (${names(columns)}) VALUES ${Array(part.length).fill(tuple).join(', ')}${onConflict(conflict, update)}`);
      statement.run(part.flat());
    }
  }

  /** The rows as column arrays, one parameter per column whatever the number of rows. */
  private postgresUpsert({ table, columns, conflict, update, rows }: BulkUpsert) {
    return sql`INSERT INTO ${sql.raw(table)} (${sql.raw(names(columns))}) SELECT * FROM unnest(${this.arrays(columns, rows)})${sql.raw(onConflict(conflict, update))}`;
  }

  /** UPDATE table SET columns… WHERE key = row[0], for each row `[key, ...values]`. */
  async updateByKey(tx: Tx, table: string, key: Column, columns: Column[], rows: unknown[][]): Promise<void> {
    if (rows.length === 0) return;
    if (this.database.sqlite) {
      const statement = this.prepare(`UPDATE ${table} SET ${columns.map((c) => `${c.name} = ?`).join(', ')} WHERE ${key.name} = ?`);
      for (const [k, ...values] of rows) statement.run([...values, k]);
      return;
    }
    const all = [key, ...columns];
    const set = columns.map((c) => `${c.name} = u.${c.name}`).join(', ');
    await sql`${PREPARED}UPDATE ${sql.raw(table)} AS t SET ${sql.raw(set)}
              FROM unnest(${this.arrays(all, rows)}) AS u(${sql.raw(all.map((c) => c.name).join(', '))})
              WHERE t.${sql.raw(key.name)} = u.${sql.raw(key.name)}`.execute(tx);
  }

  private prepare(text: string): BetterSqlite3.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.database.sqlite!.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private arrays(columns: Column[], rows: unknown[][]) {
    return sql.join(columns.map((column, i) => sql`${rows.map((row) => row[i])}::${sql.raw(column.pgType)}[]`));
  }
}

const names = (columns: Column[]) => columns.map((c) => c.name).join(', ');

function onConflict(conflict: string[], update: string[]): string {
  const action = update.length ? `DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}` : 'DO NOTHING';
  return conflict.length ? ` ON CONFLICT (${conflict.join(', ')}) ${action}` : '';
}
