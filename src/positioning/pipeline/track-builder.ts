import { haversineMetres } from '../../geo/geo.js';
import type { PipelineFix, PipelineSink, Point, TrackRecord, TrackSettings } from './pipeline-types.js';

export interface TrackBuilderState {
  /** Where the subscriber last stood still: movement is measured from here. */
  anchor: Point | null;
  last: Point | null;
  /** Speed at `last` (a trip that starts there counts it). Absent in states written before it was kept. */
  lastKmh?: number;
  track: OpenTrack | null;
}

interface OpenTrack {
  start: Point;
  last: Point;
  distanceM: number;
  /** How much of `distanceM` has been released to the running track mileage. */
  countedM: number;
  /** Set once the track passed the minimums and was reported; a later drop must then be reported too. */
  reported: boolean;
  /** The subscriber has stood still since this fix; if that lasts `stopSeconds`, the track ends here. */
  stop: { at: Point; distanceM: number; engineS?: number; maxKmh?: number } | null;
  /** Engine seconds inside the track, and how much of them was released (as `distanceM`, `countedM`). */
  engineS?: number;
  countedEngineS?: number;
  /** The highest speed of the track's fixes. */
  maxKmh?: number;
}

/**
 * Track segmentation (CONTRACT §2): a track starts when the subscriber moves (speed above
 * `moveSpeedKmh` or farther than `moveDistanceM` from where it stood) and ends when it stands
 * still for `stopSeconds` or sends nothing for `gapSeconds`. Tracks under `minDistanceM` or
 * `minDurationSeconds` are dropped. A track in progress is reported when it first qualifies and
 * then when it ends.
 * Only valid fixes come here.
 */
export class TrackBuilder {
  /** The track the last `step` ended, if any (the trip-end signal's hook); a dropped track is not ended. */
  ended: TrackRecord | null = null;
  /**
   * Engine seconds inside tracks that the last `step` made certain, released exactly as distance is
   * (held back before a track qualifies and while it stands): the idling figure of the reports is
   * engine time minus this.
   */
  releasedEngineS = 0;

  constructor(
    readonly state: TrackBuilderState,
    private readonly settings: TrackSettings,
  ) {}

  static initialState(): TrackBuilderState {
    return { anchor: null, last: null, track: null };
  }

  /**
   * Track distance (m) that this fix makes certain; the caller adds it to the track mileage.
   * Distance is held back while it may still not count: before a track passes the minimums, and
   * while the vehicle stands (jitter that a confirmed stop leaves out of the track). It is released
   * at the next moving fix of a qualified track, or, up to the stop point, when the track ends. So
   * the running total never counts distance it must take back, and never goes down.
   */
  step(fix: PipelineFix, sink: PipelineSink, engineS = 0): number {
    const point: Point = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude };
    const { settings, state } = this;
    this.ended = null;
    this.releasedEngineS = 0;
    const last = state.last;
    const lastKmh = state.lastKmh ?? 0;
    state.last = point;
    state.lastKmh = fix.velocityKmh;
    let releasedM = 0;

    if (last && point.t - last.t > settings.gapSeconds * 1000 && state.track) {
      // Silence ends a track at its last moving fix; the next movement starts a new one.
      const { stop, last: lastInTrack } = state.track;
      releasedM += this.close(stop?.at ?? lastInTrack, stop ?? state.track, sink);
      state.anchor = stop?.at ?? lastInTrack;
    }
    if (!state.anchor) {
      state.anchor = point;
      return releasedM;
    }

    const track = state.track;
    if (!track) {
      const moved = fix.velocityKmh > settings.moveSpeedKmh || haversineMetres(state.anchor.lat, state.anchor.lon, point.lat, point.lon) > settings.moveDistanceM;
      if (!moved) return releasedM;
      // The trip starts from the last fix where it stood, when that fix is recent.
      const fromLast = last !== null && point.t - last.t <= settings.gapSeconds * 1000;
      const start = fromLast ? last : point;
      const distanceM = haversineMetres(start.lat, start.lon, point.lat, point.lon);
      const maxKmh = fromLast ? Math.max(lastKmh, fix.velocityKmh) : fix.velocityKmh;
      state.track = { start, last: point, distanceM, countedM: 0, reported: false, stop: null, engineS: fromLast ? engineS : 0, countedEngineS: 0, maxKmh };
      this.report(state.track, sink);
      return releasedM + this.release(state.track);
    }

