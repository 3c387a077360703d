import { Worker } from 'node:worker_threads';

/** What one checkpoint found: frames in the write-ahead log, and how many of them are now in the database file. */
export interface CheckpointReport {
  walFrames: number;
  copiedFrames: number;
}

/** How often the log is checkpointed (a checkpoint with nothing to copy reads a little shared memory). */
const CHECKPOINT_INTERVAL_MS = 200;
/** Past this many frames (16 MiB of 4 KiB pages) the log is made to start afresh. */
const RESTART_FRAMES = 4000;

/**
 * Copies the write-ahead log into the database file on a thread of its own (wal-checkpoint-thread.ts).
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses 1000 pages, on the committing
 * connection, the main thread: it blocked the event loop for the copy and two disk syncs (10-60 ms
 * every few hundred fixes at fleet scale, the tail of every device's latency). The main
 * connection turns it off (`wal_autocheckpoint = 0`), and every 200 ms a passive checkpoint runs
 * on the thread instead: passive never takes the write lock, so nothing on the main thread waits.
 *
 * The log starts afresh only when a transaction begins with all of it copied, which passive
 * checkpoints alone never reach while transactions keep coming. So once it holds 4000 frames,
 * write transactions are held back (`write`) while a second checkpoint copies the frames written
 * during the first: a short pause of the writes, not of the event loop. If the thread fails, the
 * main connection goes back to automatic checkpoints.
 */
export class WalCheckpointer {
  private readonly thread: Worker;
  private readonly timer: NodeJS.Timeout;
  private round: { resolve: (report: CheckpointReport) => void; reject: (error: Error) => void } | null = null;
  /** The checkpoint under way, if any. */
  private checkpointing: Promise<void> | null = null;
  /** While set, write transactions wait for it. */
  private gate: Promise<void> | null = null;
  /** Write transactions started or waiting for the connection. */
  private writing = 0;
  private drained: (() => void) | null = null;
  private failed = false;
  private last: CheckpointReport | null = null;

  constructor(
    path: string,
    private readonly fallBack: () => void,
    private readonly restartFrames = RESTART_FRAMES,
  ) {
    this.thread = new Worker(new URL('./wal-checkpoint-thread.js', import.meta.url), { workerData: { path } });
    this.thread.on('message', (report: CheckpointReport) => {
      this.last = report;
      this.round?.resolve(report);
    });
    this.thread.on('error', (error) => this.fail(error));
    this.thread.unref();
    this.timer = setInterval(() => {
      if (this.checkpointing || this.failed) return;
      this.checkpointing = this.checkpoint().finally(() => (this.checkpointing = null));
    }, CHECKPOINT_INTERVAL_MS).unref();
  }

  /** Runs a write transaction, after the log's restart if one is under way. */
  async write<T>(transaction: () => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    this.writing++;
    try {
      return await transaction();
    } finally {
      if (--this.writing === 0) this.drained?.();
    }
  }

  /**
   * No checkpoint starts from now on (the one under way, if any, finishes): the log is no longer
   * to be trusted (a sync of it failed, see wal-sync.ts).
   */
  halt(): void {
    clearInterval(this.timer);
  }

  /** What the last checkpoint found (for tests). */
  get lastReport(): CheckpointReport | null {
    return this.last;
  }

  /** Stops once the checkpoint under way is done; the connection closing last checkpoints what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checkpointing;
    if (this.failed) return;
    const exited = new Promise<void>((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.ref();
    this.thread.postMessage('close');
    await exited;
  }

  /** A passive checkpoint; past `restartFrames`, a second one with writes held back, so the log can start afresh. */
  private async checkpoint(): Promise<void> {
    try {
      const report = await this.onThread();
      if (report.walFrames < this.restartFrames) return;
      let open = () => {};
      this.gate = new Promise((resolve) => (open = resolve));
      try {
        if (this.writing > 0) await new Promise<void>((resolve) => (this.drained = resolve));
        this.drained = null;
        await this.onThread();
      } finally {
        this.gate = null;
        open();
      }
    } catch {
      // The thread failed (see fail): the main connection checkpoints again.
    }
  }

  /** One checkpoint on the thread; the thread keeps the process alive only meanwhile (writes may be waiting for it). */
  private async onThread(): Promise<CheckpointReport> {
    this.thread.ref();
    try {
      return await new Promise<CheckpointReport>((resolve, reject) => {
        this.round = { resolve, reject };
        this.thread.postMessage('checkpoint');
      });
    } finally {
      this.round = null;
      this.thread.unref();
    }
  }

  private fail(error: Error): void {
    this.failed = true;
    clearInterval(this.timer);
    this.fallBack();
    this.round?.reject(error);
  }
}
