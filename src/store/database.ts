import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrationProvider } from './migrations/index.js';
import type { Schema } from './schema.js';

export type { Dialect } from './dialect.js';
import type { Dialect } from './dialect.js';
export type Db = Kysely<Schema>;
export type Tx = Transaction<Schema>;

export interface Database {
  readonly db: Db;
  readonly dialect: Dialect;
  /** The raw SQLite handle, for the few hot paths that reuse prepared statements (ingestion). */
  readonly sqlite: BetterSqlite3.Database | null;
  /** Runs `fn` in one transaction; the result is acknowledged only after the commit returned. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// int8 columns (ids, epoch milliseconds) come back as numbers: every value we store is below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface OpenOptions {
  /** `postgres://…` for PostgreSQL; otherwise the SQLite file path (`:memory:` for tests that want it). */
  url: string;
  poolSize?: number;
}

export async function openDatabase({ url, poolSize = 10 }: OpenOptions): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, poolSize);
  return openSqlite(url);
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before it is acknowledged, so no acknowledged write is lost on power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return wrap(db, 'sqlite', sqlite);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, begin and commit included; preparing costs more than running
 * a short query. Statements are kept by their SQL text (Kysely runs each to completion before
 * the next, so one statement is never in use twice).
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A dropped idle connection must not take the process down; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return wrap(db, 'postgres', null);
}

function wrap(db: Db, dialect: Dialect, sqlite: BetterSqlite3.Database | null): Database {
  return {
    db,
    dialect,
    sqlite,
    transaction: (fn) => db.transaction().execute(fn),
    async ping() {
      await db.selectFrom('accounts').select((eb) => eb.lit(1).as('one')).limit(1).execute();
    },
    close: () => db.destroy(),
  };
}

/** Brings the schema up to date; safe to run from several servers at once (Kysely takes a lock). */
export async function migrate(database: Database): Promise<void> {
  const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
