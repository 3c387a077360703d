import { Type } from 'typebox';
import type { TrackRecord } from '../../positioning/positioning.js';
import type { Emit, SignalFix } from '../signal-types.js';
import { defineSignalKind, type PlainRule } from './rule-kind.js';

export interface TripEndSignalState {
  /** `[time, speed]` of the fix where the open track's stop began: a track that ends there ends at it. */
  stopAt: [number, number] | null;
  /** `[time, speed]` of the fix before: a track that a silence ends, ends at its last fix. */
  previous: [number, number] | null;
}

/**
 * Trip end (6.3 type 11): a track ends (CONTRACT §2: the vehicle stood for the stop time, or sent
 * nothing for the gap time; tracks too short to count are dropped, not ended). Dated and placed at
 * the track's finish, with the speed reported there. The track builder tells when a track ends;
 * this unit only remembers the speed at the two fixes a finish can be.
 */
export class TripEndSignal {
  constructor(
    readonly state: TripEndSignalState,
    private readonly rules: readonly PlainRule[],
  ) {}

  static initialState(): TripEndSignalState {
    return { stopAt: null, previous: null };
  }

  /** `ended`: the track this fix ended, if any; `stopAtMs`: where the open track's stop began after this fix. */
  step(fix: SignalFix, ended: TrackRecord | null, stopAtMs: number | null, emit: Emit): void {
    const { state } = this;
    if (ended) {
      const finishMs = ended.finishMs;
      // Unknown only when the state began after the finish fix (a rule made during the stop).
      const velocityKmh = state.stopAt?.[0] === finishMs ? state.stopAt[1] : state.previous?.[0] === finishMs ? state.previous[1] : null;
      for (const rule of this.rules) {
        emit({ kind: 11, ruleId: rule.id, detail: '', atMs: finishMs, latitude: ended.finishLat, longitude: ended.finishLon, velocityKmh, fields: {} });
      }
    }
    if (stopAtMs === null) state.stopAt = null;
    else if (stopAtMs === fix.timeMs) state.stopAt = [fix.timeMs, fix.velocityKmh];
    state.previous = [fix.timeMs, fix.velocityKmh];
  }
}

/** Trip end (6.3 type 11). */
export const tripEndSignal = defineSignalKind({
  kind: 11,
  summary: '11 trip end',
  parameters: Type.Object({}, { additionalProperties: false }),
  bodyFields: [],
  rule: (id): PlainRule => ({ id }),
  detector: {
    stateKey: 'tripEnd',
    initialState: TripEndSignal.initialState,
    start(state: TripEndSignalState, rules) {
      const unit = new TripEndSignal(state, rules);
      return (fix, moment, emit) => unit.step(fix, moment.ended, moment.stopAtMs, emit);
    },
  },
  message: { headline: (_body, words) => words.tripEnded },
  workspace: { label: 'rules.kind11' },
});
