/**
 * Weekly range partitions of a PostgreSQL table by an epoch-millisecond column (the locations,
 * by `location_date`). One partition per week, Monday 00:00 UTC to the next; below the oldest
 * week, one partition from MINVALUE (`<table>_history`) takes whatever is older (imports, late
 * fixes), so every instant up to the newest week made has a partition and no insert fails for
 * want of one. Weeks: a 1,000-vehicle fleet at a fix every 10 s writes 60 M fixes a week, a
 * partition whose indexes still fit in memory; retention drops whole weeks.
 */
export const WEEK_MS = 7 * 86_400_000;
/** 1970-01-01 was a Thursday: weeks start three days before the epoch's multiples of a week. */
const MONDAY_SHIFT_MS = 3 * 86_400_000;

/** The Monday 00:00 UTC at or before `ms`. */
export const weekStartMs = (ms: number): number => Math.floor((ms + MONDAY_SHIFT_MS) / WEEK_MS) * WEEK_MS - MONDAY_SHIFT_MS;

/** `<table>_w20260518`: the week's Monday in UTC. */
export const weekPartitionName = (table: string, fromMs: number): string =>
  `${table}_w${new Date(fromMs).toISOString().slice(0, 10).replaceAll('-', '')}`;

export const historyPartitionName = (table: string): string => `${table}_history`;
