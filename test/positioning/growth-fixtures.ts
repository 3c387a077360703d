// Days of a vehicle for the retention and partition tests: each day one 12-minute drive from
// 08:00 at 60 km/h with two minutes at 100 km/h (a speeding and a prolonged-speeding event, one
// track), then parked with a fix every two hours. 84 fixes a day, deterministic.
import type { Client } from '../helpers/server.js';
import { LOCATIONS } from '../helpers/server.js';

export const DAY_MS = 86_400_000;
const STEP_MS = 10_000;
const DRIVE_FIXES = 72;
const PARKED_EVERY_MS = 2 * 3_600_000;
/** Degrees of longitude per metre at Moscow's latitude. */
const LON_PER_M = 1 / (111_320 * Math.cos((55.75 * Math.PI) / 180));

export interface Fix {
  subscriberID: number;
  locationDate: string;
  latitude: number;
  longitude: number;
  velocity: number;
  angle: number;
  fuelLevel: number;
}

/** The day starting at `dayStartMs` (00:00 UTC) of a vehicle that starts it at longitude `lon`; the fixes and where it ends. */
export function drivingDay(subscriberID: number, dayStartMs: number, lon: number): { fixes: Fix[]; lon: number } {
  const fixes: Fix[] = [];
  const at = (ms: number, velocity: number) =>
    fixes.push({ subscriberID, locationDate: new Date(ms).toISOString(), latitude: 55.75, longitude: Number(lon.toFixed(6)), velocity, angle: 90, fuelLevel: 60 });
  at(dayStartMs + 8 * 3_600_000 - STEP_MS, 0);
  for (let i = 0; i < DRIVE_FIXES; i++) {
    const velocity = i >= 24 && i < 36 ? 100 : 60;
    lon += (velocity / 3.6) * (STEP_MS / 1000) * LON_PER_M;
    at(dayStartMs + 8 * 3_600_000 + i * STEP_MS, velocity);
  }
  for (let ms = dayStartMs + 10 * 3_600_000; ms < dayStartMs + DAY_MS; ms += PARKED_EVERY_MS) at(ms, 0);
  return { fixes, lon };
}

/** `days` consecutive days of the vehicle, the first starting at `firstDayMs`. */
export function drivingDays(subscriberID: number, firstDayMs: number, days: number): Fix[] {
  const fixes: Fix[] = [];
  let lon = 37.6;
  for (let d = 0; d < days; d++) {
    const day = drivingDay(subscriberID, firstDayMs + d * DAY_MS, lon);
    fixes.push(...day.fixes);
    lon = day.lon;
  }
  return fixes;
}

/** Posts the fixes in batches of up to 10,000 (in time order per vehicle, as a tracker would). */
export async function postFixes(api: Client, fixes: Fix[]): Promise<void> {
  for (let i = 0; i < fixes.length; i += 10_000) {
    const answer = await api.post(LOCATIONS, fixes.slice(i, i + 10_000));
    if (answer.status !== 201) throw new Error(`posting fixes failed: ${answer.status} ${answer.text}`);
  }
}
