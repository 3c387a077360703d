import type { SensorRule } from '../signal-rules.js';
import { at, type Emit, type SignalFix } from '../signal-types.js';

export interface SensorSignalState {
  /** Rules whose sensor is outside the rule's [min, max]. */
  outside: number[];
}

/**
 * Sensor control (6.3 type 10): per rule, one signal per excursion of its sensor outside the
 * rule's [min, max] (a null bound is open; readings on a bound are inside), carrying `sensorID`
 * and the reading that left the range as `sensorValue`. A fix without the reading changes nothing.
 */
export class SensorSignal {
  constructor(
    readonly state: SensorSignalState,
    private readonly rules: readonly SensorRule[],
  ) {
    const ids = new Set(rules.map((rule) => rule.id));
    state.outside = state.outside.filter((id) => ids.has(id));
  }

  static initialState(): SensorSignalState {
    return { outside: [] };
  }

  step(fix: SignalFix, emit: Emit): void {
    if (!fix.sensors) return;
    for (const rule of this.rules) {
      const reading = fix.sensors.find((s) => s.sensorID === rule.sensorID);
      if (!reading) continue;
      const value = reading.value;
      const outside = (rule.min !== null && value < rule.min) || (rule.max !== null && value > rule.max);
      const wasOutside = this.state.outside.includes(rule.id);
      if (outside && !wasOutside) {
        this.state.outside.push(rule.id);
        emit({ kind: 10, ruleId: rule.id, detail: '', ...at(fix), fields: { sensorID: rule.sensorID, sensorValue: value } });
      } else if (!outside && wasOutside) {
        this.state.outside = this.state.outside.filter((id) => id !== rule.id);
      }
    }
  }
}
