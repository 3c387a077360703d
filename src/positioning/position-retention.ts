import { addCounts, inBatches, NO_ROWS, type BatchCount } from '../store/batches.js';
import type { Database, Tx } from '../store/database.js';
import { LocationPartitions } from './location-partitions.js';
import { deleteCheckpointsBefore } from './pipeline/pipeline-store.js';
import {
  deleteClosedVisitsUpTo,
  deleteOfSubscriberUpTo,
  deleteRequestsBefore,
  deleteTracksUpTo,
  markRemovedBefore,
  nthOldestClosedVisit,
  nthOldestOfSubscriber,
  nthOldestTrackStart,
  subscribersWithRowsBefore,
  type SlicedTable,
  type TimedTable,
} from './retention-store.js';
import { subscribersWithData } from './location-store.js';

export interface DerivedRemoved {
  tracks: BatchCount;
  events: BatchCount;
  buckets: BatchCount;
  zoneVisits: BatchCount;
}

/**
 * Removal of an account's old positions and what was derived from them (docs/operators/retention.md),
 * for the retention job. Everything goes in small transactions (`batchRows` rows), oldest first,
 * so ingestion is never held up for longer than one of them; on PostgreSQL whole weeks go at once.
 */
export class PositionRetention {
  private readonly partitions: LocationPartitions;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly batchRows: number,
  ) {
    this.partitions = new LocationPartitions(database);
  }

  /** The weekly partitions ahead of `nowMs` (PostgreSQL), made at start and on every run. */
  makePartitionsAhead(nowMs: number): Promise<void> {
    return this.partitions.makeAhead(nowMs);
  }

  /**
   * Says that the account's fixes before `beforeMs` are going: from this commit on no late fix
   * replays from a checkpoint before it (its fixes may be gone), and those checkpoints go. Done
   * for every account before any fix is removed, partitions included.
   */
  async closeBefore(accountId: number, beforeMs: number): Promise<number> {
    await markRemovedBefore(this.database.db, accountId, beforeMs);
    let removed = 0;
    for (const subscriberId of await this.withRowsBefore('pipeline_checkpoints', accountId, beforeMs)) {
      removed += await this.database.transaction((tx) => deleteCheckpointsBefore(tx, this.database, accountId, [subscriberId], beforeMs));
    }
    return removed;
  }

  /** Drops the weeks of fixes that lie wholly before `beforeMs`, every account's (PostgreSQL); their names. */
  dropWeeksBefore(beforeMs: number): Promise<string[]> {
    return this.partitions.dropBefore(beforeMs);
  }

  /** The account's fixes and "locate now" requests before `beforeMs`, subscriber by subscriber (`closeBefore` first). */
  async removeFixes(accountId: number, beforeMs: number): Promise<{ fixes: BatchCount; requests: number }> {
    let fixes = NO_ROWS;
    for (const subscriberId of await this.withRowsBefore('locations', accountId, beforeMs)) {
      fixes = addCounts(fixes, await this.oldestOfSubscriber('locations', accountId, subscriberId, beforeMs));
    }
    let requests = 0;
    for (const subscriberId of await this.withRowsBefore('subscriber_requests', accountId, beforeMs)) {
      requests += await this.database.transaction((tx) => deleteRequestsBefore(tx, accountId, subscriberId, beforeMs));
    }
    return { fixes, requests };
  }

  /** The account's closed tracks, vehicle events, statistics buckets and closed zone visits before `beforeMs`. */
  async removeDerived(accountId: number, beforeMs: number): Promise<DerivedRemoved> {
    const tracks = await this.inBatches(async (tx) => deleteTracksUpTo(tx, accountId, beforeMs, await nthOldestTrackStart(tx, accountId, beforeMs, this.batchRows)));
    let events = NO_ROWS;
    for (const subscriberId of await this.withRowsBefore('vehicle_events', accountId, beforeMs)) {
      events = addCounts(events, await this.oldestOfSubscriber('vehicle_events', accountId, subscriberId, beforeMs));
    }
    let buckets = NO_ROWS;
    for (const subscriberId of await this.withRowsBefore('statistics_buckets', accountId, beforeMs)) {
      buckets = addCounts(buckets, await this.oldestOfSubscriber('statistics_buckets', accountId, subscriberId, beforeMs));
    }
    let zoneVisits = NO_ROWS;
    for (const subscriberId of await this.withRowsBefore('zone_visits', accountId, beforeMs)) {
      zoneVisits = addCounts(
        zoneVisits,
        await this.inBatches(async (tx) => deleteClosedVisitsUpTo(tx, accountId, subscriberId, beforeMs, await nthOldestClosedVisit(tx, accountId, subscriberId, beforeMs, this.batchRows))),
      );
    }
    return { tracks, events, buckets, zoneVisits };
  }

  /**
   * The subscriber's rows of `table` before `beforeMs`, about `batchRows` a transaction, oldest
   * first: each removes up to the `batchRows`-th oldest row's time (a few more when several share
   * that instant), so fewer than `batchRows` means none are left.
   */
  private oldestOfSubscriber(table: SlicedTable, accountId: number, subscriberId: number, beforeMs: number): Promise<BatchCount> {
    return this.inBatches(async (tx) =>
      deleteOfSubscriberUpTo(tx, table, accountId, subscriberId, beforeMs, await nthOldestOfSubscriber(tx, table, accountId, subscriberId, beforeMs, this.batchRows)),
    );
  }

  /** The account's vehicles with rows of `table` before `beforeMs` (a read: nothing is opened for the others). */
  private async withRowsBefore(table: TimedTable, accountId: number, beforeMs: number): Promise<number[]> {
    return subscribersWithRowsBefore(this.database, table, accountId, await subscribersWithData(this.database.db, accountId), beforeMs);
  }

  /** Ends the removals under way after their current batch (the server is shutting down). */
  stop(): void {
    this.stopped = true;
  }

  private inBatches(remove: (tx: Tx) => Promise<number>): Promise<BatchCount> {
    return inBatches(() => this.database.transaction(remove), this.batchRows, () => this.stopped);
  }
}
