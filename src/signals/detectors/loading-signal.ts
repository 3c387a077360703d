import { derivedFrom, type LoadingRule } from '../signal-rules.js';
import { at, type Emit, type SignalFix } from '../signal-types.js';

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
