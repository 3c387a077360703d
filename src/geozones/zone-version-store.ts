import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { PREPARED } from '../store/prepared.js';
import type { Database, Db, Tx } from '../store/database.js';

/**
 * The account's zone version: one row per account, moved in the transaction of every zone change,
 * so every server sees from one indexed read whether its index is current.
 *
 * Writing the row is also each zone or group change's first statement, which serialises the
 * account's geozone writes: a row lock on PostgreSQL, the write lock on SQLite (taken before any
 * read, so two servers on one SQLite file wait for each other instead of failing to upgrade).
 * Checks such as "no parent cycle" or "the group is empty" are therefore never raced.
 */
export async function bumpZoneVersion(tx: Tx, accountId: number): Promise<number> {
  const row = await tx
    .insertInto('zone_versions')
    .values({ account_id: accountId, version: 1 })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ version: sql<number>`zone_versions.version + 1` }))
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

/** The same lock for changes that leave the zones as they are (zone groups). */
export async function lockZoneWrites(tx: Tx, accountId: number): Promise<void> {
  await tx
    .insertInto('zone_versions')
    .values({ account_id: accountId, version: 0 })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ version: sql<number>`zone_versions.version` }))
    .execute();
}

/** Reads the version; 0 for an account that never had a zone. */
export class ZoneVersionReader {
  private statement: BetterSqlite3.Statement<[number], number> | null = null;

  constructor(private readonly database: Database) {}

  /**
   * On SQLite a reused prepared statement (about a microsecond), unless another flow's transaction
   * is open on the shared connection: its uncommitted version must not be seen, so the read then
   * waits for it through Kysely. `executor` is the caller's own transaction, if it is in one.
   */
  async read(accountId: number, executor: Db | Tx = this.database.db): Promise<number> {
    const sqlite = this.database.sqlite;
    if (sqlite !== null && (executor.isTransaction || !sqlite.inTransaction)) {
      this.statement ??= sqlite.prepare<[number], number>('SELECT version FROM zone_versions WHERE account_id = ?').pluck();
      return this.statement.get(accountId) ?? 0;
    }
    // Raw and kept prepared: read by every ingest batch on PostgreSQL.
    const { rows } = await sql<{ version: number }>`${PREPARED}SELECT version FROM zone_versions WHERE account_id = ${accountId}`.execute(executor);
    return rows[0]?.version ?? 0;
  }
}
