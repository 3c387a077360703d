import type BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  NoResultError,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { DURABLE_ON_RETURN } from '../src/store/commit-sequence.js';
import type { Database, Dialect, Tx } from '../src/store/database.js';
import type { Schema } from '../src/store/schema.js';

/**
 * A `Database` that runs nothing: every statement a store sends is compiled by Kysely for the
 * dialect (or, for the bulk writer's prepared SQLite statements, handed to `prepare`) and
 * recorded. Each statement answers the next of the rows it is given, or no rows: enough for a
 * store function to go on to its next statement where that depends on a first answer.
 */
export class SqlRecorder {
  readonly statements: string[] = [];
  private answers: unknown[][] = [];
  readonly database: Database;

  constructor(readonly dialect: Dialect) {
    const driver = new RecordingDriver((text) => this.record(text));
    const db = new Kysely<Schema>({
      dialect: {
        createAdapter: () => (dialect === 'postgres' ? new PostgresAdapter() : new SqliteAdapter()),
        createDriver: () => driver,
        createIntrospector: (k) => (dialect === 'postgres' ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
        createQueryCompiler: () => (dialect === 'postgres' ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
      },
    });
    const statement = { run: () => ({ changes: 0 }), get: () => undefined, all: () => [], pluck: () => statement };
    const sqlite = dialect === 'sqlite' ? ({ inTransaction: false, prepare: (text: string) => (this.record(text), statement) } as unknown as BetterSqlite3.Database) : null;
    this.database = {
      db,
      dialect,
      sqlite,
      transaction: (fn) => db.transaction().execute(fn),
      visibleTransaction: async (fn) => ({ result: await db.transaction().execute(fn), durable: Promise.resolve(), commit: DURABLE_ON_RETURN }),
      durable: () => Promise.resolve(),
      stopped: new Promise<Error>(() => {}),
      durabilityChannel: null,
      ping: () => Promise.resolve(),
      close: () => db.destroy(),
      replica: null,
    };
  }

  /** The statements `run` sends, in order; `answers[i]` are the rows the i-th statement gets. */
  async capture(run: (context: { database: Database; tx: Tx }) => Promise<unknown>, answers: unknown[][] = []): Promise<string[]> {
    this.statements.length = 0;
    this.answers = [...answers];
    try {
      await this.database.transaction((tx) => run({ database: this.database, tx }));
    } catch (error) {
      // A "…OrThrow" read that got no row: its statement is recorded all the same.
      if (!(error instanceof NoResultError)) throw error;
    }
    return [...this.statements];
  }

  private record(text: string): QueryResult<unknown> {
    this.statements.push(text);
    return { rows: this.answers.shift() ?? [] };
  }
}

class RecordingDriver implements Driver {
  constructor(private readonly record: (text: string) => QueryResult<unknown>) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async (query) => this.record(query.sql) as QueryResult<never>,
      // eslint-disable-next-line require-yield
      streamQuery: async function* () {
        throw new Error('the recorder does not stream');
      },
    };
  }

  async beginTransaction(): Promise<void> {}
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}
