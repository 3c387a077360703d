import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrationProvider } from './migrations/index.js';
import { PREPARED_MARK } from './prepared.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { DURABLE_ON_RETURN, type CommitSequence } from './commit-sequence.js';
import { WalSync } from './wal-sync.js';
import { ReplicaRouter, type ReplicaStatus } from './replica.js';
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
  /**
   * `transaction`, resolved as soon as the commit is visible, with `durable` resolving once it is on
   * disk: the ingest queue starts its next transaction while the disk syncs this one, and answers
   * the senders of this one only after `durable`. (On PostgreSQL a commit returns once durable.)
   * `commit` is its place in the sequence of commits, which `durabilityChannel` announces once it
   * is on disk (DURABLE_ON_RETURN where a commit returns durable).
   */
  visibleTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<{ result: T; durable: Promise<void>; commit: CommitSequence }>;
  /**
   * The name of the BroadcastChannel on which the commits made durable are announced (see
   * wal-sync.ts), for a thread that answers only what is on disk; null where a commit returns
   * durable (PostgreSQL, an in-memory SQLite database).
   */
  readonly durabilityChannel: string | null;
  /**
   * Resolves once commit `commit` (by default: every commit so far) is on disk; rejects if it never
   * will be. On SQLite a commit is visible a moment before its log is synced (see
   * `unsyncedTransaction`); what acts on committed rows outside the database (the delivery worker
   * sending an outbox row, an answer to a sender) waits for this first.
   */
  durable(commit?: CommitSequence): Promise<void>;
  /**
   * Resolves, with the reason, if the store stopped taking writes because it can no longer make
   * them durable: on SQLite, once syncing the write-ahead log failed (see DurabilityNews in
   * wal-sync.ts). Every transaction is refused from then on; the server should exit without
   * closing the database, so that its restart recovers from what is on disk. Never resolves on
   * PostgreSQL (which stops itself on such a failure) or in memory.
   */
  readonly stopped: Promise<Error>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The streaming replica GET requests read from (DATABASE_REPLICA_URL), or null. */
  readonly replica: Replica | null;
}

/** What the rest of the server sees of the read replica (see replica.ts). */
export interface Replica {
  /** After a write, a token's reads go to the primary for this long. */
  readonly readYourWritesMs: number;
  status(): ReplicaStatus;
}

/**
 * int8 columns (ids, epoch milliseconds) come back as numbers, exact up to 2^53 - 1: ids count up
 * by one from 1 (at a million fixes a second, 2^53 is 285 years away; `checkIdHeadroom` refuses to
 * start long before) and instants are milliseconds of this era. A value beyond that is refused
 * with an error rather than answered rounded to a neighbouring id.
 */
pg.types.setTypeParser(pg.types.builtins.INT8, parseInt8);

export function parseInt8(value: string): number {
  const number = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(number)) throw new RangeError(`an int8 value beyond 2^53 cannot be answered exactly: ${value}`);
  return number;
}

export interface OpenOptions {
  /** `postgres://…` for PostgreSQL; otherwise the SQLite file path (`:memory:` for tests that want it). */
  url: string;
  poolSize?: number;
  /** A streaming replica of the PostgreSQL `url` to read from, and how far behind it may be. */
  replica?: { url: string; maxLagMs: number; probeMs?: number };
}

