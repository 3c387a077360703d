import type { SpeedRule } from '../signal-rules.js';
import { at, type Emit, type SignalFix } from '../signal-types.js';

/** Per rule (by id): the excursion above that rule's limit the vehicle is in, if any. */
export type SpeedSignalState = Record<string, { startMs: number; lastMs: number; fired: boolean }>;

/**
 * Speed exceeded (6.3 type 1): per rule, one signal per excursion above the rule's `speedLimit`,
 * once it has lasted `minDurationSeconds` (at once when that is 0). The rule's limit, not the
 * vehicle's, decides; a gap in coverage ends an excursion, as for the vehicle events.
 * State: an entry per rule while the vehicle is above that rule's limit, none otherwise.
 */
export class SpeedSignal {
  private readonly keys: string[];

  constructor(
    readonly state: SpeedSignalState,
    private readonly rules: readonly SpeedRule[],
    private readonly gapMs: number,
  ) {
    this.keys = rules.map((rule) => String(rule.id));
    for (const key of Object.keys(state)) if (!this.keys.includes(key)) delete state[key];
  }

  static initialState(): SpeedSignalState {
    return {};
  }

  step(fix: SignalFix, emit: Emit): void {
    const { state, rules, keys } = this;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      const key = keys[i]!;
      let excursion = state[key];
      if (fix.velocityKmh <= rule.speedLimitKmh) {
        if (excursion) delete state[key];
        continue;
      }
      if (!excursion || fix.timeMs - excursion.lastMs > this.gapMs) {
        excursion = { startMs: fix.timeMs, lastMs: fix.timeMs, fired: false };
        state[key] = excursion;
      }
      excursion.lastMs = fix.timeMs;
      if (!excursion.fired && fix.timeMs - excursion.startMs >= rule.minDurationSeconds * 1000) {
        excursion.fired = true;
        emit({ kind: 1, ruleId: rule.id, detail: '', ...at(fix), fields: {} });
      }
    }
  }
}
