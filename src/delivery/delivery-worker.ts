import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino, type Logger } from 'pino';
import type { Database } from '../store/database.js';
import type { ChannelSender, ClaimedDelivery, SendOutcome } from './channel-sender.js';
import type { DeliveryMetrics } from './delivery-metrics.js';
import { DeliveryNudges } from './delivery-nudges.js';
import { targetKey, type AttemptResult, type DeliveryQueue } from './delivery-queue.js';
import type { Channel, Outbox } from './outbox.js';
import { ResultWriter } from './result-writer.js';

export interface DeliveryWorkerOptions {
  database: Database;
  /** Where producers write deliveries; on SQLite its writes wake the worker. */
  outbox: Outbox;
  queue: DeliveryQueue;
  /** One sender per channel. */
  senders: Record<Channel, ChannelSender>;
  metrics: DeliveryMetrics;
  clock?: () => number;
  /** WEBHOOK_RETRY_SCHEDULE: the delay before each retry; after the last one fails, the delivery fails. */
  retryScheduleMs: number[];
  /** Targets sent to in parallel (each target strictly in order). */
  concurrency?: number;
  /** Deliveries of one target claimed at a time. */
  runSize?: number;
  /** How long a claim lasts unless renewed; a crashed server's claims come free after it. */
  leaseMs?: number;
  /** PostgreSQL: where to LISTEN for new deliveries (without it, the worker polls often). */
  listenUrl?: string;
  /** ± this fraction of randomness on each retry delay, so retries of many events spread out. */
  jitter?: number;
}

/** Polls when nothing nudges: rows written by another process, retries, claims run out. */
const IDLE_POLL_MS = 1000;
const FAST_POLL_MS = 100;
/** Targets looked at per discovery (a target past these waits until earlier ones drain). */
const HEAD_SCAN_LIMIT = 10_000;

/**
 * The delivery worker (CONTRACT §4): finds each target's next due delivery, claims it, sends it
 * with its channel's sender, and records every attempt; retries follow WEBHOOK_RETRY_SCHEDULE
 * with jitter, and a delivery that used them all is marked failed and kept.
 *
 * Each target is a lane: one delivery in flight, in order, and the lane continues with the
 * target's next deliveries (claimed `runSize` at a time) without asking the queue who is next.
 * Up to `concurrency` lanes run at once. New deliveries wake the worker (delivery-nudges.ts);
 * a timer covers retries and everything a nudge may miss. All state that matters is in the
 * database: a claim is a lease there, a result is written before its delivery stops being pending.
 */
export class DeliveryWorker {
  private readonly me = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly lanes = new Map<string, Promise<void>>();
  /** Results per target not written yet: its head in the table is stale until they are. */
  private readonly unwritten = new Map<string, number>();
  /** Targets a discovery passed over because of unwritten results: look again once they are written. */
  private readonly blocked = new Set<string>();
  /** Counts nudges from outside (new rows, resends), so an ending lane can tell whether it may have missed one. */
  private nudgeCount = 0;
  /** The last discovery found more due targets than free lanes. */
  private capped = false;
  private readonly concurrency: number;
  private readonly runSize: number;
  private readonly leaseMs: number;
  private readonly jitter: number;
  private log: Logger = pino({ level: 'silent' });
  private writer!: ResultWriter;
  private nudges: DeliveryNudges | null = null;
  private running = false;
  private stopped = false;
  private discovering: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private heartbeat: NodeJS.Timeout | null = null;
  private pollMs = IDLE_POLL_MS;

