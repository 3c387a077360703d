/**
 * Days and clock times in the account's time zone (CONTRACT §1: date-times without an offset are
 * read in it), whatever zone the browser is in.
 */

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` of the instant `ms` on the wall calendar of `timeZone`. */
export function dayIn(timeZone: string, ms: number): string {
  const parts = wallClock(timeZone, ms);
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`;
}

export function isDay(text: string | undefined): text is string {
  const match = text ? DAY_PATTERN.exec(text) : null;
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** The day before (−1) or after (+1) `day`, as `YYYY-MM-DD`. */
export function shiftDay(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The instant `day` begins in `timeZone`: its local midnight, or, where the clocks jump over
 * midnight (Chile in spring), the first instant that is on that day. The zone's offset is read at
 * a first guess and again at the result; of the two, the earlier that falls on the day wins.
 */
export function startOfDayMs(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  const first = wall - offsetMs(timeZone, wall);
  const second = wall - offsetMs(timeZone, first);
  const onDay = [first, second].filter((ms) => dayIn(timeZone, ms) === day);
  return onDay.length > 0 ? Math.min(...onDay) : second;
}

/** The local day `day` as [start, end) instants: 24 hours, or 23 or 25 on a clock change. */
export function dayBoundsMs(day: string, timeZone: string): { startMs: number; endMs: number } {
  return { startMs: startOfDayMs(day, timeZone), endMs: startOfDayMs(shiftDay(day, 1), timeZone) };
}

/** `HH:mm` in the zone; with the date in front when `ms` lies outside the day being shown. */
export function clockTime(ms: number, timeZone: string, day?: string): string {
  // The end of the day is its 24:00, not the next day's 00:00.
  if (day !== undefined && ms === startOfDayMs(shiftDay(day, 1), timeZone)) return '24:00';
  const parts = wallClock(timeZone, ms);
  const time = `${pad(parts.hour)}:${pad(parts.minute)}`;
  if (day === undefined || dayIn(timeZone, ms) === day) return time;
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)} ${time}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string, ms: number) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** How far the zone's wall clock is ahead of UTC at the instant `ms`. */
function offsetMs(timeZone: string, ms: number): number {
  const p = wallClock(timeZone, ms);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** `YYYY-MM-DDTHH:mm` (what a `datetime-local` input holds) of the instant `ms` on the wall clock of `timeZone`. */
export function localDateTime(ms: number, timeZone: string): string {
  const p = wallClock(timeZone, ms);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

export function isLocalDateTime(text: string | undefined): text is string {
  const match = text ? LOCAL_DATE_TIME.exec(text) : null;
  return match !== null && isDay(text!.slice(0, 10)) && Number(match[4]) < 24 && Number(match[5]) < 60;
}

/**
 * The instant a wall-clock time `YYYY-MM-DDTHH:mm` of `timeZone` names; a time the clocks skip
 * (spring forward) reads as the offset before the change, as the server reads it.
 */
export function zonedMs(local: string, timeZone: string): number {
  const [day, time] = local.split('T') as [string, string];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, h, min);
  const first = wall - offsetMs(timeZone, wall);
  return wall - offsetMs(timeZone, first);
}
