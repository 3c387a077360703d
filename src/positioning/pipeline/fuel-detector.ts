import { EventType, type PipelineSink, type Point } from './pipeline-types.js';

const MEDIAN_READINGS = 5;
const RISE_WINDOW_MS = 10 * 60_000;
/** A filling (drain) is over once the level has not gone further for this long. */
const SETTLE_MS = 2 * 60_000;

interface Sample extends Point {
  level: number;
}

export interface FuelDetectorState {
  raw: number[];
  /** Smoothed levels of the last ten minutes, in time order; of samples at one level only the latest. */
  window: Sample[];
  change: { type: 1 | 2; start: Sample; extreme: Sample } | null;
}

/**
 * Fuel filling (1) and drain (2) of CONTRACT §2: readings are smoothed by a median over the last 5,
 * then a rise (fall) of at least the threshold within 10 minutes starts an event; it ends when
 * the level settles, and is reported once, dated at its start, with the litres gained (lost).
 */
export class FuelDetector {
  constructor(
    readonly state: FuelDetectorState,
    private readonly fillThreshold: number,
    private readonly drainThreshold: number,
  ) {}

  static initialState(): FuelDetectorState {
    return { raw: [], window: [], change: null };
  }

  /** The smoothed level at this reading. */
  step(point: Point, reading: number, sink: PipelineSink): number {
    const { state } = this;
    state.raw.push(reading);
    if (state.raw.length > MEDIAN_READINGS) state.raw.shift();
    const sample: Sample = { ...point, level: median(state.raw) };
    // Until five readings exist the median cannot outvote a spike: detect nothing yet.
    if (state.raw.length < MEDIAN_READINGS) return sample.level;

    const change = state.change;
    if (change) {
      const further = change.type === EventType.fuelFilling ? sample.level > change.extreme.level : sample.level < change.extreme.level;
      if (further) change.extreme = sample;
      else if (sample.t - change.extreme.t >= SETTLE_MS) this.finish(sink);
    } else {
      this.detectStart(sample);
    }
    // An earlier sample at this level can no longer be the window's lowest or highest, nor where a
    // change began (latestNear takes the later one): it goes, so the state (written at every batch)
    // stays small while the level holds, as it does most of the time.
    const same = state.window.findIndex((s) => s.level === sample.level);
    if (same >= 0) state.window.splice(same, 1);
    state.window.push(sample);
    while (state.window.length > 0 && sample.t - state.window[0]!.t > RISE_WINDOW_MS) state.window.shift();
    return sample.level;
  }

  private detectStart(sample: Sample): void {
    const window = this.state.window;
    if (window.length === 0) return;
    // Loops, not Math.min(...window.map()): this runs for every fuel reading, over ten minutes of them.
    let lowest = Number.POSITIVE_INFINITY;
    let highest = Number.NEGATIVE_INFINITY;
    for (const s of window) {
      if (s.level < lowest) lowest = s.level;
      if (s.level > highest) highest = s.level;
    }
    if (sample.level - lowest >= this.fillThreshold) {
      this.state.change = { type: EventType.fuelFilling, start: latestNear(window, lowest, this.fillThreshold), extreme: sample };
    } else if (highest - sample.level >= this.drainThreshold) {
      this.state.change = { type: EventType.fuelDrain, start: latestNear(window, highest, this.drainThreshold), extreme: sample };
    }
  }

  private finish(sink: PipelineSink): void {
    const change = this.state.change!;
    this.state.change = null;
    sink.event({
      type: change.type,
      eventMs: change.start.t,
      detail: 0,
      latitude: change.start.lat,
      longitude: change.start.lon,
      value: round2(Math.abs(change.extreme.level - change.start.level)),
    });
    // The window restarts after the change, so its own levels do not start another.
    this.state.window = this.state.window.filter((s) => s.t >= change.extreme.t);
  }
}

/**
 * Where a change began: the latest sample still at the level it left (within the noise a median
 * leaves, at most a quarter of the threshold), not the lowest dip of a flat but noisy level,
 * which may be minutes earlier.
 */
function latestNear(window: Sample[], level: number, threshold: number): Sample {
  const margin = Math.min(1, threshold / 4);
  for (let i = window.length - 1; i >= 0; i--) {
    if (Math.abs(window[i]!.level - level) <= margin) return window[i]!;
  }
  return window[0]!;
}

/** Sorted copies of the last readings; one array reused (a copy and a sort call per reading were not free). */
const sorted: number[] = [];

function median(values: number[]): number {
  sorted.length = 0;
  for (const value of values) {
    let i = sorted.length;
    while (i > 0 && sorted[i - 1]! > value) {
      sorted[i] = sorted[i - 1]!;
      i--;
    }
    sorted[i] = value;
  }
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;
