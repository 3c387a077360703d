import type { Database, Tx } from '../store/database.js';
import { dropWeeksBefore, listTimePartitions, makeWeeksUntil, WEEK_MS, type TimePartition } from '../store/time-partitions.js';

/** How far ahead of now the weekly partitions of the locations are made (the server checks hourly). */
export const PARTITIONS_AHEAD_MS = 4 * WEEK_MS;

/**
 * The weekly partitions of `locations` on PostgreSQL (src/store/time-partitions.ts); nothing on
 * SQLite, which has one table. The server makes weeks ahead at start and every hour; an insert
 * that brings a fix past the newest week (a server clock far ahead, a test's) makes its week in
 * its own transaction first, so no insert ever finds no partition.
 */
export class LocationPartitions {
  /** The end of the newest week this process knows is made. */
  private coveredUntilMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly database: Database) {}

  get partitioned(): boolean {
    return this.database.dialect === 'postgres';
  }

  /** Weeks until PARTITIONS_AHEAD_MS past `nowMs`. */
  async makeAhead(nowMs: number): Promise<void> {
    if (!this.partitioned) return;
    this.coveredUntilMs = await this.database.transaction((tx) => makeWeeksUntil(tx, 'locations', nowMs + PARTITIONS_AHEAD_MS));
  }

  /** In an ingest transaction, before its insert: the week of its newest fix exists. */
  async cover(tx: Tx, newestMs: number): Promise<void> {
    if (!this.partitioned || newestMs < this.coveredUntilMs) return;
    this.coveredUntilMs = await makeWeeksUntil(tx, 'locations', newestMs);
  }

  /** Drops the weeks that lie wholly before `beforeMs`; the names of those dropped. */
  async dropBefore(beforeMs: number): Promise<string[]> {
    if (!this.partitioned) return [];
    return dropWeeksBefore(this.database.db, 'locations', beforeMs);
  }

  list(): Promise<TimePartition[]> {
    return this.partitioned ? listTimePartitions(this.database.db, 'locations') : Promise.resolve([]);
  }
}
