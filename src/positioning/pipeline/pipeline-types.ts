import type { VehicleSettings } from '../../employees/employees.js';
import type { GpsFilterSettings } from './fix-filter.js';

/** A fix as the pipeline sees it: stored (it has an id) and ordered by (timeMs, id). */
export interface PipelineFix {
  id: number;
  timeMs: number;
  isValid: boolean;
  latitude: number;
  longitude: number;
  velocityKmh: number;
  fuelLevel: number | null;
  ignition: boolean | null;
  externalPower: boolean | null;
  odometer: number | null;
  engineHours: number | null;
  sensors: { sensorID: number; value: number }[] | null;
  /** The receiver's estimate of its error, metres; absent or null when unknown. */
  accuracyM?: number | null;
}

/**
 * Running totals at a fix, stored on the fix itself so that any period's statistics are a
 * difference of two rows (CONTRACT §2). Cumulative values count from the vehicle's first fix.
 */
export interface FixMetrics {
  cumDistanceM: number;
  cumTrackM: number;
  cumEngineS: number;
  /**
   * Engine seconds inside tracks, released as `cumTrackM` is: engine time minus this is idling (the
   * engine on while parked). Absent in metrics written before it was kept (read it as 0).
   */
  cumTrackEngineS?: number;
  fuelSmoothed: number | null;
  /** The last odometer reading at or before this fix, and the cumulative distances at that reading. */
  odoAnchorKm: number | null;
  odoAnchorCumM: number;
  odoAnchorTrackM: number;
}

/** Track thresholds of CONTRACT §2; account settings with these defaults. */
export interface TrackSettings {
  moveSpeedKmh: number;
  moveDistanceM: number;
  stopSeconds: number;
  gapSeconds: number;
  minDistanceM: number;
  minDurationSeconds: number;
}

export const defaultTrackSettings: TrackSettings = {
  moveSpeedKmh: 5,
  moveDistanceM: 100,
  stopSeconds: 300,
  gapSeconds: 600,
  minDistanceM: 200,
  minDurationSeconds: 60,
};

/** The account's thresholds: its own where it set them, the contract's defaults for the rest. */
export function trackSettingsOf(overrides: Readonly<Record<string, number>> | undefined): TrackSettings {
  const settings = { ...defaultTrackSettings };
  for (const key of Object.keys(settings) as (keyof TrackSettings)[]) {
    const value = overrides?.[key];
    if (typeof value === 'number' && Number.isFinite(value)) settings[key] = value;
  }
  return settings;
}

export interface PipelineSettings {
  track: TrackSettings;
  vehicle: VehicleSettings;
  /** The account's GPS filter; its defaults when absent. */
  filter?: GpsFilterSettings;
}

export interface TrackRecord {
  startMs: number;
  finishMs: number;
  startLat: number;
  startLon: number;
  finishLat: number;
  finishLon: number;
  distanceM: number;
  /** The highest speed of the track's fixes, km/h. */
  maxSpeedKmh: number;
  isOpen: boolean;
}

/** Interface 2.3 types. */
export const EventType = { fuelFilling: 1, fuelDrain: 2, sensorViolation: 3, speeding: 4, prolongedSpeeding: 5 } as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

export interface VehicleEventRecord {
  type: EventType;
  eventMs: number;
  /** Tells apart events of one type at one instant: the sensor id for type 3, else 0. */
  detail: number;
  latitude: number;
  longitude: number;
  value: number;
}

/** Where a detector reports what it found. Records with the same key replace earlier ones. */
export interface PipelineSink {
  track(record: TrackRecord): void;
  dropTrack(startMs: number): void;
  event(record: VehicleEventRecord): void;
}

export interface Point {
  t: number;
  lat: number;
  lon: number;
}
