import type { FixMetrics } from './pipeline-types.js';

export const BUCKET_MS = 15 * 60_000;

/**
 * One quarter hour of one vehicle's statistics: the running totals before its first fix and at its
 * last. Quarter hours, not hours, so that the clock hours of any time zone (some are offset by
 * 30 or 45 minutes) are whole sets of buckets.
 */
export interface BucketRecord {
  bucketMs: number;
  firstFixMs: number;
  lastFixMs: number;
  fixCount: number;
  before: FixMetrics;
  /** Fuel at the first fix of the bucket (the fuel before it may be from long ago). */
  firstFuel: number | null;
  end: FixMetrics;
}

export interface StatisticsState {
  current: BucketRecord | null;
}

/**
 * Folds each valid fix's metrics into its quarter-hour bucket. A bucket is reported when the next
 * one starts; the one being filled lives only in the subscriber's state, where readers find it
 * (StatisticsService), so a batch does not rewrite it for every vehicle.
 */
export class StatisticsAccumulator {
  constructor(readonly state: StatisticsState) {}

  static initialState(): StatisticsState {
    return { current: null };
  }

  /**
   * Before a valid fix changes the running totals (`before`, the pipeline's live ones): the fix's
   * quarter hour starts from them if it is a new one, and the last one is reported.
   */
  enter(timeMs: number, before: FixMetrics, out: { bucket(record: BucketRecord): void }): void {
    const bucketMs = Math.floor(timeMs / BUCKET_MS) * BUCKET_MS;
    const current = this.state.current;
    if (current?.bucketMs === bucketMs) return;
    if (current) out.bucket(current);
    this.state.current = { bucketMs, firstFixMs: timeMs, lastFixMs: timeMs, fixCount: 0, before: { ...before }, firstFuel: null, end: { ...before } };
  }

  /**
   * After it (`enter` came first): its totals are the bucket's end so far, copied into the bucket's
   * own object rather than a new one per fix.
   */
  add(timeMs: number, after: FixMetrics): void {
    const current = this.state.current!;
    current.lastFixMs = timeMs;
    current.fixCount += 1;
    Object.assign(current.end, after);
    if (current.firstFuel === null) current.firstFuel = after.fuelSmoothed;
  }
}
