import { EventType, type PipelineSink, type Point } from './pipeline-types.js';

export interface SpeedDetectorState {
  excursion: { start: Point; last: Point; maxKmh: number } | null;
}

/**
 * Speed exceeded (4) and prolonged speed exceeded (5) of CONTRACT §2: one event per excursion
 * above the limit, dated at its start, with the highest speed in it; type 5 once the excursion
 * has lasted `prolongedSeconds`. Both are reported as soon as they are known and again as the
 * highest speed grows (same event, updated).
 */
/** The vehicle's speed limit, how long above it is prolonged, and the gap in coverage that ends an excursion. */
export interface SpeedLimits {
  limitKmh: number;
  prolongedSeconds: number;
  gapMs: number;
}

export class SpeedDetector {
  private readonly limitKmh: number;
  private readonly prolongedSeconds: number;
  private readonly gapMs: number;

  constructor(
    readonly state: SpeedDetectorState,
    limits: SpeedLimits,
  ) {
    this.limitKmh = limits.limitKmh;
    this.prolongedSeconds = limits.prolongedSeconds;
    this.gapMs = limits.gapMs;
  }

  static initialState(): SpeedDetectorState {
    return { excursion: null };
  }

  step(point: Point, speedKmh: number, sink: PipelineSink): void {
    let excursion = this.state.excursion;
    // A gap in coverage ends an excursion: nothing is known of the speed in between.
    if (excursion && point.t - excursion.last.t > this.gapMs) excursion = null;
    if (speedKmh <= this.limitKmh) {
      this.state.excursion = null;
      return;
    }
    if (!excursion) {
      excursion = { start: point, last: point, maxKmh: speedKmh };
      this.report(EventType.speeding, excursion, sink);
    } else {
      const grew = speedKmh > excursion.maxKmh;
      const wasProlonged = this.prolonged(excursion);
      excursion.last = point;
      excursion.maxKmh = Math.max(excursion.maxKmh, speedKmh);
      if (grew) this.report(EventType.speeding, excursion, sink);
      if (this.prolonged(excursion) && (grew || !wasProlonged)) this.report(EventType.prolongedSpeeding, excursion, sink);
    }
    this.state.excursion = excursion;
  }

  private prolonged(excursion: { start: Point; last: Point }): boolean {
    return excursion.last.t - excursion.start.t >= this.prolongedSeconds * 1000;
  }

  private report(type: EventType, excursion: { start: Point; maxKmh: number }, sink: PipelineSink): void {
    sink.event({
      type,
      eventMs: excursion.start.t,
      detail: 0,
      latitude: excursion.start.lat,
      longitude: excursion.start.lon,
      value: excursion.maxKmh,
    });
  }
}
