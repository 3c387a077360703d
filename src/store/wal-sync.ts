import { randomUUID } from 'node:crypto';
import { BroadcastChannel, Worker } from 'node:worker_threads';
import { commitSequence, DURABLE_ON_RETURN, type CommitSequence } from './commit-sequence.js';

/**
 * What the sync thread announces on a database's durability channel, heard on every thread:
 * `durable`, every commit up to that number is on disk; `failed`, the sync meant to cover commits
 * up to that number failed, and no commit after the last one announced durable ever will be.
 *
 * A failed sync is the end, not a retry (as PostgreSQL panics on a failed fsync of its log): Linux
 * may drop the pages that failed to reach the disk and report the next sync of the file a
 * success. The log on disk would then have a hole, and recovery after a crash stops at a hole
 * (each frame's checksum covers the ones before it): every commit after it would be lost, the
 * acknowledged ones too. So nothing more is announced durable; the database refuses writes
 * (`Database.stopped`) and the server exits, and its restart recovers from what is on disk.
 */
export type DurabilityNews = { durable: CommitSequence } | { failed: CommitSequence; message: string };

/**
 * The counters the main thread and the sync thread share (BigInt64Array slots): how many times a
 * sync was asked for, how many commits were made, and whether the thread is to stop. Asking is an
 * Atomics.notify on ASKED, not a message: in profiles of bench:devices a postMessage per commit
 * took about 46 µs of the main thread's time and the notify about 28 µs, most of either being the
 * woken thread's sync taking the main thread's core for a moment (on two cores, shared with the
 * HTTP thread and the client).
 */
export const ASKED = 0;
export const COMMITS = 1;
export const CLOSING = 2;

/**
 * Which commits of a database are on disk, as its durability channel announces them: for any
 * thread that answers only what is durable (the OsmAnd listener's HTTP thread answers a fix once
 * the sync covering its commit is done, without waiting for the main thread to hear of it).
 */
export class DurableCommits {
  private upTo = DURABLE_ON_RETURN;
  private waits: { commit: CommitSequence; resolve: () => void; reject: (error: Error) => void }[] = [];
  private readonly channel: BroadcastChannel;
  /** Why commits stopped being made durable (a failed sync), once they did. */
  private failure: Error | null = null;
  private announceStop: (error: Error) => void = () => {};
  /** Resolves with the reason once a sync failed: no later commit will be durable (see DurabilityNews). */
  readonly stopped = new Promise<Error>((resolve) => (this.announceStop = resolve));

  constructor(channelName: string) {
    this.channel = new BroadcastChannel(channelName);
    this.channel.onmessage = (event) => this.hear((event as { data: DurabilityNews }).data);
    // Listening keeps a thread alive only while something waits for the news.
    this.channel.unref();
  }

  /** Whether commit `commit` is known to be on disk now (DURABLE_ON_RETURN: always). */
  isDurable(commit: CommitSequence): boolean {
    return commit <= this.upTo;
  }

  /** The failure that stopped commits from being made durable, if one did. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Resolves once commit `commit` is on disk; rejects if a sync failed before it was. */
  after(commit: CommitSequence): Promise<void> {
    if (commit <= this.upTo) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    if (this.waits.length === 0) this.channel.ref();
    return new Promise((resolve, reject) => this.waits.push({ commit, resolve, reject }));
  }

  close(): void {
    this.channel.close();
  }

  /**
   * Takes in one announcement: from the channel, or from this thread itself (a BroadcastChannel
   * does not hear its own messages).
   */
  hear(news: DurabilityNews): void {
    // After a failure nothing is durable any more, whatever a confused sender says.
    if (this.failure) return;
    if ('failed' in news) {
      this.failure = new Error(`syncing the write-ahead log failed: ${news.message}`);
      for (const wait of this.waits) wait.reject(this.failure);
      this.waits = [];
      this.channel.unref();
      this.announceStop(this.failure);
      return;
    }
    this.upTo = commitSequence(Math.max(this.upTo, news.durable));
    const left: typeof this.waits = [];
    for (const wait of this.waits) {
      if (wait.commit > news.durable) left.push(wait);
      else wait.resolve();
    }
    this.waits = left;
    if (left.length === 0) this.channel.unref();
  }
}

