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

  add(timeMs: number, before: FixMetrics, after: FixMetrics, out: { bucket(record: BucketRecord): void }): void {
    const bucketMs = Math.floor(timeMs / BUCKET_MS) * BUCKET_MS;
    let current = this.state.current;
    if (current && current.bucketMs !== bucketMs) {
      out.bucket(current);
      current = null;
    }
    if (!current) {
      current = { bucketMs, firstFixMs: timeMs, lastFixMs: timeMs, fixCount: 0, before: { ...before }, firstFuel: after.fuelSmoothed, end: { ...after } };
    }
    current.lastFixMs = timeMs;
    current.fixCount += 1;
    current.end = { ...after };
    if (current.firstFuel === null) current.firstFuel = after.fuelSmoothed;
    this.state.current = current;
  }

}
