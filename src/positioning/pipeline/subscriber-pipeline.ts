import { haversineMetres } from '../../geo/geo.js';
import type { ZoneIndex } from '../../geozones/geozones.js';
import { defaultGpsFilterSettings, judgeFix, type FilterReason, type FilterSuspect } from './fix-filter.js';
import { FuelDetector, type FuelDetectorState } from './fuel-detector.js';
import type { DetectorState, FixSignals } from './pipeline-signals.js';
import type { FixMetrics, PipelineFix, PipelineSettings, PipelineSink } from './pipeline-types.js';
import { SensorDetector, type SensorDetectorState } from './sensor-detector.js';
import { SpeedDetector, type SpeedDetectorState } from './speed-detector.js';
import { StatisticsAccumulator, type BucketRecord, type StatisticsState } from './statistics-accumulator.js';
import { TrackBuilder, type TrackBuilderState } from './track-builder.js';
import { FixZones, ZoneVisitDetector, type ZoneVisitRecord, type ZoneVisitState } from './zone-visit-detector.js';

const HOUR_MS = 3_600_000;

/** Everything the pipeline remembers about one subscriber between fixes; persisted as JSON. */
export interface SubscriberState {
  /** Time of the latest processed fix: a fix dated before it is late. */
  lastFixMs: number | null;
  lastValid: { t: number; lat: number; lon: number; ignition: boolean | null; engineHours: number | null } | null;
  metrics: FixMetrics;
  track: TrackBuilderState;
  fuel: FuelDetectorState;
  speed: SpeedDetectorState;
  sensors: SensorDetectorState;
  statistics: StatisticsState;
  /** The signal detectors' state, while the account has signal rules for this subscriber. */
  signals?: DetectorState;
  /** Zone visits in progress (absent in states written before visits were kept, and while none is). */
  visits?: ZoneVisitState;
  /** Fixes set aside for speed that agree with each other, while there are any (see fix-filter.ts). */
  filterSuspect?: FilterSuspect;
}

export function initialState(): SubscriberState {
  return {
    lastFixMs: null,
    lastValid: null,
    metrics: { cumDistanceM: 0, cumTrackM: 0, cumEngineS: 0, cumTrackEngineS: 0, fuelSmoothed: null, odoAnchorKm: null, odoAnchorCumM: 0, odoAnchorTrackM: 0 },
    track: TrackBuilder.initialState(),
    fuel: FuelDetector.initialState(),
    speed: SpeedDetector.initialState(),
    sensors: SensorDetector.initialState(),
    statistics: StatisticsAccumulator.initialState(),
  };
}

export interface Checkpoint {
  atMs: number;
  state: string;
}

/** What one run produced, beyond the per-fix metrics it returns. */
export interface PipelineOutput extends PipelineSink {
  bucket(record: BucketRecord): void;
  checkpoint(checkpoint: Checkpoint): void;
  zoneVisit(record: ZoneVisitRecord): void;
}

/**
 * Runs one subscriber's fixes, in (time, id) order, through every detector. The detectors are
 * small units fed one fix at a time; this class only keeps the running totals and hands each
 * detector what it needs. A checkpoint of the state is taken at every hour boundary so a late
 * fix can be replayed from the hour it belongs to.
 */
export class SubscriberPipeline {
  private readonly tracks: TrackBuilder;
  private readonly fuel: FuelDetector;
  private readonly speed: SpeedDetector;
  private readonly sensors: SensorDetector;
  private readonly statistics: StatisticsAccumulator;
  /** Why the last fix processed was set aside by the GPS filter; 0 when it was not. */
  rejected: FilterReason | 0 = 0;

  private readonly signals: FixSignals | null;
  private readonly zones: ZoneIndex | null;

  constructor(
    readonly state: SubscriberState,
    private readonly settings: PipelineSettings,
    around: {
      /** What the subscriber's fixes fire; none: nothing. */
      signals?: FixSignals | null;
      /** The account's enabled zones as of the batch: zone visits, and the zone signals' membership. */
      zones?: ZoneIndex | null;
    } = {},
  ) {
    this.signals = around.signals ?? null;
    this.zones = around.zones ?? null;
    const { vehicle, track } = settings;
    this.tracks = new TrackBuilder(state.track, track);
    this.fuel = new FuelDetector(state.fuel, vehicle.fuelFillThreshold, vehicle.fuelDrainThreshold);
    this.speed = new SpeedDetector(state.speed, { limitKmh: vehicle.speedLimit, prolongedSeconds: vehicle.prolongedSpeedSeconds, gapMs: track.gapSeconds * 1000 });
    this.sensors = new SensorDetector(state.sensors, vehicle.sensorLimits);
    this.statistics = new StatisticsAccumulator(state.statistics);
  }

