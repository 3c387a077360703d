import { Type } from 'typebox';
import { at, derivedFrom, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, numberOr } from './rule-kind.js';

export interface SpeedRule {
  id: number;
  speedLimitKmh: number;
  minDurationSeconds: number;
}

export interface SpeedSignalState {
  /** The last fix above some rule's limit: every excursion under way was still on then. */
  lastMs: number;
  /** Per rule (by id) whose limit the vehicle is above: `[start of the excursion, 1 when it fired]`. */
  above: Record<string, [number, 0 | 1]>;
}

/** The rules by limit, lowest first, with their state keys. */
interface ByLimit {
  rules: SpeedRule[];
  keys: string[];
  known: Set<string>;
}
const byLimitOf = new WeakMap<readonly SpeedRule[], ByLimit>();

/**
 * Speed exceeded (6.3 type 1): per rule, one signal per excursion above the rule's `speedLimit`,
 * once it has lasted `minDurationSeconds` (at once when that is 0). The rule's limit, not the
 * vehicle's, decides; a gap in coverage ends an excursion, as for the vehicle events.
 * State: an entry per rule while the vehicle is above that rule's limit, none otherwise; a fix
 * below every limit with no excursion under way costs one comparison.
 */
export class SpeedSignal {
  private readonly byLimit: ByLimit;
  private active = 0;

  constructor(
    readonly state: SpeedSignalState,
    rules: readonly SpeedRule[],
    private readonly gapMs: number,
  ) {
    this.byLimit = derivedFrom(byLimitOf, rules, (all) => {
      const sorted = [...all].sort((a, b) => a.speedLimitKmh - b.speedLimitKmh);
      const keys = sorted.map((rule) => String(rule.id));
      return { rules: sorted, keys, known: new Set(keys) };
    });
    for (const key in state.above) {
      if (this.byLimit.known.has(key)) this.active++;
      else delete state.above[key];
    }
  }

  static initialState(): SpeedSignalState {
    return { lastMs: 0, above: {} };
  }

  step(fix: SignalFix, emit: Emit): void {
    const { above } = this.state;
    const { rules, keys } = this.byLimit;
    const speed = fix.velocityKmh;
    const afterGap = fix.timeMs - this.state.lastMs > this.gapMs;
    let i = 0;
    for (; i < rules.length && rules[i]!.speedLimitKmh < speed; i++) {
      const rule = rules[i]!;
      const key = keys[i]!;
      let excursion = above[key];
      if (!excursion || afterGap) {
        if (!excursion) this.active++;
        excursion = above[key] = [fix.timeMs, 0];
      }
      if (excursion[1] === 0 && fix.timeMs - excursion[0] >= rule.minDurationSeconds * 1000) {
        excursion[1] = 1;
        emit({ kind: 1, ruleId: rule.id, detail: '', ...at(fix), fields: {} });
      }
    }
    if (i > 0) this.state.lastMs = fix.timeMs;
    // At or below the remaining limits: their excursions, if any, are over.
    for (; this.active > 0 && i < rules.length; i++) {
      const key = keys[i]!;
      if (above[key]) {
        delete above[key];
        this.active--;
      }
    }
  }
}

/** Speed exceeded (6.3 type 1). */
export const speedSignal = defineSignalKind({
  kind: 1,
  summary: '1 speed',
  parameters: Type.Object(
    { speedLimit: Type.Number({ exclusiveMinimum: 0, maximum: 1000 }), minDurationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })) },
    { additionalProperties: false },
  ),
  bodyFields: [],
  rule: (id, p): SpeedRule => ({ id, speedLimitKmh: numberOr(p.speedLimit, Infinity), minDurationSeconds: numberOr(p.minDurationSeconds, 0) }),
  detector: {
    stateKey: 'speed',
    initialState: SpeedSignal.initialState,
    start(state: SpeedSignalState, rules, context) {
      const unit = new SpeedSignal(state, rules, context.track.gapSeconds * 1000);
      return (fix, _moment, emit) => unit.step(fix, emit);
    },
  },
  message: {
    headline: (_body, words, _locale, speed) => (speed ? words.speeding(speed) : words.speedingNoSpeed),
    speedInHeadline: true,
  },
  workspace: {
    label: 'rules.kind1',
    numbers: [
      { key: 'speedLimit', label: 'rules.speedLimit' },
      { key: 'minDurationSeconds', label: 'rules.minDuration', hint: 'rules.minDurationHint' },
    ],
  },
});