/**
 * Makes a SQLite database's commits durable off the main thread (see `unsyncedTransaction` in
 * database.ts): each commit gets a number and is handed to a thread of its own
 * (wal-sync-thread.ts), which fdatasyncs the write-ahead log and announces on the durability
 * channel which commits that covers. The two share counters (ASKED, COMMITS, CLOSING). The
 * thread does nothing else, so it hears of a commit at once and its announcement reaches the
 * listening threads as soon as the disk is done. Before, the sync ran on libuv's pool and its
 * completion waited on the main thread for the next transaction to end: 1.3-1.5 ms from visible to
 * durable under bench:devices, for a sync of under a millisecond. Commits made during a sync are
 * covered by one sync after it. A failed sync stops it for good (see DurabilityNews): `stopped`.
 */
export class WalSync {
  /** The BroadcastChannel name this database's durability news travels on. */
  readonly channelName = `lokator-durability-${randomUUID()}`;
  private readonly thread: Worker;
  private readonly shared = new BigInt64Array(new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT));
  private readonly news: DurableCommits;
  /** Posts this thread's own news (a thread failure) to the other threads. */
  private readonly announce: BroadcastChannel;
  private readonly exited: Promise<void>;
  private commits = DURABLE_ON_RETURN;
  /** Resolves with the reason once commits stopped being made durable: a sync failed, or the thread died. */
  readonly stopped: Promise<Error>;

  constructor(walPath: string) {
    this.news = new DurableCommits(this.channelName);
    this.stopped = this.news.stopped;
    this.announce = new BroadcastChannel(this.channelName);
    this.announce.unref();
    this.thread = new Worker(new URL('./wal-sync-thread.js', import.meta.url), { workerData: { walPath, channelName: this.channelName, shared: this.shared.buffer } });
    this.thread.unref();
    this.thread.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
  }

  /** Counts a commit just made and has it synced; answers its place in the sequence (see `after`). */
  committed(): CommitSequence {
    this.commits = commitSequence(this.commits + 1);
    this.request();
    return this.commits;
  }

  /** The failure that stopped commits from being made durable, if one did: no write should begin then. */
  get failed(): Error | null {
    return this.news.failed;
  }

  /** Resolves once commit `commit` is on disk; rejects once a sync failed before it was. */
  after(commit: CommitSequence): Promise<void> {
    return this.news.after(commit);
  }

  /** Resolves once everything committed so far is on disk; rejects once a sync failed before it was. */
  durable(): Promise<void> {
    if (this.news.isDurable(this.commits)) return Promise.resolve();
    this.request();
    return this.after(this.commits);
  }

  /** Waits for the commits made so far to be on disk, then stops the thread. */
  async close(): Promise<void> {
    await this.durable().catch(() => {});
    // Waiting for the thread to stop keeps this one alive meanwhile.
    this.thread.ref();
    Atomics.store(this.shared, CLOSING, 1n);
    this.ask();
    await this.exited;
    this.news.close();
    this.announce.close();
  }

  private request(): void {
    if (this.news.failed) return;
    Atomics.store(this.shared, COMMITS, BigInt(this.commits));
    this.ask();
  }

  private ask(): void {
    Atomics.add(this.shared, ASKED, 1n);
    Atomics.notify(this.shared, ASKED);
  }

  /** The thread is gone: nothing more will be synced; every wait, here and on other threads, fails, as after a failed sync. */
  private fail(error: Error): void {
    const news: DurabilityNews = { failed: this.commits, message: `the sync thread failed: ${error.message}` };
    this.news.hear(news);
    this.announce.postMessage(news);
  }
}
