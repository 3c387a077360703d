// Extensions in the imports: the unit tests run this file in Node too.
import type { PlainKey } from '../../i18n/i18n.js';
import { dayBoundsMs, dayIn } from '../tracks/zoned-time.js';

/** What a dispatcher reads from a marker's colour at a glance. */
export type FleetState = 'moving' | 'stopped' | 'offline' | 'noData';

/** The order of the legend and the state filter: the ones that need a look first. */
export const FLEET_STATES: readonly FleetState[] = ['moving', 'stopped', 'offline', 'noData'];

export const STATE_LABEL = {
  moving: 'map.state.moving',
  stopped: 'map.state.stopped',
  offline: 'map.state.offline',
  noData: 'map.state.noData',
} as const satisfies Record<FleetState, PlainKey>;

/**
 * From this speed on a fix is movement: the default `moveSpeedKmh` that cuts tracks into trips, so
 * the map calls "moving" what Tracks shows as a trip, and GPS jitter at a standstill is not.
 */
export const MOVING_FROM_KMH = 5;

/** Today in the account's zone, as the instants it starts and ends: states are judged against it. */
export interface Today {
  day: string;
  startMs: number;
  endMs: number;
}

export function todayIn(timeZone: string, nowMs: number): Today {
  const day = dayIn(timeZone, nowMs);
  return { day, ...dayBoundsMs(day, timeZone) };
}

/**
 * An employee's state: no fix today (in the account's zone) is "no data today" whatever else; else
 * offline as the server says (no fix within its online timeout); else moving or standing by the
 * speed of the latest fix.
 */
export function fleetStateOf(employee: { isOnline: boolean }, position: { locationDate: string; velocity: number } | undefined, today: Today): FleetState {
  if (!position) return 'noData';
  const atMs = Date.parse(position.locationDate);
  if (!(atMs >= today.startMs && atMs < today.endMs)) return 'noData';
  if (!employee.isOnline) return 'offline';
  return position.velocity >= MOVING_FROM_KMH ? 'moving' : 'stopped';
}