  /**
   * Metrics of the fix after it was processed; null for invalid fixes, and for fixes the GPS filter
   * sets aside (`rejected` says why), which take no part (CONTRACT §2).
   * `live`: the fix may fire signals (the runner decides; a replayed fix never does).
   */
  process(fix: PipelineFix, out: PipelineOutput, live = false): FixMetrics | null {
    const { state } = this;
    if (state.lastFixMs === null || Math.floor(fix.timeMs / HOUR_MS) > Math.floor(state.lastFixMs / HOUR_MS)) {
      // The state before this fix holds for every instant since the hour after the last fix: label
      // it with that hour, so a late fix in a silent hour replays from there, not from an hour before.
      const atMs = state.lastFixMs === null ? Math.floor(fix.timeMs / HOUR_MS) * HOUR_MS : (Math.floor(state.lastFixMs / HOUR_MS) + 1) * HOUR_MS;
      out.checkpoint({ atMs, state: JSON.stringify(state) });
    }
    state.lastFixMs = fix.timeMs;
    this.rejected = 0;
    if (!fix.isValid) return null;
    this.rejected = judgeFix(fix, state.lastValid, state, this.settings.filter ?? defaultGpsFilterSettings);
    if (this.rejected !== 0) return null;
    // With the duplicate rule off, a second fix at the same instant stays valid but adds nothing.
    if (state.lastValid?.t === fix.timeMs) return { ...state.metrics };

    const point = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude };
    const metrics = state.metrics;
    this.statistics.enter(fix.timeMs, metrics, out);
    const previous = state.lastValid;
    const engineS = previous ? this.engineSeconds(previous, fix) : 0;
    if (previous) {
      metrics.cumDistanceM += haversineMetres(previous.lat, previous.lon, fix.latitude, fix.longitude);
      metrics.cumEngineS += engineS;
    }
    metrics.cumTrackM += this.tracks.step(fix, out, engineS);
    metrics.cumTrackEngineS = (metrics.cumTrackEngineS ?? 0) + this.tracks.releasedEngineS;
    if (fix.fuelLevel !== null) metrics.fuelSmoothed = this.fuel.step(point, fix.fuelLevel, out);
    if (fix.odometer !== null) {
      metrics.odoAnchorKm = fix.odometer;
      metrics.odoAnchorCumM = metrics.cumDistanceM;
      metrics.odoAnchorTrackM = metrics.cumTrackM;
    }
    this.speed.step(point, fix.velocityKmh, out);
    if (fix.sensors) this.sensors.step(point, fix.sensors, out);
    this.statistics.add(fix.timeMs, metrics);
    const zones = this.zonesAt(fix);
    if (zones) new ZoneVisitDetector((state.visits ??= ZoneVisitDetector.initialState())).step(point, zones, out);
    if (state.visits?.inside.length === 0) delete state.visits;
    this.signals?.step(fix, live, this.tracks.ended, state.track.track?.stop?.at.t ?? null, zones);
    state.lastValid = { ...point, ignition: fix.ignition, engineHours: fix.engineHours };
    return { ...metrics };
  }

  /** The zones containing the fix: asked of the index only when the account has zones or a visit is in progress. */
  private zonesAt(fix: PipelineFix): FixZones | null {
    const index = this.zones;
    if (!index || (index.size === 0 && !this.state.visits)) return null;
    return FixZones.at(index, fix.latitude, fix.longitude);
  }

  /** Engine time between two fixes: the tracker's engine-hour counter when both carry it, else time with ignition on. */
  private engineSeconds(previous: NonNullable<SubscriberState['lastValid']>, fix: PipelineFix): number {
    const elapsedS = (fix.timeMs - previous.t) / 1000;
    if (previous.engineHours !== null && fix.engineHours !== null && fix.engineHours >= previous.engineHours) {
      return Math.min((fix.engineHours - previous.engineHours) * 3600, elapsedS);
    }
    // After a gap we do not know how long the engine ran: count at most the gap threshold.
    return previous.ignition ? Math.min(elapsedS, this.settings.track.gapSeconds) : 0;
  }
}