    track.distanceM += haversineMetres(track.last.lat, track.last.lon, point.lat, point.lon);
    track.engineS = (track.engineS ?? 0) + engineS;
    track.maxKmh = Math.max(track.maxKmh ?? 0, fix.velocityKmh);
    track.last = point;
    const still =
      fix.velocityKmh <= settings.moveSpeedKmh &&
      (!track.stop || haversineMetres(track.stop.at.lat, track.stop.at.lon, point.lat, point.lon) <= settings.moveDistanceM);
    if (!still) {
      track.stop = null;
      this.report(track, sink);
      return releasedM + this.release(track);
    }
    if (!track.stop) {
      // Arriving where it stops is still part of the trip; what follows while standing is held back.
      track.stop = { at: point, distanceM: track.distanceM, engineS: track.engineS, maxKmh: track.maxKmh };
      this.report(track, sink);
      return releasedM + this.release(track);
    } else if (point.t - track.stop.at.t >= settings.stopSeconds * 1000) {
      const { at } = track.stop;
      releasedM += this.close(at, track.stop, sink);
      state.anchor = at;
      return releasedM;
    }
    this.report(track, sink);
    return releasedM;
  }

  /** At a moving fix of a track that passes the minimums: everything held back so far counts. */
  private release(track: OpenTrack): number {
    if (!this.qualifies(track.start, track.last, track.distanceM)) return 0;
    const releasedM = track.distanceM - track.countedM;
    track.countedM = track.distanceM;
    this.releasedEngineS += (track.engineS ?? 0) - (track.countedEngineS ?? 0);
    track.countedEngineS = track.engineS ?? 0;
    return releasedM;
  }

  /**
   * Reports a track once, when it first passes the minimums, so it gets its id; while it grows,
   * readers take its finish and distance from this state (see TrackService), which spares the
   * store a write per fix.
   */
  private report(track: OpenTrack, sink: PipelineSink): void {
    if (track.reported || !this.qualifies(track.start, track.last, track.distanceM)) return;
    track.reported = true;
    sink.track({
      startMs: track.start.t,
      finishMs: track.last.t,
      startLat: track.start.lat,
      startLon: track.start.lon,
      finishLat: track.last.lat,
      finishLon: track.last.lon,
      distanceM: track.distanceM,
      maxSpeedKmh: track.maxKmh ?? 0,
      isOpen: true,
    });
  }

  /**
   * Ends the open track at `finish`, with the totals `upTo` it (the stop's snapshot, or the track's
   * own); returns the part of its distance not yet counted (none for a dropped track).
   */
  private close(finish: Point, upTo: { distanceM: number; engineS?: number; maxKmh?: number }, sink: PipelineSink): number {
    const track = this.state.track;
    this.state.track = null;
    if (!track) return 0;
    const { distanceM } = upTo;
    if (this.qualifies(track.start, finish, distanceM)) {
      this.ended = {
        startMs: track.start.t,
        finishMs: finish.t,
        startLat: track.start.lat,
        startLon: track.start.lon,
        finishLat: finish.lat,
        finishLon: finish.lon,
        distanceM,
        maxSpeedKmh: upTo.maxKmh ?? 0,
        isOpen: false,
      };
      sink.track(this.ended);
      this.releasedEngineS += (upTo.engineS ?? 0) - (track.countedEngineS ?? 0);
      return distanceM - track.countedM;
    }
    if (track.reported) sink.dropTrack(track.start.t);
    return 0;
  }

  private qualifies(start: Point, finish: Point, distanceM: number): boolean {
    return distanceM >= this.settings.minDistanceM && finish.t - start.t >= this.settings.minDurationSeconds * 1000;
  }
}
