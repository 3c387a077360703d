import { Type } from 'typebox';
import { haversineMetres } from '../../geo/geo.js';
import { at, derivedFrom, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, numberOr } from './rule-kind.js';

export interface StopRule {
  id: number;
  minStopMinutes: number;
}

export interface StopSignalState {
  /** Where and since when the vehicle stands; null while it moves. */
  stop: { t: number; lat: number; lon: number } | null;
  /** Rules that fired for this stop. */
  fired: number[];
}

/** The rules by minimum, shortest first, and their ids. */
const byMinimumOf = new WeakMap<readonly StopRule[], { rules: StopRule[]; ids: Set<number> }>();

/**
 * Stops (6.3 type 3): per rule, one signal per stop once it has lasted the rule's
 * `minStopMinutes`. Standing is what ends a track (CONTRACT §2, the account's thresholds): speed
 * at most `moveSpeedKmh` and within `moveDistanceM` of the fix where the stop began, so GPS
 * jitter of a parked vehicle does not end its stop. A silence does not end a stop either: a fix
 * after it at the same place shows the vehicle stood all along (trackers report rarely when parked).
 */
export class StopSignal {
  private readonly rules: StopRule[];
  /** Until this instant no rule can fire for the current stop (NaN: to be worked out). */
  private dueMs = Number.NaN;

  private readonly moveSpeedKmh: number;
  private readonly moveDistanceM: number;

  constructor(
    readonly state: StopSignalState,
    rules: readonly StopRule[],
    /** The track thresholds: what counts as moving. */
    track: { moveSpeedKmh: number; moveDistanceM: number },
  ) {
    this.moveSpeedKmh = track.moveSpeedKmh;
    this.moveDistanceM = track.moveDistanceM;
    const byMinimum = derivedFrom(byMinimumOf, rules, (all) => ({
      rules: [...all].sort((a, b) => a.minStopMinutes - b.minStopMinutes),
      ids: new Set(all.map((rule) => rule.id)),
    }));
    this.rules = byMinimum.rules;
    state.fired = state.fired.filter((id) => byMinimum.ids.has(id));
  }

  static initialState(): StopSignalState {
    return { stop: null, fired: [] };
  }

  step(fix: SignalFix, emit: Emit): void {
    const { state } = this;
    if (fix.velocityKmh > this.moveSpeedKmh) {
      if (state.stop) this.restart(null);
      return;
    }
    const stop = state.stop;
    if (!stop || haversineMetres(stop.lat, stop.lon, fix.latitude, fix.longitude) > this.moveDistanceM) {
      this.restart({ t: fix.timeMs, lat: fix.latitude, lon: fix.longitude });
      return;
    }
    if (Number.isNaN(this.dueMs)) this.dueMs = this.nextDue(stop.t);
    if (fix.timeMs < this.dueMs) return;
    const stoodMs = fix.timeMs - stop.t;
    for (const rule of this.rules) {
      if (stoodMs < rule.minStopMinutes * 60_000) break;
      if (state.fired.includes(rule.id)) continue;
      state.fired.push(rule.id);
      emit({ kind: 3, ruleId: rule.id, detail: '', ...at(fix), fields: {} });
    }
    this.dueMs = this.nextDue(stop.t);
  }

  private restart(stop: StopSignalState['stop']): void {
    this.state.stop = stop;
    this.state.fired = [];
    this.dueMs = Number.NaN;
  }

  /** When the shortest rule that has not fired for this stop is due; Infinity when all have. */
  private nextDue(stopMs: number): number {
    for (const rule of this.rules) if (!this.state.fired.includes(rule.id)) return stopMs + rule.minStopMinutes * 60_000;
    return Infinity;
  }
}

/** Stops (6.3 type 3). */
export const stopSignal = defineSignalKind({
  kind: 3,
  summary: '3 stops',
  parameters: Type.Object({ minStopMinutes: Type.Integer({ minimum: 1, maximum: 10_080 }) }, { additionalProperties: false }),
  bodyFields: [],
  rule: (id, p): StopRule => ({ id, minStopMinutes: numberOr(p.minStopMinutes, Infinity) }),
  detector: {
    stateKey: 'stops',
    initialState: StopSignal.initialState,
    start(state: StopSignalState, rules, { track }) {
      const unit = new StopSignal(state, rules, track);
      return (fix, _moment, emit) => unit.step(fix, emit);
    },
  },
  message: { headline: (_body, words) => words.stop },
  workspace: { label: 'rules.kind3', numbers: [{ key: 'minStopMinutes', label: 'rules.minStop' }] },
});
