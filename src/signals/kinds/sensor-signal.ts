import { Type, type TSchema } from 'typebox';
import { formatNumber } from '../../i18n/format.js';
import { at, derivedFrom, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, numberOr, SensorId } from './rule-kind.js';

/** The sensor signal's own fields of the body, in order. */
const BODY_FIELDS = ['sensorID', 'sensorValue'] as const;

export interface SensorRule {
  id: number;
  sensorID: number;
  min: number | null;
  max: number | null;
}

export interface SensorSignalState {
  /** Rules whose sensor is outside the rule's [min, max]. */
  outside: number[];
}

/** Per sensor: its rules, and the range inside every one of them (a reading there changes nothing while no rule is outside). */
interface BySensor {
  ids: Set<number>;
  sensors: Map<number, { rules: SensorRule[]; low: number; high: number }>;
}
const bySensorOf = new WeakMap<readonly SensorRule[], BySensor>();

/**
 * Sensor control (6.3 type 10): per rule, one signal per excursion of its sensor outside the
 * rule's [min, max] (a null bound is open; readings on a bound are inside), carrying `sensorID`
 * and the reading that left the range as `sensorValue`. A fix without the reading changes nothing.
 */
export class SensorSignal {
  private readonly bySensor: BySensor;

  constructor(
    readonly state: SensorSignalState,
    rules: readonly SensorRule[],
  ) {
    this.bySensor = derivedFrom(bySensorOf, rules, groupBySensor);
    state.outside = state.outside.filter((id) => this.bySensor.ids.has(id));
  }

  static initialState(): SensorSignalState {
    return { outside: [] };
  }

  step(fix: SignalFix, emit: Emit): void {
    if (!fix.sensors) return;
    for (const { sensorID, value } of fix.sensors) {
      const sensor = this.bySensor.sensors.get(sensorID);
      if (!sensor || (value >= sensor.low && value <= sensor.high && this.state.outside.length === 0)) continue;
      for (const rule of sensor.rules) this.check(rule, value, fix, emit);
    }
  }

  private check(rule: SensorRule, value: number, fix: SignalFix, emit: Emit): void {
    const outside = (rule.min !== null && value < rule.min) || (rule.max !== null && value > rule.max);
    const wasOutside = this.state.outside.includes(rule.id);
    if (outside && !wasOutside) {
      this.state.outside.push(rule.id);
      emit({ kind: 10, ruleId: rule.id, detail: '', ...at(fix), fields: { sensorID: rule.sensorID, sensorValue: value } satisfies Record<(typeof BODY_FIELDS)[number], unknown> });
    } else if (!outside && wasOutside) {
      this.state.outside = this.state.outside.filter((id) => id !== rule.id);
    }
  }
}

function groupBySensor(rules: readonly SensorRule[]): BySensor {
  const sensors: BySensor['sensors'] = new Map();
  for (const rule of rules) {
    const sensor = sensors.get(rule.sensorID) ?? { rules: [], low: -Infinity, high: Infinity };
    sensor.rules.push(rule);
    sensor.low = Math.max(sensor.low, rule.min ?? -Infinity);
    sensor.high = Math.min(sensor.high, rule.max ?? Infinity);
    sensors.set(rule.sensorID, sensor);
  }
  return { ids: new Set(rules.map((rule) => rule.id)), sensors };
}

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Bound = Type.Optional(nullable(Type.Number({ minimum: -1e12, maximum: 1e12 })));

/** Sensor control (6.3 type 10). */
export const sensorSignal = defineSignalKind({
  kind: 10,
  summary: '10 sensor control',
  parameters: Type.Object({ sensorID: SensorId, min: Bound, max: Bound }, { additionalProperties: false }),
  bodyFields: BODY_FIELDS,
  rule: (id, p): SensorRule => ({ id, sensorID: numberOr(p.sensorID, -1), min: numberOr(p.min, null), max: numberOr(p.max, null) }),
  detector: {
    stateKey: 'sensors',
    initialState: SensorSignal.initialState,
    start(state: SensorSignalState, rules) {
      const unit = new SensorSignal(state, rules);
      return (fix, _moment, emit) => unit.step(fix, emit);
    },
  },
  message: {
    headline: (body, words, locale) =>
      words.sensorOutOfRange(String(body.sensorID ?? ''), typeof body.sensorValue === 'number' ? formatNumber(locale, body.sensorValue, 3) : String(body.sensorValue ?? '')),
  },
  workspace: {
    label: 'rules.kind10',
    numbers: [
      { key: 'sensorID', label: 'rules.sensor', hint: 'rules.sensorHint' },
      { key: 'min', label: 'rules.min' },
      { key: 'max', label: 'rules.max', hint: 'rules.maxHint' },
    ],
    range: ['min', 'max'],
  },
});
