import { Type } from 'typebox';
import { at, derivedFrom, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, numberOr, SensorId } from './rule-kind.js';

export interface LoadingRule {
  id: number;
  sensorID: number;
}

/** The last reading of each sensor some rule watches, by sensor id. */
export type LoadingSignalState = Record<string, number>;

const sensorsOf = new WeakMap<readonly LoadingRule[], Set<number>>();

/**
 * Waste loading (6.3 type 9): the rule's sensor turns from 0 to non-zero. A fix without that
 * sensor's reading changes nothing; a first reading is not a change.
 * State: one number per watched sensor, shared by the rules watching it.
 */
export class LoadingSignal {
  private readonly watched: Set<number>;

  constructor(
    readonly state: LoadingSignalState,
    private readonly rules: readonly LoadingRule[],
  ) {
    this.watched = derivedFrom(sensorsOf, rules, (all) => new Set(all.map((rule) => rule.sensorID)));
    for (const key in state) if (!this.watched.has(Number(key))) delete state[key];
  }

  static initialState(): LoadingSignalState {
    return {};
  }

  step(fix: SignalFix, emit: Emit): void {
    if (!fix.sensors) return;
    for (const { sensorID, value } of fix.sensors) {
      if (!this.watched.has(sensorID)) continue;
      const previous = this.state[sensorID];
      this.state[sensorID] = value;
      if (previous !== 0 || value === 0) continue;
      for (const rule of this.rules) {
        if (rule.sensorID === sensorID) emit({ kind: 9, ruleId: rule.id, detail: '', ...at(fix), fields: {} });
      }
    }
  }
}

/** Waste loading (6.3 type 9). */
export const loadingSignal = defineSignalKind({
  kind: 9,
  summary: '9 waste loading',
  parameters: Type.Object({ sensorID: SensorId }, { additionalProperties: false }),
  bodyFields: [],
  rule: (id, p): LoadingRule => ({ id, sensorID: numberOr(p.sensorID, -1) }),
  detector: {
    stateKey: 'loading',
    initialState: LoadingSignal.initialState,
    start(state: LoadingSignalState, rules) {
      const unit = new LoadingSignal(state, rules);
      return (fix, _moment, emit) => unit.step(fix, emit);
    },
  },
  message: { headline: (_body, words) => words.loading },
  workspace: { label: 'rules.kind9', numbers: [{ key: 'sensorID', label: 'rules.sensor', hint: 'rules.sensorHint9' }] },
});
