import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { CommitSequence } from '../store/commit-sequence.js';
import type { Fix } from './fix.js';
import { ingestBounds, type FixSource } from './ingest-port.js';

/**
 * What one device request, tracker frame or API batch brings (IngestFrame), its sender resolved:
 * fixes of one account, stored together or not at all. `deviceKey`: the key the fixes were sent
 * with, checked against the employee in the transaction (a cached key → employee mapping may be
 * stale on this server). `unknown`: the error for a frame whose employees are gone (unknown,
 * deleted, another account's), given the subscribers it named that are.
 */
export interface Frame {
  accountId: number;
  fixes: Fix[];
  /** Where it came from, for the metrics. */
  source: FixSource;
  deviceKey?: string;
  unknown: (subscriberIds: ReadonlySet<number>) => Error;
}

/**
 * Commits the frames in one transaction, except those it refuses without writing them (each with
 * its error). It resolves once the transaction's commit is visible, with the commit's place in
 * the sequence. Throwing means nothing was committed.
 */
export type CommitGroup = (frames: Frame[]) => Promise<{ refused: Map<Frame, Error>; commit: CommitSequence }>;

interface Waiting {
  frame: Frame;
  resolve: (commit: CommitSequence) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit behind the ingest port (DESIGN: one ingest queue per process). The first frame to
 * arrive on an idle queue is committed at once, alone: light traffic waits for nothing. Frames
 * that arrive while a transaction runs wait and are all taken into the next one, so a fleet's
 * thousands of single fixes cost a few transactions. Each frame resolves once the commit holding
 * it is visible, with its place in the sequence, and its sender is answered once that commit is
 * durable; the next transaction does not wait for that (on SQLite it runs while the write-ahead
 * log of the last one is synced).
 *
 * `lanes` transactions may run at once (PostgreSQL, where a commit is a round trip to a server
 * that waits for its own disk); a subscriber is in one running transaction at most, and its frames
 * are taken in arrival order, so a device's fixes are stored in the order they came.
 */
export class IngestQueue {
  private waiting: Waiting[] = [];
  private running = 0;
  /** Subscribers of the transactions running now. */
  private readonly busy = new Set<number>();

  constructor(
    private readonly commitGroup: CommitGroup,
    private readonly lanes = 1,
  ) {}

  /**
   * Resolves once the frame's fixes are committed, as soon as the commit is visible, with the
   * commit's place in the sequence (see IngestPort.submit); rejects with the frame's own error.
   */
  submit(frame: Frame): Promise<CommitSequence> {
    return new Promise<CommitSequence>((resolve, reject) => {
      this.waiting.push({ frame, resolve, reject });
      if (this.running < this.lanes) void this.drain();
    });
  }

  /** Frames waiting for a transaction (for metrics and tests). */
  get depth(): number {
    return this.waiting.length;
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      // better-sqlite3 runs a whole transaction without returning to the event loop: the requests
      // that came in meanwhile are read only once it is given back, so each round first lets the
      // current I/O phase finish (setImmediate, no timer: a lone fix waits for nothing else).
      for (;;) {
        await yieldToIo();
        const group = this.take();
        if (group.length === 0) return;
        const subscribers = subscribersOf(group);
        for (const id of subscribers) this.busy.add(id);
        try {
          await this.commit(group);
        } finally {
          for (const id of subscribers) this.busy.delete(id);
        }
      }
    } finally {
      this.running--;
    }
  }

  /**
   * The next group, in arrival order: frames of a subscriber that a running transaction holds stay
   * waiting, and so does every later frame of the subscribers of a frame left waiting.
   */
  private take(): Waiting[] {
    const taken: Waiting[] = [];
    const left: Waiting[] = [];
    const held = new Set(this.busy);
    let fixes = 0;
    for (const waiting of this.waiting) {
      const ids = waiting.frame.fixes.map((fix) => fix.subscriberId);
      const full = taken.length > 0 && fixes + ids.length > ingestBounds.groupFixes;
      if (full || ids.some((id) => held.has(id))) {
        for (const id of ids) held.add(id);
        left.push(waiting);
        continue;
      }
      taken.push(waiting);
      fixes += ids.length;
    }
    this.waiting = left;
    return taken;
  }

  /** Resolves once the group's commit is visible (or has failed), its frames with it. */
  private async commit(group: Waiting[]): Promise<void> {
    let outcome: Awaited<ReturnType<CommitGroup>>;
    try {
      outcome = await this.commitGroup(group.map((w) => w.frame));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // Something in one frame failed the whole transaction: each frame again on its own, so
      // that only the bad one fails and its neighbours are stored.
      for (const waiting of group) await this.commit([waiting]);
      return;
    }
    // Each sender learns of its commit's sync (or its failure) from the durability of that commit.
    const { refused, commit } = outcome;
    for (const waiting of group) {
      const error = refused.get(waiting.frame);
      if (error) waiting.reject(error);
      else waiting.resolve(commit);
    }
  }
}

function subscribersOf(group: Waiting[]): Set<number> {
  return new Set(group.flatMap((waiting) => waiting.frame.fixes.map((fix) => fix.subscriberId)));
}
