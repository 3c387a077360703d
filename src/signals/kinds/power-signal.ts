import { Type } from 'typebox';
import { at, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, type PlainRule } from './rule-kind.js';

export interface PowerSignalState {
  /** The last `externalPower` reading; null before the first. */
  on: boolean | null;
}

/**
 * Power off (6.3 type 7): `externalPower` turns from true to false. Fixes without the reading
 * change nothing; a first reading of false is not a change (nothing known before it).
 */
export class PowerSignal {
  constructor(
    readonly state: PowerSignalState,
    private readonly rules: readonly PlainRule[],
  ) {}

  static initialState(): PowerSignalState {
    return { on: null };
  }

  step(fix: SignalFix, emit: Emit): void {
    if (fix.externalPower === null) return;
    const wasOn = this.state.on;
    this.state.on = fix.externalPower;
    if (wasOn !== true || fix.externalPower) return;
    for (const rule of this.rules) emit({ kind: 7, ruleId: rule.id, detail: '', ...at(fix), fields: {} });
  }
}

/** Power off (6.3 type 7). */
export const powerSignal = defineSignalKind({
  kind: 7,
  summary: '7 power off',
  parameters: Type.Object({}, { additionalProperties: false }),
  bodyFields: [],
  rule: (id): PlainRule => ({ id }),
  detector: {
    stateKey: 'power',
    initialState: PowerSignal.initialState,
    start(state: PowerSignalState, rules) {
      const unit = new PowerSignal(state, rules);
      return (fix, _moment, emit) => unit.step(fix, emit);
    },
  },
  message: { headline: (_body, words) => words.powerOff },
  workspace: { label: 'rules.kind7' },
});
