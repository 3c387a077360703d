import type { Fix } from '../positioning/positioning.js';
import { applyReadingMap, type ReadingMap } from './reading-map.js';
import type { TrackerRecord } from './tracker-record.js';

/** A fix dated further ahead than this is a broken clock, not a position (as for OsmAnd). */
const MAX_FUTURE_MS = 24 * 3_600_000;

/** The records as fixes of the employee, leaving out what no map can make plausible. */
export function toFixes(records: TrackerRecord[], subscriberId: number, map: ReadingMap, nowMs: number): Fix[] {
  // A loop, not flatMap with a spread: no array and no second object per record on the tracker thread.
  const fixes: Fix[] = [];
  for (const record of records) {
    const plausible =
      Number.isFinite(record.timeMs) &&
      record.timeMs <= nowMs + MAX_FUTURE_MS &&
      Math.abs(record.latitude) <= 90 &&
      Math.abs(record.longitude) <= 180 &&
      Number.isFinite(record.speedKmh) &&
      record.speedKmh >= 0;
    if (!plausible) continue;
    const readings = applyReadingMap(record.readings, map);
    fixes.push({
      subscriberId,
      locationDateMs: record.timeMs,
      isValid: record.isValid,
      latitude: record.latitude,
      longitude: record.longitude,
      angle: ((record.angle % 360) + 360) % 360,
      velocityKmh: record.speedKmh,
      fuelLevel: readings.fuelLevel,
      ignition: readings.ignition,
      externalPower: readings.externalPower,
      odometer: readings.odometer,
      engineHours: readings.engineHours,
      sensors: readings.sensors,
    });
  }
  return fixes;
}
