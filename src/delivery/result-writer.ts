import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { AttemptResult, DeliveryQueue } from './delivery-queue.js';

const RETRY_MS = 500;
/**
 * At most one write per this long. better-sqlite3 blocks the event loop while it commits, so no
 * result can arrive during a commit: without a pause, every commit would carry one result.
 */
const MIN_INTERVAL_MS = 5;
/** Lanes wait when this many results are not written yet (the database is slower than the receivers). */
const HIGH_WATER = 2000;

/**
 * Writes attempt results in group commits: whatever the lanes finished while the previous write
 * was running goes into the next transaction, so a commit (an fsync on SQLite) is shared by many
 * deliveries instead of paid by each. A result not written yet is lost by a crash, and its
 * delivery is sent again after the restart: at least once, as the contract says.
 */
export class ResultWriter {
  private results: AttemptResult[] = [];
  private releases: number[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastWriteAt = 0;
  private waiters: (() => void)[] = [];

  private readonly queue: DeliveryQueue;
  private readonly me: string;
  private readonly log: Logger;
  private readonly onWritten: (results: AttemptResult[]) => void;

  constructor(options: {
    queue: DeliveryQueue;
    /** The worker whose claims these are. */
    me: string;
    log: Logger;
    /** Told what was written (the worker schedules the retries it contains). */
    onWritten: (results: AttemptResult[]) => void;
  }) {
    this.queue = options.queue;
    this.me = options.me;
    this.log = options.log;
    this.onWritten = options.onWritten;
  }

  add(result: AttemptResult): void {
    this.results.push(result);
    this.kick();
  }

  /** Frees claims on deliveries that will not be sent by this worker now. */
  release(ids: number[]): void {
    if (ids.length === 0) return;
    this.releases.push(...ids);
    this.kick();
  }

  /** Resolves at once unless too many results wait to be written. */
  async backpressure(): Promise<void> {
    if (this.results.length < HIGH_WATER) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Everything added so far is written (or the database refused `attempts` times). */
  async drain(attempts = 5): Promise<void> {
    for (let i = 0; i < attempts && (this.writing || this.results.length || this.releases.length); i++) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.lastWriteAt = 0;
      this.kick();
      await this.writing;
      if (this.results.length || this.releases.length) await new Promise((r) => setTimeout(r, i === 0 ? 0 : RETRY_MS));
    }
  }

  private kick(): void {
    if (this.writing || this.timer || (this.results.length === 0 && this.releases.length === 0)) return;
    const wait = this.lastWriteAt + MIN_INTERVAL_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.kick();
      }, wait);
      return;
    }
    this.writing = this.writeOnce().finally(() => {
      this.writing = null;
      this.kick();
    });
  }

  private async writeOnce(): Promise<void> {
    this.lastWriteAt = performance.now();
    const results = this.results;
    const releases = this.releases;
    this.results = [];
    this.releases = [];
    try {
      await this.queue.record(results, releases, this.me);
    } catch (error) {
      // Keep them, in order, ahead of anything newer, and try again after a pause.
      this.results = [...results, ...this.results];
      this.releases = [...releases, ...this.releases];
      this.lastWriteAt = performance.now() + RETRY_MS - MIN_INTERVAL_MS;
      this.log.warn({ err: error, results: this.results.length }, 'could not record delivery attempts; retrying');
      return;
    }
    this.onWritten(results);
    if (this.results.length < HIGH_WATER) for (const wake of this.waiters.splice(0)) wake();
  }
}