  private readonly database: Database;
  private readonly outbox: Outbox;
  private readonly queue: DeliveryQueue;
  private readonly senders: Record<Channel, ChannelSender>;
  private readonly metrics: DeliveryMetrics;
  private readonly clock: () => number;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.database = options.database;
    this.outbox = options.outbox;
    this.queue = options.queue;
    this.senders = options.senders;
    this.metrics = options.metrics;
    this.clock = options.clock ?? Date.now;
    this.concurrency = options.concurrency ?? 32;
    this.runSize = options.runSize ?? 50;
    this.leaseMs = options.leaseMs ?? 10_000;
    this.jitter = options.jitter ?? 0.1;
  }

  async start(log?: Logger): Promise<void> {
    if (this.running) return;
    // stop() closes the senders' connection pools.
    if (this.stopped) throw new Error('a stopped delivery worker does not start again; make a new one');
    if (log) this.log = log;
    this.running = true;
    this.writer = new ResultWriter({ queue: this.queue, me: this.me, log: this.log, onWritten: (written) => this.afterWrite(written) });
    // SQLite has one server; any claim left in the file is a killed process's.
    if (this.database.dialect === 'sqlite') {
      const freed = await this.queue.releaseAllClaims();
      if (freed > 0) this.log.info({ freed }, 'freed the claims of a previous run');
    }
    // PostgreSQL claims are leases in the table; SQLite's are the lanes themselves (delivery-queue.ts).
    if (this.database.dialect === 'postgres') this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.nudges = new DeliveryNudges({ database: this.database, outbox: this.outbox, listenUrl: this.options.listenUrl, log: this.log });
    this.pollMs = this.nudges.available ? IDLE_POLL_MS : FAST_POLL_MS;
    await this.nudges.start(() => this.nudge());
    this.nudge();
  }

  /** Stops taking deliveries; attempts in flight finish and are recorded; claims not started are freed. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.nudges?.stop();
    await this.discovering;
    await Promise.all(this.lanes.values());
    await this.writer.drain();
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.all(Object.values(this.senders).map((sender) => sender.close().catch(() => {})));
  }

  /** Look for due deliveries now (new rows committed, a resend). */
  nudge(): void {
    this.nudgeCount++;
    this.wakeAt(0);
  }

  private wakeAt(at: number): void {
    if (!this.running || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      void this.discover();
    }, Math.max(0, at - this.clock()));
  }

  private discover(): Promise<void> {
    if (this.discovering) {
      this.again = true;
      return this.discovering;
    }
    this.discovering = this.lookForDueDeliveries().finally(() => {
      this.discovering = null;
    });
    return this.discovering;
  }

  private async lookForDueDeliveries(): Promise<void> {
    let nextLook = Infinity;
    try {
      do {
        this.again = false;
        if (!this.running) return;
        const now = this.clock();
        const heads = await this.queue.findHeads(HEAD_SCAN_LIMIT);
        const due = [];
        for (const head of heads) {
          if (this.lanes.has(head.key)) continue;
          if (this.unwritten.has(head.key)) {
            this.blocked.add(head.key);
            continue;
          }
          if (head.lockedUntil !== null && head.lockedUntil >= now) nextLook = Math.min(nextLook, head.lockedUntil + 1);
          else if (head.nextAttemptAt > now) nextLook = Math.min(nextLook, head.nextAttemptAt);
          else due.push(head);
        }
        const free = Math.max(0, this.concurrency - this.lanes.size);
        this.capped = due.length > free;
        due.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id);
        const claimed = await this.queue.claimHeads(due.slice(0, free), this.me, now, now + this.leaseMs);
        for (const delivery of claimed) {
          if (this.running) this.startLane(delivery);
          else this.writer.release([delivery.id]);
        }
      } while (this.again);
    } catch (error) {
      this.log.warn({ err: error }, 'could not look for due deliveries; trying again shortly');
    } finally {
      this.wakeAt(Math.min(nextLook, this.clock() + this.pollMs));
    }
  }

  private startLane(first: ClaimedDelivery): void {
    const key = targetKey(first);
    const seen = { nudges: this.nudgeCount };
    const lane = this.runLane(first, seen)
      .catch((error: unknown) => this.log.error({ err: error, deliveryId: first.id }, 'delivery lane stopped by an unexpected error'))
      .finally(() => {
        this.lanes.delete(key);
        // A discovery passed this target over while the lane ran, and may have seen rows its last
        // look missed; or other targets wait for a free lane.
        if (seen.nudges !== this.nudgeCount || this.capped) this.wakeAt(0);
      });
    this.lanes.set(key, lane);
  }

  private async runLane(first: ClaimedDelivery, seen: { nudges: number }): Promise<void> {
    let run = [first];
    while (run.length > 0) {
      for (let i = 0; i < run.length; i++) {
        if (!this.running) {
          this.writer.release(run.slice(i).map((d) => d.id));
          return;
        }
        // Delivered, or failed for good: the next one is the target's head now. A retry holds the
        // rest back until it is due: order per target.
        if ((await this.attempt(run[i]!)) === 'pending') {
          this.writer.release(run.slice(i + 1).map((d) => d.id));
          return;
        }
      }
      await this.writer.backpressure();
      if (!this.running) return;
      const now = this.clock();
      seen.nudges = this.nudgeCount;
      run = await this.queue.claimRun(first, run[run.length - 1]!.id, this.me, now, now + this.leaseMs, this.runSize);
    }
  }

  /** One attempt, recorded; what became of the delivery. */
  private async attempt(delivery: ClaimedDelivery): Promise<AttemptResult['status']> {
    const attemptedAt = this.clock();
    const started = performance.now();
    let outcome: SendOutcome;
    try {
      // The row may be committed but not yet on disk (SQLite syncs after the commit): never send
      // what a crash of the machine could still take back.
      await this.database.durable();
      outcome = await this.senders[delivery.channel].send(delivery);
    } catch (error) {
      outcome = { ok: false, statusCode: null, error: `internal error: ${error instanceof Error ? error.message : String(error)}`, bug: error };
    }
    const durationMs = Math.round(performance.now() - started);
    const attempts = delivery.attemptCount + 1;
    const status = outcome.ok ? 'delivered' : outcome.permanent || attempts > this.options.retryScheduleMs.length ? 'failed' : 'pending';
    const nextAttemptAt = status === 'pending' ? attemptedAt + durationMs + this.withJitter(this.options.retryScheduleMs[attempts - 1]!) : delivery.nextAttemptAt;
    const result: AttemptResult = { delivery, attemptedAt, durationMs, statusCode: outcome.statusCode, error: outcome.error, status, nextAttemptAt };
    const key = targetKey(delivery);
    this.unwritten.set(key, (this.unwritten.get(key) ?? 0) + 1);
    this.writer.add(result);
    this.observe(delivery, result, outcome);
    return status;
  }

  private observe(delivery: ClaimedDelivery, result: AttemptResult, outcome: SendOutcome): void {
    const { channel } = delivery;
    this.metrics.attempts.inc({ channel, outcome: result.status === 'pending' ? 'retry' : result.status });
    this.metrics.attemptDuration.observe({ channel }, result.durationMs / 1000);
    if (delivery.attemptCount === 0) this.metrics.firstAttemptDelay.observe({ channel }, Math.max(0, result.attemptedAt - delivery.nextAttemptAt) / 1000);
    if (outcome.ok) return;
    const context = { deliveryId: delivery.id, channel, target: delivery.target, attempt: delivery.attemptCount + 1, status: result.status, error: outcome.error };
    // A receiver that is down is the receiver's business; an exception of ours is a bug to fix.
    if (outcome.bug) this.log.error({ ...context, err: outcome.bug }, 'delivery attempt failed with an unexpected error');
    else if (result.status === 'failed') this.log.warn(context, 'delivery failed for good');
    else this.log.info(context, 'delivery attempt failed; will retry');
  }

  private withJitter(delayMs: number): number {
    return Math.round(delayMs * (1 - this.jitter + 2 * this.jitter * Math.random()));
  }

  /** Retries are due later; a target whose lane has ended may have a next delivery that waited for this write. */
  private afterWrite(written: AttemptResult[]): void {
    let earliest = Infinity;
    for (const r of written) {
      const key = targetKey(r.delivery);
      const left = this.unwritten.get(key)! - 1;
      if (left > 0) this.unwritten.set(key, left);
      else this.unwritten.delete(key);
      if (r.status === 'pending') earliest = Math.min(earliest, r.nextAttemptAt);
      if (left === 0 && this.blocked.delete(key) && !this.lanes.has(key)) earliest = 0;
    }
    if (earliest < Infinity) this.wakeAt(earliest);
  }

  private async renewLeases(): Promise<void> {
    try {
      await this.queue.renewLeases(this.me, this.clock() + this.leaseMs);
    } catch (error) {
      this.log.warn({ err: error }, 'could not renew delivery claims');
    }
  }
}
