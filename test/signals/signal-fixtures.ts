// Helpers for the signal detector units' tests: fixes, a collector of findings, rules.
import type { PipelineFix } from '../../src/positioning/pipeline/pipeline-types.js';
import type { SignalFinding } from '../../src/signals/signal-types.js';
import { makeFix, MINUTE, MOSCOW, move, SECOND, T0, type LatLon } from '../positioning/pipeline/fixtures.js';

export { makeFix, MINUTE, MOSCOW, move, SECOND, T0, type LatLon };

/** Collects what a unit emits. */
export function collector() {
  const found: SignalFinding[] = [];
  return { found, emit: (finding: SignalFinding) => found.push(structuredClone(finding)) };
}

/** A fix at `seconds` after T0, at `where`, with the given speed and readings. */
export function fixAt(seconds: number, overrides: Partial<PipelineFix> = {}, where: LatLon = MOSCOW): PipelineFix {
  return makeFix({ timeMs: T0 + seconds * SECOND, latitude: where.lat, longitude: where.lon, ...overrides });
}

/** Speeds, one fix every `every` seconds from T0, driving north at roughly that speed. */
export function speedSeries(speeds: number[], every = 10): PipelineFix[] {
  let where = MOSCOW;
  return speeds.map((velocityKmh, i) => {
    where = move(where, (velocityKmh / 3.6) * every, 0);
    return fixAt(i * every, { velocityKmh }, where);
  });
}
