// Fixture builders for the pipeline's unit tests: fixes, routes that move by metres along a bearing
// (so expected distances are known up front), and a sink that keeps records the way the store does.
import { defaultVehicleSettings, type VehicleSettings } from '../../../src/employees/employee-schema.js';
import { haversineMetres } from '../../../src/geo/geo.js';
import {
  defaultTrackSettings,
  type PipelineFix,
  type PipelineSettings,
  type TrackRecord,
  type VehicleEventRecord,
} from '../../../src/positioning/pipeline/pipeline-types.js';
import type { BucketRecord } from '../../../src/positioning/pipeline/statistics-accumulator.js';
import type { Checkpoint, PipelineOutput } from '../../../src/positioning/pipeline/subscriber-pipeline.js';
import type { ZoneVisitRecord } from '../../../src/positioning/pipeline/zone-visit-detector.js';

/** Red Square, give or take. */
export const MOSCOW: LatLon = { lat: 55.75, lon: 37.61 };
/** A whole hour (UTC), so hour and quarter-hour boundaries fall at round offsets from it. */
export const T0 = Date.parse('2026-05-20T06:00:00Z');
export const SECOND = 1000;
export const MINUTE = 60_000;
export const HOUR = 3_600_000;

export interface LatLon {
  lat: number;
  lon: number;
}

// Same sphere as geo.ts, so a point moved by d metres is d metres away by haversine (to float error).
const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `metres` away from `from` along the great circle leaving at `bearingDeg` (0 = north, 90 = east). */
export function move(from: LatLon, metres: number, bearingDeg: number): LatLon {
  const delta = metres / EARTH_RADIUS_M;
  const theta = rad(bearingDeg);
  const phi1 = rad(from.lat);
  const lambda1 = rad(from.lon);
  const phi2 = Math.asin(Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta));
  const lambda2 = lambda1 + Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * Math.sin(phi2));
  return { lat: deg(phi2), lon: deg(lambda2) };
}

export const distance = (a: LatLon, b: LatLon) => haversineMetres(a.lat, a.lon, b.lat, b.lon);

