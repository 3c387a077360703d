import type { Account } from './account-service.js';

export const DAY_MS = 86_400_000;
/** Tracks, vehicle events and statistics buckets outlive the fixes they come from this many times. */
export const DERIVED_RETENTION_FACTOR = 4;
/** The largest retention an account may be given (100 years; 0 means for ever). */
export const MAX_RETENTION_DAYS = 36_500;

/**
 * How long an account's data is kept (docs/operators/retention.md). Fixes (and "locate now" requests,
 * which name them) for the account's days, or the server's RETENTION_DAYS when it has none
 * of its own; tracks, vehicle events and statistics buckets four times as long, so that a year
 * of trips and mileage is still there when 90 days of fixes are; 0 keeps everything for ever.
 */
export interface Retention {
  /** Days of fixes kept; 0: for ever. */
  fixesDays: number;
  /** Days of tracks, vehicle events and statistics kept; 0: for ever. */
  derivedDays: number;
}

export function retentionOf(account: Pick<Account, 'retentionDays'>, serverDefaultDays: number): Retention {
  const fixesDays = account.retentionDays ?? serverDefaultDays;
  return { fixesDays, derivedDays: fixesDays * DERIVED_RETENTION_FACTOR };
}

/** The instant before which data kept for `days` is removed at `nowMs`; null when it is kept for ever. */
export function cutoffMs(days: number, nowMs: number): number | null {
  return days === 0 ? null : nowMs - days * DAY_MS;
}
