import { parseDateTime } from './datetime.js';
import { invalidField } from './errors.js';

/** How far back a queued write may date itself: a phone offline longer than this has lost the thread. */
export const ACTED_AT_MAX_AGE_MS = 30 * 86_400_000;

/**
 * The time the employee acted (`actedAt` of the `/mobile/v1` writes, CONTRACT §7): a write queued
 * offline carries the time it was made, and that is the change's time. Omitted: `nowMs`. A time
 * ahead of the server's clock (a phone's clock running fast) is taken as now; one older than 30
 * days is 400 code 2, as is one that is no date-time.
 */
export function actedAtMs(text: string | undefined | null, timeZone: string, nowMs: number, field = 'actedAt'): number {
  if (text === undefined || text === null) return nowMs;
  const parsed = parseDateTime(text, timeZone);
  if (!parsed) throw invalidField(field, 'must be a date-time YYYY-MM-DDTHH:mm[:ss[.fff]] with Z, ±HH:MM or nothing');
  if (parsed.epochMs < nowMs - ACTED_AT_MAX_AGE_MS) throw invalidField(field, 'is more than 30 days ago');
  return Math.min(parsed.epochMs, nowMs);
}
