import { instantOfWall, wallOf } from './report-days.js';
import type { Frequency } from './schedule-schema.js';

const DAY_MS = 86_400_000;

/** When a schedule sends, in the account's zone. */
export interface ScheduleTiming {
  frequency: Frequency;
  weekday: number | null;
  monthDay: number | null;
  /** HH:mm */
  time: string;
}

function sendsOn(timing: ScheduleTiming, wallDayMs: number): boolean {
  const date = new Date(wallDayMs);
  if (timing.frequency === 'weekly') return (date.getUTCDay() || 7) === timing.weekday;
  if (timing.frequency === 'monthly') return date.getUTCDate() === timing.monthDay;
  return true;
}

/** The first send strictly after `afterMs`. */
export function nextOccurrence(timing: ScheduleTiming, timeZone: string, afterMs: number): number {
  const [hours, minutes] = timing.time.split(':').map(Number) as [number, number];
  const timeMs = (hours * 60 + minutes) * 60_000;
  let wallDay = Math.floor(wallOf(afterMs, timeZone) / DAY_MS) * DAY_MS;
  // A month has a 1st to 28th within 31 days; two months cover every case with room.
  for (let i = 0; i < 62; i++, wallDay += DAY_MS) {
    if (!sendsOn(timing, wallDay)) continue;
    const at = instantOfWall(wallDay + timeMs, timeZone);
    if (at > afterMs) return at;
  }
  throw new Error('no occurrence within two months');
}

/**
 * The period a send at `occurrenceMs` reports on, in whole days of the zone ending at the midnight
 * before it: daily the day before, weekly the seven days before, monthly the calendar month before (whichever
 * day of the month it is sent on).
 */
export function reportedPeriod(timing: ScheduleTiming, timeZone: string, occurrenceMs: number): { fromMs: number; toMs: number } {
  const day = Math.floor(wallOf(occurrenceMs, timeZone) / DAY_MS) * DAY_MS;
  const toMs = instantOfWall(day, timeZone);
  if (timing.frequency === 'daily') return { fromMs: instantOfWall(day - DAY_MS, timeZone), toMs };
  if (timing.frequency === 'weekly') return { fromMs: instantOfWall(day - 7 * DAY_MS, timeZone), toMs };
  const date = new Date(day);
  return {
    fromMs: instantOfWall(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1), timeZone),
    toMs: instantOfWall(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1), timeZone),
  };
}