/** Sum of haversine distances between consecutive fixes: the track distance of CONTRACT §2. */
export function pathMetres(fixes: readonly PipelineFix[]): number {
  let total = 0;
  for (let i = 1; i < fixes.length; i++) total += haversineMetres(fixes[i - 1]!.latitude, fixes[i - 1]!.longitude, fixes[i]!.latitude, fixes[i]!.longitude);
  return total;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so jitter is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

let nextId = 1;

/** A valid fix with no vehicle readings; override what the test needs. Ids grow across the whole run. */
export function makeFix(overrides: Partial<PipelineFix> & { timeMs: number }): PipelineFix {
  return {
    id: nextId++,
    isValid: true,
    latitude: MOSCOW.lat,
    longitude: MOSCOW.lon,
    velocityKmh: 0,
    fuelLevel: null,
    ignition: null,
    externalPower: null,
    odometer: null,
    engineHours: null,
    sensors: null,
    ...overrides,
  };
}

export interface ParkOptions {
  /** Seconds between fixes. */
  every?: number;
  /** Each fix lies within this many metres of where the vehicle stands. */
  jitterM?: number;
  /** Reported speeds are drawn from [0, maxKmh]. */
  maxKmh?: number;
}

export interface DriveOptions {
  every?: number;
  /** The speed the tracker reports; defaults to the speed driven (a tracker without a speed sensor sends 0). */
  reportedKmh?: number;
}

/**
 * A vehicle's day, built segment by segment: `park`, `drive`, `silence`. Each segment's fixes come
 * `every` seconds after the previous fix. Extra fields (fuel, ignition...) can be added with `tag`.
 */
export class Route {
  readonly fixes: PipelineFix[] = [];
  /** Where the vehicle really is (fixes scatter around it while parked). */
  position: LatLon;
  timeMs: number;
  private readonly random: () => number;

  constructor(start: LatLon = MOSCOW, startMs: number = T0, seed = 1) {
    this.position = start;
    this.timeMs = startMs;
    this.random = seededRandom(seed);
  }

  get last(): PipelineFix {
    const fix = this.fixes.at(-1);
    if (!fix) throw new Error('the route has no fixes yet');
    return fix;
  }

  /**
   * Standing for `seconds` with GPS jitter. The first fix is exactly where the vehicle stopped (so
   * the distance to it is the distance driven); the rest scatter within `jitterM` of that point.
   */
  park(seconds: number, { every = 30, jitterM = 30, maxKmh = 3 }: ParkOptions = {}): this {
    const end = this.timeMs + seconds * SECOND;
    let first = true;
    while (this.timeMs + every * SECOND <= end) {
      this.timeMs += every * SECOND;
      const where = first ? this.position : move(this.position, this.random() * jitterM, this.random() * 360);
      const velocityKmh = first ? 0 : Math.round(this.random() * maxKmh * 10) / 10;
      this.push({ latitude: where.lat, longitude: where.lon, velocityKmh });
      first = false;
    }
    this.timeMs = end;
    return this;
  }

  /** Driving `metres` along `bearingDeg` at `kmh`, one fix every `every` seconds (a shorter last step ends exactly at the distance). */
  drive(metres: number, kmh: number, bearingDeg: number, { every = 10, reportedKmh = kmh }: DriveOptions = {}): this {
    const stepM = (kmh / 3.6) * every;
    let left = metres;
    while (left > 1e-9) {
      const m = Math.min(stepM, left);
      this.timeMs += (m / stepM) * every * SECOND;
      this.position = move(this.position, m, bearingDeg);
      this.push({ latitude: this.position.lat, longitude: this.position.lon, velocityKmh: reportedKmh });
      left -= m;
    }
    return this;
  }

  /** Nothing is sent for `seconds` (a tunnel, a dead tracker). */
  silence(seconds: number): this {
    this.timeMs += seconds * SECOND;
    return this;
  }

  /** Sets fields on the fixes added since index `from`. */
  tag(from: number, fields: Partial<PipelineFix>): this {
    for (let i = from; i < this.fixes.length; i++) Object.assign(this.fixes[i]!, fields);
    return this;
  }

  private push(fields: Partial<PipelineFix>): void {
    this.fixes.push(makeFix({ timeMs: Math.round(this.timeMs), ...fields }));
  }
}

export type SinkCall =
  | { kind: 'track'; record: TrackRecord }
  | { kind: 'dropTrack'; startMs: number }
  | { kind: 'event'; record: VehicleEventRecord }
  | { kind: 'bucket'; record: BucketRecord }
  | { kind: 'checkpoint'; checkpoint: Checkpoint };

export const eventKey = (e: Pick<VehicleEventRecord, 'type' | 'eventMs' | 'detail'>) => `${e.type}/${e.eventMs}/${e.detail}`;

/**
 * Keeps the latest record per key, as the store does: tracks by start, events by (type, time,
 * detail), buckets by their quarter hour. Every call is also logged (deep-copied, as a store writes
 * a snapshot) with `step`, the index of the fix being processed, which the test sets.
 */
export class RecordingSink implements PipelineOutput {
  readonly tracks = new Map<number, TrackRecord>();
  readonly events = new Map<string, VehicleEventRecord>();
  readonly buckets = new Map<number, BucketRecord>();
  readonly checkpoints: Checkpoint[] = [];
  readonly calls: (SinkCall & { step: number })[] = [];
  step = -1;

  track(record: TrackRecord): void {
    const copy = structuredClone(record);
    this.tracks.set(copy.startMs, copy);
    this.calls.push({ kind: 'track', record: copy, step: this.step });
  }

  dropTrack(startMs: number): void {
    this.tracks.delete(startMs);
    this.calls.push({ kind: 'dropTrack', startMs, step: this.step });
  }

  event(record: VehicleEventRecord): void {
    const copy = structuredClone(record);
    this.events.set(eventKey(copy), copy);
    this.calls.push({ kind: 'event', record: copy, step: this.step });
  }

  bucket(record: BucketRecord): void {
    const copy = structuredClone(record);
    this.buckets.set(copy.bucketMs, copy);
    this.calls.push({ kind: 'bucket', record: copy, step: this.step });
  }

  checkpoint(checkpoint: Checkpoint): void {
    this.checkpoints.push({ ...checkpoint });
    this.calls.push({ kind: 'checkpoint', checkpoint: { ...checkpoint }, step: this.step });
  }

  /** Zone visits by `zoneId:enteredMs`, the latest record of each. */
  readonly visits = new Map<string, ZoneVisitRecord>();

  zoneVisit(record: ZoneVisitRecord): void {
    this.visits.set(`${record.zoneId}:${record.enteredMs}`, structuredClone(record));
  }

  /** Tracks as the store lists them, oldest first. */
  trackList(): TrackRecord[] {
    return [...this.tracks.values()].sort((a, b) => a.startMs - b.startMs);
  }

  /** Events of the given types, oldest first. */
  eventList(...types: number[]): VehicleEventRecord[] {
    return [...this.events.values()].filter((e) => types.length === 0 || types.includes(e.type)).sort((a, b) => a.eventMs - b.eventMs || a.detail - b.detail);
  }
}

export function vehicleSettings(overrides: Partial<VehicleSettings> = {}): VehicleSettings {
  return { ...defaultVehicleSettings, sensorLimits: [], ...overrides };
}

export function pipelineSettings(vehicle: Partial<VehicleSettings> = {}): PipelineSettings {
  return { track: { ...defaultTrackSettings }, vehicle: vehicleSettings(vehicle) };
}
