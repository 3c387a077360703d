import { haversineMetres } from '../geo.js';
import type { PipelineFix, PipelineSink, Point, TrackSettings } from './pipeline-types.js';

export interface TrackBuilderState {
  /** Where the subscriber last stood still: movement is measured from here. */
  anchor: Point | null;
  last: Point | null;
  track: OpenTrack | null;
}

interface OpenTrack {
  start: Point;
  last: Point;
  distanceM: number;
  /** Set once the track passed the minimums and was reported; a later drop must then be reported too. */
  reported: boolean;
  /** The subscriber has stood still since this fix; if that lasts `stopSeconds`, the track ends here. */
  stop: { at: Point; distanceM: number } | null;
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
  constructor(
    readonly state: TrackBuilderState,
    private readonly settings: TrackSettings,
  ) {}

  static initialState(): TrackBuilderState {
    return { anchor: null, last: null, track: null };
  }

  /** Distance (m) this fix added to a track; the caller counts it into the track mileage. */
  step(fix: PipelineFix, sink: PipelineSink): number {
    const point: Point = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude };
    const { settings, state } = this;
    const last = state.last;
    state.last = point;
    let takenBackM = 0;

    if (last && point.t - last.t > settings.gapSeconds * 1000 && state.track) {
      // Silence ends a track at its last moving fix; the next movement starts a new one.
      const { stop, last: lastInTrack, distanceM } = state.track;
      if (stop) takenBackM = distanceM - stop.distanceM;
      takenBackM += this.close(stop?.at ?? lastInTrack, stop?.distanceM ?? distanceM, sink);
      state.anchor = stop?.at ?? lastInTrack;
    }
    if (!state.anchor) {
      state.anchor = point;
      return 0;
    }

    const track = state.track;
    if (!track) {
      const moved = fix.velocityKmh > settings.moveSpeedKmh || haversineMetres(state.anchor.lat, state.anchor.lon, point.lat, point.lon) > settings.moveDistanceM;
      if (!moved) return -takenBackM;
      // The trip starts from the last fix where it stood, when that fix is recent.
      const start = last && point.t - last.t <= settings.gapSeconds * 1000 ? last : point;
      const distanceM = haversineMetres(start.lat, start.lon, point.lat, point.lon);
      state.track = { start, last: point, distanceM, reported: false, stop: null };
      this.report(state.track, sink);
      return distanceM - takenBackM;
    }

    const stepM = haversineMetres(track.last.lat, track.last.lon, point.lat, point.lon);
    track.distanceM += stepM;
    track.last = point;
    const still =
      fix.velocityKmh <= settings.moveSpeedKmh &&
      (!track.stop || haversineMetres(track.stop.at.lat, track.stop.at.lon, point.lat, point.lon) <= settings.moveDistanceM);
    if (!still) {
      track.stop = null;
    } else if (!track.stop) {
      track.stop = { at: point, distanceM: track.distanceM };
    } else if (point.t - track.stop.at.t >= settings.stopSeconds * 1000) {
      const { at, distanceM } = track.stop;
      const droppedM = this.close(at, distanceM, sink);
      state.anchor = at;
      // What it added while standing is jitter, not trip: take it back out of the mileage.
      return stepM - (track.distanceM - distanceM) - droppedM;
    }
    this.report(track, sink);
    return stepM;
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
      isOpen: true,
    });
  }

  /** Ends the open track; returns the distance taken out of the mileage when the track is dropped. */
  private close(finish: Point, distanceM: number, sink: PipelineSink): number {
    const track = this.state.track;
    this.state.track = null;
    if (!track) return 0;
    if (this.qualifies(track.start, finish, distanceM)) {
      sink.track({
        startMs: track.start.t,
        finishMs: finish.t,
        startLat: track.start.lat,
        startLon: track.start.lon,
        finishLat: finish.lat,
        finishLon: finish.lon,
        distanceM,
        isOpen: false,
      });
      return 0;
    }
    if (track.reported) sink.dropTrack(track.start.t);
    return distanceM;
  }

  private qualifies(start: Point, finish: Point, distanceM: number): boolean {
    return distanceM >= this.settings.minDistanceM && finish.t - start.t >= this.settings.minDurationSeconds * 1000;
  }
}
