import { haversineMetres } from '../../positioning/geo.js';
import type { StopRule } from '../signal-rules.js';
import { at, type Emit, type SignalFix } from '../signal-types.js';

export interface StopSignalState {
  /** Where and since when the vehicle stands; null while it moves. */
  stop: { t: number; lat: number; lon: number } | null;
  /** Rules that fired for this stop. */
  fired: number[];
}

/**
 * Stops (6.3 type 3): per rule, one signal per stop once it has lasted the rule's
 * `minStopMinutes`. Standing is what ends a track (CONTRACT §2, the account's thresholds): speed
 * at most `moveSpeedKmh` and within `moveDistanceM` of the fix where the stop began, so GPS
 * jitter of a parked vehicle does not end its stop. A silence does not end a stop either: a fix
 * after it at the same place shows the vehicle stood all along (trackers report rarely when parked).
 */
export class StopSignal {
  constructor(
    readonly state: StopSignalState,
    private readonly rules: readonly StopRule[],
    private readonly moveSpeedKmh: number,
    private readonly moveDistanceM: number,
  ) {
    const ids = new Set(rules.map((rule) => rule.id));
    state.fired = state.fired.filter((id) => ids.has(id));
  }

  static initialState(): StopSignalState {
    return { stop: null, fired: [] };
  }

  step(fix: SignalFix, emit: Emit): void {
    const { state } = this;
    if (fix.velocityKmh > this.moveSpeedKmh) {
      state.stop = null;
      state.fired = [];
      return;
    }
    const stop = state.stop;
    if (!stop || haversineMetres(stop.lat, stop.lon, fix.latitude, fix.longitude) > this.moveDistanceM) {
      state.stop = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude };
      state.fired = [];
      return;
    }
    const stoodMs = fix.timeMs - stop.t;
    for (const rule of this.rules) {
      if (stoodMs < rule.minStopMinutes * 60_000 || state.fired.includes(rule.id)) continue;
      state.fired.push(rule.id);
      emit({ kind: 3, ruleId: rule.id, detail: '', ...at(fix), fields: {} });
    }
  }
}