export async function openDatabase({ url, poolSize = 10, replica }: OpenOptions): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, poolSize, replica);
  if (replica) throw new Error('a read replica needs PostgreSQL');
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
  const database = wrap(db, 'sqlite', sqlite);
  if (path === ':memory:') return database;
  const wal = new WalSync(`${path}-wal`);
  // Checkpoints run on a thread of their own, never inside a commit on this one.
  sqlite.pragma('wal_autocheckpoint = 0');
  const checkpointer = new WalCheckpointer(path, () => sqlite.pragma('wal_autocheckpoint = 1000'));
  // The log is not to be trusted after a failed sync: a checkpoint could copy what never reached the disk.
  void wal.stopped.then(() => checkpointer.halt());
  const refuseOnceStopped = () => {
    if (wal.failed) throw new Error(`the database takes no more writes: ${wal.failed.message}; restart the server`);
  };
  return {
    ...database,
    transaction: async (fn) => {
      refuseOnceStopped();
      const result = await checkpointer.write(() => unsyncedTransaction(db, sqlite, fn));
      await wal.after(wal.committed());
      return result;
    },
    visibleTransaction: async (fn) => {
      refuseOnceStopped();
      const result = await checkpointer.write(() => unsyncedTransaction(db, sqlite, fn));
      const commit = wal.committed();
      return { result, durable: wal.after(commit), commit };
    },
    durable: (commit) => (commit === undefined ? wal.durable() : wal.after(commit)),
    stopped: wal.stopped,
    durabilityChannel: wal.channelName,
    close: async () => {
      await checkpointer.close();
      await wal.close();
      await db.destroy();
    },
  };
}

/**
 * A transaction as durable as with synchronous=FULL, without the disk wait on the main thread.
 * better-sqlite3 is synchronous: with FULL, each COMMIT blocks the event loop for the fsync of the
 * write-ahead log (3-20 ms on the machines we measured), and no request is read meanwhile. So the
 * commit is made with synchronous=NORMAL (the WAL is written, not synced; the connection is held,
 * so nothing else commits that way), and the WAL file is then synced on a thread of its own
 * (wal-sync.ts) before the caller is answered (`transaction` waits for it; `visibleTransaction`
 * hands it over as `durable` and as the commit's number, so the next transaction runs while the
 * disk syncs): what FULL does at every commit (SQLite docs: "the WAL file is synced after each
 * transaction commit"), done off the thread. Statements outside `transaction` keep FULL.
 * Other readers may see the commit during the sync (PostgreSQL shows it only after); a crash of the
 * process loses nothing then, only a crash of the machine could, so the delivery worker waits for
 * `durable()` before it sends anything.
 */
function unsyncedTransaction<T>(db: Db, sqlite: BetterSqlite3.Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    // exec, not pragma(): the setting takes effect when the statement is prepared, and pragma()
    // also builds a statement object and reads its rows (8 times the cost, per transaction).
    sqlite.exec('PRAGMA synchronous = NORMAL');
    try {
      return await connection.transaction().execute(fn);
    } finally {
      sqlite.exec('PRAGMA synchronous = FULL');
    }
  });
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

async function openPostgres(url: string, poolSize: number, replica: OpenOptions['replica']): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A dropped idle connection must not take the process down; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', reusePreparedStatements);
  const router = replica ? new ReplicaRouter(pool, replica.url, { maxLagMs: replica.maxLagMs, probeMs: replica.probeMs, poolSize }) : null;
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: router ?? pool }) });
  return { ...wrap(db, 'postgres', null), replica: router };
}

/** Names of the statements kept prepared, by their text (the same on every connection). */
const preparedNames = new Map<string, string>();

/**
 * Statements marked PREPARED (see prepared.ts) are sent as named prepared statements: each
 * connection parses and plans one once, then only binds and runs it. On a busy machine, parsing
 * and planning the ingest path's few statements anew for every group doubled a group's time.
 */
function reusePreparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const patched = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config !== 'string' || !config.startsWith(PREPARED_MARK) || callback !== undefined) return query(config, values, callback);
    let name = preparedNames.get(config);
    if (name === undefined) {
      name = `lokator_${preparedNames.size}`;
      preparedNames.set(config, name);
    }
    return query({ name, text: config, values });
  };
  Object.assign(client, { query: patched });
}

function wrap(db: Db, dialect: Dialect, sqlite: BetterSqlite3.Database | null): Database {
  return {
    db,
    dialect,
    sqlite,
    replica: null,
    transaction: (fn) => db.transaction().execute(fn),
    visibleTransaction: async (fn) => ({ result: await db.transaction().execute(fn), durable: Promise.resolve(), commit: DURABLE_ON_RETURN }),
    durable: () => Promise.resolve(),
    stopped: new Promise<Error>(() => {}),
    durabilityChannel: null,
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
