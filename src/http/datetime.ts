/**
 * Date-time rules of CONTRACT §1. In: ISO 8601 `YYYY-MM-DDTHH:mm[:ss[.f…]]` with `Z`, `±HH:MM`
 * or nothing (nothing = the account's time zone). Out: the account's zone with a numeric offset,
 * fractional seconds only when not zero. Storage is UTC epoch milliseconds.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?$/;

export interface ParsedDateTime {
  epochMs: number;
  /** Written with `Z` or a numeric offset (as opposed to local time of the account's zone). */
  hasOffset: boolean;
}

/** Parses a date-time of the contract's form; null when it is not one (or names no real instant). */
export function parseDateTime(text: string, timeZone: string): ParsedDateTime | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month))) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  // Milliseconds are what we keep; further digits (clients send up to 7) are truncated.
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0-99 to 1900-1999, and no fix or report predates 1900.
  if (year < 1900) return null;

  if (offset === undefined) {
    return { epochMs: localToEpoch(wallMs, timeZone), hasOffset: false };
  }
  if (offset === 'Z') return { epochMs: wallMs, hasOffset: true };
  const sign = offset.startsWith('-') ? -1 : 1;
  const offsetHours = Number(offset.slice(1, 3));
  const offsetMinutes = Number(offset.slice(4, 6));
  if (offsetHours > 18 || offsetMinutes > 59) return null;
  return { epochMs: wallMs - sign * (offsetHours * 60 + offsetMinutes) * 60_000, hasOffset: true };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Wall-clock time in a zone → instant. In a DST gap the later offset wins; in an overlap the earlier instant. */
function localToEpoch(wallMs: number, timeZone: string): number {
  const firstGuess = wallMs - offsetMinutes(timeZone, wallMs) * 60_000;
  const offset = offsetMinutes(timeZone, firstGuess);
  const candidate = wallMs - offset * 60_000;
  const check = offsetMinutes(timeZone, candidate);
  if (check === offset) {
    // In an overlap two instants show this wall time; prefer the earlier one.
    const earlierOffset = offsetMinutes(timeZone, candidate - 3_600_000);
    if (earlierOffset !== offset) {
      const earlier = wallMs - earlierOffset * 60_000;
      if (offsetMinutes(timeZone, earlier) === earlierOffset) return earlier;
    }
    return candidate;
  }
  return wallMs - check * 60_000;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, number>();
const QUARTER_HOUR_MS = 900_000;

/**
 * Offset of a zone from UTC at an instant, in whole minutes. Most changes happen at quarter-hour
 * instants, so an offset that is the same at both ends of a quarter hour is cached for all of it;
 * a quarter hour with a change in it (some zones changed at 00:01, or at local mean time) is
 * answered for the instant itself.
 */
export function offsetMinutes(timeZone: string, epochMs: number): number {
  if (timeZone === 'UTC') return 0;
  const bucket = Math.floor(epochMs / QUARTER_HOUR_MS);
  const key = `${timeZone}|${bucket}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const start = offsetAt(timeZone, bucket * QUARTER_HOUR_MS);
  if (start !== offsetAt(timeZone, (bucket + 1) * QUARTER_HOUR_MS - 1)) return offsetAt(timeZone, epochMs);
  if (offsetCache.size > 200_000) offsetCache.clear();
  offsetCache.set(key, start);
  return start;
}

function offsetAt(timeZone: string, epochMs: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  // `GMT`, `GMT+05:30`, or with seconds for local mean time (`GMT+05:21:10`), rounded to the minute.
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
  if (!match?.[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]) + Number(match[4] ?? 0) / 60;
  return (match[1] === '-' ? -1 : 1) * Math.round(minutes);
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

function formatWall(wallMs: number): string {
  const date = new Date(wallMs);
  const base =
    `${date.getUTCFullYear()}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}` +
    `T${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}`;
  const millis = date.getUTCMilliseconds();
  return millis === 0 ? base : `${base}.${String(millis).padStart(3, '0')}`;
}

/** `2026-05-20T14:30:00+03:00`: the account's zone with a numeric offset (`+00:00` for UTC). */
export function formatDateTime(epochMs: number, timeZone: string): string {
  const offset = offsetMinutes(timeZone, epochMs);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${formatWall(epochMs + offset * 60_000)}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** For fields the interface names as UTC: `2026-05-20T11:30:00Z`. */
export function formatUtc(epochMs: number): string {
  return `${formatWall(epochMs)}Z`;
}
