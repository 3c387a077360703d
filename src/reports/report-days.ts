import { offsetMinutes } from '../http/datetime.js';

const DAY_MS = 86_400_000;

/** A day of the account's time zone: its date and the instants it runs between, `[fromMs, toMs)`. */
export interface LocalDay {
  date: string;
  fromMs: number;
  toMs: number;
}

/** The instant a wall-clock time of the zone happens (the later offset's reading across a change). */
export function instantOfWall(wallMs: number, timeZone: string): number {
  const guess = wallMs - offsetMinutes(timeZone, wallMs) * 60_000;
  return wallMs - offsetMinutes(timeZone, guess) * 60_000;
}

/** The wall-clock time of an instant in the zone, as epoch-like milliseconds. */
export function wallOf(epochMs: number, timeZone: string): number {
  return epochMs + offsetMinutes(timeZone, epochMs) * 60_000;
}

const isoDate = (wallDayMs: number) => new Date(wallDayMs).toISOString().slice(0, 10);

/** Every day of the zone that [fromMs, toMs] touches, whole, in order. */
export function localDays(fromMs: number, toMs: number, timeZone: string): LocalDay[] {
  const days: LocalDay[] = [];
  let wallDay = Math.floor(wallOf(fromMs, timeZone) / DAY_MS) * DAY_MS;
  let fromDayMs = instantOfWall(wallDay, timeZone);
  while (fromDayMs <= toMs) {
    const nextWall = wallDay + DAY_MS;
    const toDayMs = instantOfWall(nextWall, timeZone);
    days.push({ date: isoDate(wallDay), fromMs: fromDayMs, toMs: toDayMs });
    wallDay = nextWall;
    fromDayMs = toDayMs;
  }
  return days;
}

/** The zone's day (YYYY-MM-DD) an instant falls on. */
export function localDate(epochMs: number, timeZone: string): string {
  return isoDate(Math.floor(wallOf(epochMs, timeZone) / DAY_MS) * DAY_MS);
}
