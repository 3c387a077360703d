/**
 * A signal a detector unit found for one rule at one fix. Units decide what happened; whether it
 * is sent (live fix, the rule's schedule) is decided by the watcher that feeds them.
 */
export interface SignalFinding {
  /** The signal type of 6.3 (the kind's `kind`). */
  kind: number;
  ruleId: number;
  /** Tells apart one rule's signals at one fix: zone and entry/exit, task; '' when there is at most one. */
  detail: string;
  /** signalDate: the fix's time (the track's finish for trip end). */
  atMs: number;
  latitude: number;
  longitude: number;
  /** km/h; null only when not known (see TripEndSignal). */
  velocityKmh: number | null;
  /** The kind's own fields of the body (interface 6.3, CONTRACT §4), in body order. */
  fields: Record<string, unknown>;
}

export type Emit = (finding: SignalFinding) => void;

/** What the units read of a fix: valid fixes only, in time order. */
export interface SignalFix {
  timeMs: number;
  latitude: number;
  longitude: number;
  velocityKmh: number;
  externalPower: boolean | null;
  sensors: { sensorID: number; value: number }[] | null;
}

/** The finding's position and speed: those of the fix. */
export const at = (fix: SignalFix) => ({ atMs: fix.timeMs, latitude: fix.latitude, longitude: fix.longitude, velocityKmh: fix.velocityKmh });

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
