import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Fix } from './fix.js';

/** Which path fixes came in by (the `source` label of lokator_fixes_ingested_total). */
export type FixSource = 'api' | 'osmand' | 'tracker';

/**
 * What one device request or tracker frame brings: fixes of one account, answered together.
 * `deviceKey`: the key the fixes were sent with, checked against the employee in the transaction
 * (a cached key → employee mapping may be stale on this server). `unknown`: the error for fixes
 * whose employee is gone (unknown, deleted, another account's).
 */
export interface Frame {
  accountId: number;
  fixes: Fix[];
  /** Where it came from, for the metrics. */
  source: FixSource;
  deviceKey?: string;
  unknown: () => Error;
}

/**
 * Commits the frames in one transaction, except those it refuses without writing them (each with
 * its error). It resolves once the transaction's commit is visible; `durable` resolves once it is
 * on disk, and only then are the frames answered. `commit` is the commit's number on the
 * database's durability channel (0: durable already). Throwing means nothing was committed.
 */
export type CommitGroup = (frames: Frame[]) => Promise<{ refused: Map<Frame, Error>; durable: Promise<void>; commit: number }>;

interface Waiting {
  frame: Frame;
  /** With the commit's number: once durable, or at once when visible for `submitVisible`. */
  resolve: (commit: number) => void;
  reject: (error: unknown) => void;
  answersOnceVisible: boolean;
}

/** A group holds at most this many fixes: a transaction stays short and its statements small. */
const MAX_GROUP_FIXES = 10_000;

/**
 * Group commit for the device paths (DESIGN: one ingest queue per process). The first frame to
 * arrive on an idle queue is committed at once, alone: light traffic waits for nothing. Frames
 * that arrive while a transaction runs wait and are all taken into the next one, so a fleet's
 * thousands of single fixes cost a few transactions. Each frame is answered only after the
 * transaction holding it is durable; the next transaction does not wait for that (on SQLite it
 * runs while the write-ahead log of the last one is synced).
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

  /** Resolves once the frame's fixes are committed and durable; rejects with the frame's own error. */
  async submit(frame: Frame): Promise<void> {
    await this.enqueue(frame, false);
  }

  /**
   * Resolves once the frame's fixes are committed, as soon as the commit is visible, with the
   * commit's number: the caller acknowledges the frame only once the database's durability channel
   * says that commit is on disk (the OsmAnd listener's HTTP thread waits for it itself).
   */
  submitVisible(frame: Frame): Promise<number> {
    return this.enqueue(frame, true);
  }

  private enqueue(frame: Frame, answersOnceVisible: boolean): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.waiting.push({ frame, resolve, reject, answersOnceVisible });
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
      const full = taken.length > 0 && fixes + ids.length > MAX_GROUP_FIXES;
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

  /** Resolves once the group's commit is visible (or has failed); its frames are answered later, once durable. */
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
    const { refused, durable, commit } = outcome;
    const settle = (waiting: Waiting) => {
      const error = refused.get(waiting.frame);
      if (error) waiting.reject(error);
      else waiting.resolve(commit);
    };
    // A frame answered once visible learns of its commit's sync (or its failure) on the durability channel.
    for (const waiting of group) if (waiting.answersOnceVisible) settle(waiting);
    const later = group.filter((waiting) => !waiting.answersOnceVisible);
    durable.then(
      () => {
        for (const waiting of later) settle(waiting);
      },
      (error: unknown) => {
        for (const waiting of later) waiting.reject(error);
      },
    );
  }
}

function subscribersOf(group: Waiting[]): Set<number> {
  return new Set(group.flatMap((waiting) => waiting.frame.fixes.map((fix) => fix.subscriberId)));
}
