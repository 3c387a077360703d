import { signalKinds, type SignalKind, type StoredRule } from './event-rule-schema.js';

export interface SpeedRule {
  id: number;
  speedLimitKmh: number;
  minDurationSeconds: number;
}
export interface ZoneRule {
  id: number;
  zoneIDs: readonly number[];
  zoneGroupIDs: readonly number[];
  onEntry: boolean;
  onExit: boolean;
}
export interface StopRule {
  id: number;
  minStopMinutes: number;
}
export interface LoadingRule {
  id: number;
  sensorID: number;
}
export interface SensorRule {
  id: number;
  sensorID: number;
  min: number | null;
  max: number | null;
}
export interface ArrivalRule {
  id: number;
  minutesBefore: number;
}
export interface PlainRule {
  id: number;
}

/** One subscriber's rules of each signal kind, with their parameters (CONTRACT §4) typed. */
export interface SubscriberRules {
  speed: SpeedRule[];
  zones: ZoneRule[];
  stops: StopRule[];
  power: PlainRule[];
  loading: LoadingRule[];
  sensors: SensorRule[];
  tripEnd: PlainRule[];
  arrival: ArrivalRule[];
}

/**
 * What a unit derives from its rules (sets of ids, keys), worked out once per rules array: the
 * arrays live as long as the account's rules are unchanged, across batches and employees.
 */
export function derivedFrom<R extends object, V>(cache: WeakMap<R, V>, rules: R, make: (rules: R) => V): V {
  let value = cache.get(rules);
  if (value === undefined) {
    value = make(rules);
    cache.set(rules, value);
  }
  return value;
}

const numberOr = <T>(value: unknown, fallback: T): number | T => (typeof value === 'number' ? value : fallback);
const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

/**
 * The account's enabled signal rules, read once per batch. A rule applies to the employees it
 * names (all when it names none); its schedule is checked when a signal is about to be sent, not
 * here, so that what a rule watches (an excursion, a stop, zone membership) is followed across
 * the edges of its window and a signal is not sent late when the window opens.
 */
export class SignalRuleSet {
  private readonly byId = new Map<number, StoredRule>();
  private readonly forAll: StoredRule[] = [];
  private readonly named = new Map<number, StoredRule[]>();
  private readonly kinds = new Set<SignalKind>();
  /** What `forSubscriber` answered: the same arrays each time, so units can keep what they derive from them. */
  private readonly bySubscriber = new Map<number, SubscriberRules | null>();
  private everyone: SubscriberRules | null | undefined;

  constructor(rules: readonly StoredRule[]) {
    for (const rule of rules) {
      if (!(signalKinds as readonly unknown[]).includes(rule.kind)) continue;
      this.byId.set(rule.id, rule);
      this.kinds.add(rule.kind as SignalKind);
      if (rule.subscriberIDs.length === 0) this.forAll.push(rule);
      for (const id of rule.subscriberIDs) {
        const list = this.named.get(id);
        if (list) list.push(rule);
        else this.named.set(id, [rule]);
      }
    }
  }

  get size(): number {
    return this.byId.size;
  }

  has(kind: SignalKind): boolean {
    return this.kinds.has(kind);
  }

  rule(id: number): StoredRule {
    const rule = this.byId.get(id);
    if (!rule) throw new Error(`no signal rule ${id} in this batch`);
    return rule;
  }

  /** The rules that apply to this employee, by kind; null when none does. Employees no rule names share one answer. */
  forSubscriber(subscriberId: number): SubscriberRules | null {
    const own = this.named.get(subscriberId);
    if (!own) return this.everyone === undefined ? (this.everyone = typed(this.forAll)) : this.everyone;
    let rules = this.bySubscriber.get(subscriberId);
    if (rules === undefined) {
      rules = typed([...this.forAll, ...own].sort((a, b) => a.id - b.id));
      this.bySubscriber.set(subscriberId, rules);
    }
    return rules;
  }
}

/** The rules of each kind with their parameters typed. */
function typed(rules: readonly StoredRule[]): SubscriberRules | null {
  if (rules.length === 0) return null;
  const result: SubscriberRules = { speed: [], zones: [], stops: [], power: [], loading: [], sensors: [], tripEnd: [], arrival: [] };
  for (const rule of rules) {
    const p = rule.parameters;
    const id = rule.id;
    switch (rule.kind) {
      case 1:
        result.speed.push({ id, speedLimitKmh: numberOr(p.speedLimit, Infinity), minDurationSeconds: numberOr(p.minDurationSeconds, 0) });
        break;
      case 2:
        result.zones.push({ id, zoneIDs: ids(p.zoneIDs), zoneGroupIDs: ids(p.zoneGroupIDs), onEntry: p.on !== 'exit', onExit: p.on !== 'entry' });
        break;
      case 3:
        result.stops.push({ id, minStopMinutes: numberOr(p.minStopMinutes, Infinity) });
        break;
      case 7:
        result.power.push({ id });
        break;
      case 9:
        result.loading.push({ id, sensorID: numberOr(p.sensorID, -1) });
        break;
      case 10:
        result.sensors.push({ id, sensorID: numberOr(p.sensorID, -1), min: numberOr(p.min, null), max: numberOr(p.max, null) });
        break;
      case 11:
        result.tripEnd.push({ id });
        break;
      case 24:
        result.arrival.push({ id, minutesBefore: numberOr(p.minutesBefore, 0) });
        break;
    }
  }
  return result;
}
