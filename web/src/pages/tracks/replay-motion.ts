/** Where an employee is at a moment of the replay: pure, so tested without a browser. */

export interface PathPoint {
  timeMs: number;
  latitude: number;
  longitude: number;
  speedKmh: number;
}

export interface PlacedAt {
  latitude: number;
  longitude: number;
  speedKmh: number;
  /** Before the first fix or after the last: the marker waits at that end. */
  outside: boolean;
}

/**
 * The position at `timeMs`, interpolated in time between the fixes either side (a straight line
 * between them, at the pace the two times give). Before the first fix it is the first; after the
 * last, the last. `path` is oldest first.
 */
export function positionAt(path: readonly PathPoint[], timeMs: number): PlacedAt | null {
  const first = path[0];
  const last = path.at(-1);
  if (!first || !last) return null;
  if (timeMs <= first.timeMs) return { latitude: first.latitude, longitude: first.longitude, speedKmh: first.speedKmh, outside: timeMs < first.timeMs };
  if (timeMs >= last.timeMs) return { latitude: last.latitude, longitude: last.longitude, speedKmh: last.speedKmh, outside: timeMs > last.timeMs };
  // The last fix at or before the moment: a binary search, so a long day costs a few steps a frame.
  let low = 0;
  let high = path.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (path[middle]!.timeMs <= timeMs) low = middle;
    else high = middle;
  }
  const a = path[low]!;
  const b = path[high]!;
  const share = b.timeMs === a.timeMs ? 0 : (timeMs - a.timeMs) / (b.timeMs - a.timeMs);
  return {
    latitude: a.latitude + (b.latitude - a.latitude) * share,
    longitude: a.longitude + (b.longitude - a.longitude) * share,
    speedKmh: a.speedKmh + (b.speedKmh - a.speedKmh) * share,
    outside: false,
  };
}

/** The part of the path travelled by `timeMs`: the fixes up to it and the interpolated point. */
export function travelled(path: readonly PathPoint[], timeMs: number): [number, number][] {
  const done: [number, number][] = [];
  for (const point of path) {
    if (point.timeMs > timeMs) break;
    done.push([point.latitude, point.longitude]);
  }
  const here = positionAt(path, timeMs);
  if (here && !here.outside && done.length > 0) done.push([here.latitude, here.longitude]);
  return done;
}

/** Playback speeds, times real time. */
export const REPLAY_SPEEDS = [1, 2, 4, 8, 16, 32, 64, 128, 256] as const;
