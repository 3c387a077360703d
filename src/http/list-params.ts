import { Type } from 'typebox';
import { parseDateTime } from './datetime.js';
import { ApiError, invalidField } from './errors.js';

/** `count`: 1..1000, default 1000; above 1000 is code 67 (see validation.ts), below 1 code 2. */
export const Count = Type.Integer({ minimum: 1, maximum: 1000, default: 1000, description: 'at most 1000' });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 });
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** Several ids: `ids=1&ids=2`, `ids=1,2` or `ids[]=1&ids[]=2` (normalised in conventions.ts). */
export const IdList = Type.Array(Id, { maxItems: 1000, description: 'repeated, comma-separated or ids[] form' });
export const DateTimeText = Type.String({
  maxLength: 64,
  description: 'ISO 8601 `YYYY-MM-DDTHH:mm[:ss[.fffffff]]` with `Z`, `±HH:MM` or nothing (the account’s time zone)',
});

const DEFAULT_PERIOD_MS = 72 * 3_600_000;

export interface Period {
  fromMs: number;
  toMs: number;
}

/** The bounds a request gave, each null when omitted. */
export interface Bounds {
  fromMs: number | null;
  toMs: number | null;
}

/**
 * The bounds of a period as the request wrote them (CONTRACT §1): each parsed in the account's
 * zone when it has no offset; both given in different forms (one with an offset, one without) is
 * code 225; `from` after `to` is code 2. A list with a default period applies it with `resolvePeriod`.
 */
export function resolveBounds(query: Record<string, unknown>, names: { from: string; to: string }, timeZone: string): Bounds {
  const from = parseParam(query[names.from], names.from, timeZone);
  const to = parseParam(query[names.to], names.to, timeZone);
  if (from && to && from.hasOffset !== to.hasOffset) {
    throw new ApiError(
      'REQUEST_DATE_TIME_INCONSISTENT_FORMAT',
      `${names.from} and ${names.to} must both carry a UTC offset or both omit it`,
      { [names.from]: 'inconsistent date-time format', [names.to]: 'inconsistent date-time format' },
    );
  }
  if (from && to && from.epochMs > to.epochMs) throw invalidField(names.from, `must not be after ${names.to}`);
  return { fromMs: from?.epochMs ?? null, toMs: to?.epochMs ?? null };
}

/**
 * The period of a list request (CONTRACT §1). `from` omitted: the 72 hours before `to`; `to`
 * omitted: now.
 */
export function resolvePeriod(
  query: Record<string, unknown>,
  names: { from: string; to: string },
  timeZone: string,
  now: number,
): Period {
  const bounds = resolveBounds(query, names, timeZone);
  const toMs = bounds.toMs ?? now;
  const fromMs = bounds.fromMs ?? toMs - DEFAULT_PERIOD_MS;
  if (fromMs > toMs) throw invalidField(names.from, `must not be after ${names.to}`);
  return { fromMs, toMs };
}

function parseParam(value: unknown, name: string, timeZone: string) {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw invalidField(name, 'must be given once');
  const parsed = parseDateTime(value, timeZone);
  if (!parsed) throw invalidField(name, 'must be an ISO 8601 date-time such as 2026-05-20T14:30:00+03:00');
  return parsed;
}
