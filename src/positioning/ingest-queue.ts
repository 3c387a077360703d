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
 * its error): the others are committed when it resolves. Throwing means nothing was committed.
 */
export type CommitGroup = (frames: Frame[]) => Promise<Map<Frame, Error>>;

interface Waiting {
  frame: Frame;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A group holds at most this many fixes: a transaction stays short and its statements small. */
const MAX_GROUP_FIXES = 10_000;

/**
 * Group commit for the device paths (DESIGN: one ingest queue per process). The first frame to
 * arrive on an idle queue is committed at once, alone: light traffic waits for nothing. Frames
 * that arrive while a transaction runs wait and are all taken into the next one, so a fleet's
 * thousands of single fixes cost a few transactions, one disk sync each. Each frame is answered
 * only after the transaction holding it committed. One transaction at a time, frames in arrival
 * order: a device's fixes are stored in the order they came.
 */
export class IngestQueue {
  private waiting: Waiting[] = [];
  private draining = false;

  constructor(private readonly commitGroup: CommitGroup) {}

  /** Resolves once the frame's fixes are committed; rejects with the frame's own error. */
  submit(frame: Frame): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ frame, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Frames waiting for a transaction (for metrics and tests). */
  get depth(): number {
    return this.waiting.length;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      // better-sqlite3 runs a whole transaction without returning to the event loop: the requests
      // that came in meanwhile are read only once it is given back, so each round first lets the
      // current I/O phase finish (setImmediate, no timer: a lone fix waits for nothing else).
      do {
        await yieldToIo();
        await this.commit(this.take());
      } while (this.waiting.length > 0);
    } finally {
      this.draining = false;
    }
  }

  private take(): Waiting[] {
    let fixes = 0;
    let count = 0;
    while (count < this.waiting.length && (count === 0 || fixes + this.waiting[count]!.frame.fixes.length <= MAX_GROUP_FIXES)) {
      fixes += this.waiting[count]!.frame.fixes.length;
      count++;
    }
    return this.waiting.splice(0, count);
  }

  private async commit(group: Waiting[]): Promise<void> {
    let refused: Map<Frame, Error>;
    try {
      refused = await this.commitGroup(group.map((w) => w.frame));
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
    for (const waiting of group) {
      const error = refused.get(waiting.frame);
      if (error) waiting.reject(error);
      else waiting.resolve();
    }
  }
}
