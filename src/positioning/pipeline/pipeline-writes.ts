import type { FixMetrics, TrackRecord, VehicleEventRecord } from './pipeline-types.js';
import type { BucketRecord } from './statistics-accumulator.js';
import type { Checkpoint, PipelineOutput, SubscriberState } from './subscriber-pipeline.js';
import type { ZoneVisitRecord } from './zone-visit-detector.js';

/** Derived rows from `fromMs` on that a replay found no more: they are deleted. */
export interface ReplayWindow {
  fromMs: number;
  staleTrackStarts: number[];
  staleEventKeys: string[];
}

/** What one subscriber's run asks the store to write; later records with the same key win. */
export class SubscriberWrites implements PipelineOutput {
  readonly tracks = new Map<number, TrackRecord | 'drop'>();
  readonly events = new Map<string, VehicleEventRecord>();
  readonly buckets = new Map<number, BucketRecord>();
  readonly checkpoints = new Map<number, string>();
  /** Zone visits entered or left, by `zoneId:enteredMs`. */
  readonly visits = new Map<string, ZoneVisitRecord>();
  /**
   * `[locationID, metrics, valid as sent, filter reason or 0]` of fixes a replay went over: their
   * running totals, and whether the GPS filter sets them aside, as the replay found them.
   */
  readonly metrics: [number, FixMetrics | null, boolean, number][] = [];
  /** fixKey of the fixes the GPS filter set aside in a replay. */
  readonly setAside = new Set<string>();
  state: SubscriberState | null = null;
  replay: ReplayWindow | null = null;

  constructor(readonly subscriberId: number) {}

  track(record: TrackRecord): void {
    this.tracks.set(record.startMs, record);
  }
  dropTrack(startMs: number): void {
    this.tracks.set(startMs, 'drop');
  }
  event(record: VehicleEventRecord): void {
    this.events.set(eventKey(record), record);
  }
  bucket(record: BucketRecord): void {
    this.buckets.set(record.bucketMs, { ...record, before: { ...record.before }, end: { ...record.end } });
  }
  checkpoint(checkpoint: Checkpoint): void {
    this.checkpoints.set(checkpoint.atMs, checkpoint.state);
  }
  /** A visit entered and left in one run keeps what its entry said (name, place). */
  zoneVisit(record: ZoneVisitRecord): void {
    const key = `${record.zoneId}:${record.enteredMs}`;
    const entered = this.visits.get(key);
    this.visits.set(key, entered ? { ...entered, leftMs: record.leftMs } : record);
  }
}

export const eventKey = (e: { type: number; eventMs: number; detail: number }) => `${e.eventMs}:${e.type}:${e.detail}`;

/** A fix is the same fix sent again when its subscriber, time and position are the same. */
export const fixKey = (timeMs: number, latitude: number, longitude: number) => `${timeMs}:${latitude}:${longitude}`;
