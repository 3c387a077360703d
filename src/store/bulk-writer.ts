import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Database, Tx } from './database.js';

const SQLITE_ROWS_PER_STATEMENT = 64;
const SQLITE_MAX_PARAMETERS = 32_766;

/** A condition every updated row must meet besides its key: `column op value`. */
export interface Condition {
  column: string;
  op: '=' | '>=' | '<=';
  value: number;
}

export interface Column {
  name: string;
  /** The PostgreSQL array element type the values are sent as. */
  pgType: 'bigint' | 'integer' | 'double precision' | 'text';
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
    if (rows.length === 0) return;
    const names = columns.map((c) => c.name).join(', ');
    const action = update.length ? `DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}` : 'DO NOTHING';
    const onConflict = conflict.length ? ` ON CONFLICT (${conflict.join(', ')}) ${action}` : '';
    if (this.database.sqlite) {
      // Many rows per statement: one step into SQLite per chunk instead of per row.
      const chunk = Math.max(1, Math.min(SQLITE_ROWS_PER_STATEMENT, Math.floor(SQLITE_MAX_PARAMETERS / columns.length)));
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      for (let i = 0; i < rows.length; i += chunk) {
        const part = rows.slice(i, i + chunk);
        const statement = this.prepare(`INSERT INTO ${table} (${names}) VALUES ${Array(part.length).fill(tuple).join(', ')}${onConflict}`);
        statement.run(part.flat());
      }
      return;
    }
    await sql`INSERT INTO ${sql.raw(table)} (${sql.raw(names)}) SELECT * FROM unnest(${this.arrays(columns, rows)})${sql.raw(onConflict)}`.execute(tx);
  }

  /**
   * UPDATE table SET columns… WHERE key = row[0], for each row `[key, ...values]`, and every
   * condition of `where` (the account; on a partitioned table, a bound on the partition key so
   * that only the partitions it can touch are planned).
   */
  async updateByKey(tx: Tx, table: string, key: Column, columns: Column[], rows: unknown[][], where: Condition[] = []): Promise<void> {
    if (rows.length === 0) return;
    const conditions = where.map((c) => ` AND ${c.column} ${c.op} ?`).join('');
    if (this.database.sqlite) {
      const statement = this.prepare(`UPDATE ${table} SET ${columns.map((c) => `${c.name} = ?`).join(', ')} WHERE ${key.name} = ?${conditions}`);
      const bound = where.map((c) => c.value);
      for (const [k, ...values] of rows) statement.run([...values, k, ...bound]);
      return;
    }
    const all = [key, ...columns];
    const set = columns.map((c) => `${c.name} = u.${c.name}`).join(', ');
    const extra = where.map((c) => sql` AND t.${sql.raw(c.column)} ${sql.raw(c.op)} ${c.value}`);
    await sql`UPDATE ${sql.raw(table)} AS t SET ${sql.raw(set)}
              FROM unnest(${this.arrays(all, rows)}) AS u(${sql.raw(all.map((c) => c.name).join(', '))})
              WHERE t.${sql.raw(key.name)} = u.${sql.raw(key.name)}${sql.join(extra, sql``)}`.execute(tx);
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
