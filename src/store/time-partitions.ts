import { sql } from 'kysely';
import type { Db } from './database.js';
import { historyPartitionName, WEEK_MS, weekPartitionName, weekStartMs } from './weeks.js';

export { WEEK_MS, weekStartMs } from './weeks.js';

/* The weekly partitions of a table (the locations), made ahead and dropped whole: see weeks.ts. */

export interface TimePartition {
  name: string;
  /** null: from MINVALUE (the history partition). */
  fromMs: number | null;
  toMs: number;
  /** A DETACH … CONCURRENTLY that was interrupted; it is finished before anything else. */
  detachPending: boolean;
}

/** The partitions of `table`, oldest first, with their bounds as PostgreSQL states them. */
export async function listTimePartitions(db: Db, table: string): Promise<TimePartition[]> {
  const { rows } = await sql<{ name: string; bound: string; pending: boolean }>`
    SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS pending
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(${table})`.execute(db);
  return rows
    .map((row) => {
      const match = /FROM \((MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/.exec(row.bound);
      if (!match) throw new Error(`partition ${row.name} of ${table} has bounds this code does not make: ${row.bound}`);
      return { name: row.name, fromMs: match[2] === undefined ? null : Number(match[2]), toMs: Number(match[3]), detachPending: row.pending };
    })
    .sort((a, b) => (a.fromMs ?? Number.NEGATIVE_INFINITY) - (b.fromMs ?? Number.NEGATIVE_INFINITY));
}

/**
 * Makes weekly partitions until one holds `untilMs`; returns the end of the newest. Run in the
 * caller's transaction (an ingest that brings a fix past the newest week makes its week in its
 * own transaction), under an advisory lock, so two servers never make the same week. Each is
 * made as a plain table and then attached: ATTACH takes only a SHARE UPDATE EXCLUSIVE lock on
 * the parent, which inserts and reads do not wait for (CREATE … PARTITION OF would lock them out).
 */
export async function makeWeeksUntil(tx: Db, table: string, untilMs: number): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`time-partitions:${table}`}))`.execute(tx);
  const partitions = await listTimePartitions(tx, table);
  if (partitions.length === 0) throw new Error(`${table} has no partitions: is it partitioned (migration 0008)?`);
  let fromMs = Math.max(...partitions.map((p) => p.toMs));
  while (fromMs <= untilMs) {
    const toMs = weekStartMs(fromMs) + WEEK_MS;
    await attachEmpty(tx, table, weekPartitionName(table, fromMs), sql`${sql.lit(fromMs)}`, toMs);
    fromMs = toMs;
  }
  return fromMs;
}

/**
 * Removes every partition that lies wholly before `beforeMs`, and gives the instants below the
 * oldest one left a new, empty history partition. DETACH … CONCURRENTLY waits for the queries
 * that use the partition instead of locking inserts out, and cannot run in a transaction; a
 * detach interrupted before (a server killed) is finished first. Returns the names dropped.
 */
export async function dropWeeksBefore(db: Db, table: string, beforeMs: number): Promise<string[]> {
  const dropped: string[] = [];
  const partitions = await listTimePartitions(db, table);
  // An empty history partition with nothing after it to go stays: dropping it would only make it again.
  const due = partitions.filter((p) => p.toMs <= beforeMs);
  if (due.length === 1 && due[0]!.fromMs === null && !(await hasRows(db, due[0]!.name))) due.length = 0;
  for (const partition of partitions) {
    if (partition.detachPending) {
      await sql`ALTER TABLE ${sql.table(table)} DETACH PARTITION ${sql.table(partition.name)} FINALIZE`.execute(db);
    } else if (due.includes(partition)) {
      await sql`ALTER TABLE ${sql.table(table)} DETACH PARTITION ${sql.table(partition.name)} CONCURRENTLY`.execute(db);
    } else {
      continue;
    }
    await sql`DROP TABLE ${sql.table(partition.name)}`.execute(db);
    dropped.push(partition.name);
  }
  if (dropped.length > 0) {
    await db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`time-partitions:${table}`}))`.execute(tx);
      const left = await listTimePartitions(tx, table);
      const oldest = left.find((p) => !p.detachPending);
      if (oldest && oldest.fromMs !== null) await attachEmpty(tx, table, historyPartitionName(table), sql`MINVALUE`, oldest.fromMs);
    });
  }
  return dropped;
}

async function hasRows(db: Db, name: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM ${sql.table(name)} LIMIT 1`.execute(db);
  return rows.length > 0;
}

async function attachEmpty(tx: Db, table: string, name: string, from: ReturnType<typeof sql>, toMs: number): Promise<void> {
  await sql`CREATE TABLE ${sql.table(name)} (LIKE ${sql.table(table)} INCLUDING DEFAULTS)`.execute(tx);
  await sql`ALTER TABLE ${sql.table(table)} ATTACH PARTITION ${sql.table(name)} FOR VALUES FROM (${from}) TO (${sql.lit(toMs)})`.execute(tx);
}
