import { haversineMetres } from '../../geo/geo.js';

/**
 * Why a fix the device called valid was set aside (stored in `locations.filter_reason`). Such a
 * fix is kept as a raw fix with `isValid: false` and takes no part in anything derived.
 */
export const FilterReason = { zeroCoordinates: 1, duplicate: 2, speed: 3, accuracy: 4 } as const;
export type FilterReason = (typeof FilterReason)[keyof typeof FilterReason];

/** An account's GPS filter (account settings `gpsFilter`, by name); each rule can be turned off. */
export interface GpsFilterSettings {
  /** Set aside fixes at exactly (0, 0): what receivers send before they have a position. */
  zeroCoordinates: boolean;
  /** Set aside a fix at the same instant as the last accepted one: it can add no movement. */
  duplicates: boolean;
  /**
   * Set aside a fix whose own accuracy (metres, where the device sends one) is worse than this:
   * a phone's position from cell towers, off by a kilometre or more; 0 turns it off.
   */
  maxAccuracyM: number;
  /** Set aside a fix that the vehicle could only reach from the last accepted one above this speed; 0 turns it off. */
  maxSpeedKmh: number;
  /**
   * This many fixes in a row, each too far from the last accepted one but plausible from the one
   * before, show the vehicle really is there (the accepted fix was the wrong one, or it was carried
   * while the receiver was off): the last of them is accepted. 0 never accepts them.
   */
  confirmFixes: number;
}

export const defaultGpsFilterSettings: GpsFilterSettings = {
  zeroCoordinates: true,
  duplicates: true,
  maxAccuracyM: 500,
  maxSpeedKmh: 300,
  confirmFixes: 3,
};

/** The account's filter: its own rules where it set them (booleans as booleans, limits as numbers ≥ 0), defaults for the rest. */
export function gpsFilterSettingsOf(overrides: Readonly<Record<string, unknown>> | undefined): GpsFilterSettings {
  const settings = { ...defaultGpsFilterSettings };
  for (const key of Object.keys(settings) as (keyof GpsFilterSettings)[]) {
    const value = overrides?.[key];
    if (typeof settings[key] === 'boolean') {
      if (typeof value === 'boolean') (settings as Record<string, unknown>)[key] = value;
    } else if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      (settings as Record<string, unknown>)[key] = value;
    }
  }
  return settings;
}

interface Position {
  t: number;
  lat: number;
  lon: number;
}

/** Fixes set aside for speed in a row, each plausible from the one before: a place not yet confirmed. */
export interface FilterSuspect extends Position {
  count: number;
}

/**
 * Judges a valid fix against the last accepted one (`accepted`, the pipeline's `lastValid`, which
 * a replay restores from its checkpoint, so a replay judges every fix as in-order arrival did).
 * Returns the reason it is set aside, or 0 when it is accepted; `suspect` is the pending run of
 * speed rejections, updated in place through `holder`.
 */
export function judgeFix(
  fix: { timeMs: number; latitude: number; longitude: number; accuracyM?: number | null },
  accepted: Position | null,
  holder: { filterSuspect?: FilterSuspect },
  settings: GpsFilterSettings,
): FilterReason | 0 {
  if (settings.zeroCoordinates && fix.latitude === 0 && fix.longitude === 0) return FilterReason.zeroCoordinates;
  if (settings.maxAccuracyM > 0 && fix.accuracyM != null && fix.accuracyM > settings.maxAccuracyM) return FilterReason.accuracy;
  if (accepted === null) return 0;
  if (settings.duplicates && fix.timeMs === accepted.t) return FilterReason.duplicate;
  if (settings.maxSpeedKmh <= 0 || fix.timeMs <= accepted.t) {
    delete holder.filterSuspect;
    return 0;
  }
  const limitMps = settings.maxSpeedKmh / 3.6;
  if (!tooFast(accepted, fix, limitMps)) {
    delete holder.filterSuspect;
    return 0;
  }
  const suspect = holder.filterSuspect;
  const count = suspect && fix.timeMs > suspect.t && !tooFast(suspect, fix, limitMps) ? suspect.count + 1 : 1;
  if (settings.confirmFixes > 0 && count >= settings.confirmFixes) {
    delete holder.filterSuspect;
    return 0;
  }
  holder.filterSuspect = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude, count };
  return FilterReason.speed;
}

const METRES_PER_DEGREE = 111_196;

/** Whether going from `from` to the fix needs more than the limit (metres per second). */
function tooFast(from: Position, fix: { timeMs: number; latitude: number; longitude: number }, limitMps: number): boolean {
  const seconds = (fix.timeMs - from.t) / 1000;
  // Cheap bound first: on the sphere a degree of arc is 111,195 m, and going along the meridian
  // then the parallel is never shorter than the great circle, so most fixes need no haversine.
  const reachM = limitMps * seconds;
  if ((Math.abs(fix.latitude - from.lat) + Math.abs(fix.longitude - from.lon)) * METRES_PER_DEGREE <= reachM) return false;
  return haversineMetres(from.lat, from.lon, fix.latitude, fix.longitude) > reachM;
}
