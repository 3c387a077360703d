import { sql, type Kysely } from 'kysely';

/**
 * Weekly range partitions of a PostgreSQL table by an epoch-millisecond column (the locations,
 * by `location_date`). One partition per week, Monday 00:00 UTC to the next; below the oldest
 * week, one partition from MINVALUE (`<table>_history`) takes whatever is older (imports, late
 * fixes), so every instant up to the newest week made has a partition and no insert fails for
 * want of one. Weeks: a 1,000-vehicle fleet at a fix every 10 s writes 60 M fixes a week, a
 * partition whose indexes still fit in memory; retention drops whole weeks.
 */
export const WEEK_MS = 7 * 86_400_000;
/** 1970-01-01 was a Thursday: weeks start three days before the epoch's multiples of a week. */
const MONDAY_SHIFT_MS = 3 * 86_400_000;

/** The Monday 00:00 UTC at or before `ms`. */
export const weekStartMs = (ms: number): number => Math.floor((ms + MONDAY_SHIFT_MS) / WEEK_MS) * WEEK_MS - MONDAY_SHIFT_MS;

export interface TimePartition {
  name: string;
  /** null: from MINVALUE (the history partition). */
  fromMs: number | null;
  toMs: number;
  /** A DETACH … CONCURRENTLY that was interrupted; it is finished before anything else. */
  detachPending: boolean;
}

/** `<table>_w20260518`: the week's Monday in UTC. */
export const weekPartitionName = (table: string, fromMs: number): string =>
  `${table}_w${new Date(fromMs).toISOString().slice(0, 10).replaceAll('-', '')}`;

export const historyPartitionName = (table: string): string => `${table}_history`;

/** The partitions of `table`, oldest first, with their bounds as PostgreSQL states them. */
export async function listTimePartitions(db: Kysely<any>, table: string): Promise<TimePartition[]> {
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
export async function makeWeeksUntil(tx: Kysely<any>, table: string, untilMs: number): Promise<number> {
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
export async function dropWeeksBefore(db: Kysely<any>, table: string, beforeMs: number): Promise<string[]> {
  const dropped: string[] = [];
  for (const partition of await listTimePartitions(db, table)) {
    if (partition.detachPending) {
      await sql`ALTER TABLE ${sql.table(table)} DETACH PARTITION ${sql.table(partition.name)} FINALIZE`.execute(db);
    } else if (partition.toMs <= beforeMs) {
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

async function attachEmpty(tx: Kysely<any>, table: string, name: string, from: ReturnType<typeof sql>, toMs: number): Promise<void> {
  await sql`CREATE TABLE ${sql.table(name)} (LIKE ${sql.table(table)} INCLUDING DEFAULTS)`.execute(tx);
  await sql`ALTER TABLE ${sql.table(table)} ATTACH PARTITION ${sql.table(name)} FOR VALUES FROM (${from}) TO (${sql.lit(toMs)})`.execute(tx);
}
