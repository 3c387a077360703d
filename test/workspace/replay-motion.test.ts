// The replay's motion and its local date-times (web/src/pages/tracks/replay-motion.ts, zoned-time.ts):
// pure functions, checked against independent oracles without a browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { positionAt, travelled, type PathPoint } from '../../web/src/pages/tracks/replay-motion.js';
import { isLocalDateTime, localDateTime, zonedMs } from '../../web/src/pages/tracks/zoned-time.js';

/** A deterministic, irregular path: fixes 1 to 60 s apart, wandering. */
function path(seed: number, length: number): PathPoint[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const points: PathPoint[] = [];
  let t = Date.parse('2026-05-20T06:00:00Z');
  for (let i = 0; i < length; i++) {
    points.push({ timeMs: t, latitude: 55 + next(), longitude: 37 + next(), speedKmh: next() * 120 });
    t += 1000 + Math.floor(next() * 59_000);
  }
  return points;
}

describe('replay motion', () => {
  test('at a fix the marker is on it; between two it is on the straight line at the share of time gone', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const points = path(seed, 50);
      for (let i = 0; i < points.length - 1; i++) {
        const a = points[i]!;
        const b = points[i + 1]!;
        assert.deepEqual(positionAt(points, a.timeMs), { latitude: a.latitude, longitude: a.longitude, speedKmh: a.speedKmh, outside: false });
        const share = ((seed * 7 + i) % 10) / 10;
        const at = positionAt(points, a.timeMs + (b.timeMs - a.timeMs) * share)!;
        // The oracle: the pair taken directly, not found by the binary search; epoch milliseconds times a share lose a little precision.
        assert.ok(Math.abs(at.latitude - (a.latitude + (b.latitude - a.latitude) * share)) < 1e-7, 'within a centimetre');
        assert.ok(Math.abs(at.longitude - (a.longitude + (b.longitude - a.longitude) * share)) < 1e-7, 'within a centimetre');
        assert.equal(at.outside, false);
      }
    }
  });

  test('before the first fix and after the last the marker waits at that end; no fixes, no marker', () => {
    const points = path(3, 10);
    assert.deepEqual(positionAt(points, points[0]!.timeMs - 1), { ...pick(points[0]!), outside: true });
    assert.deepEqual(positionAt(points, points.at(-1)!.timeMs + 1), { ...pick(points.at(-1)!), outside: true });
    assert.equal(positionAt([], 0), null);
  });

  test('the travelled part is the fixes up to the moment, then the marker', () => {
    const points = path(5, 30);
    const moment = (points[10]!.timeMs + points[11]!.timeMs) / 2;
    const done = travelled(points, moment);
    assert.equal(done.length, 12);
    const here = positionAt(points, moment)!;
    assert.deepEqual(done.at(-1), [here.latitude, here.longitude]);
    assert.deepEqual(travelled(points, points[0]!.timeMs - 1), []);
  });
});

describe('replay periods in the account zone', () => {
  test('a wall-clock time and its instant go both ways, across zones and a clock change', () => {
    const cases: [string, string, string][] = [
      ['Europe/Moscow', '2026-05-20T08:30', '2026-05-20T05:30:00Z'],
      ['UTC', '2026-05-20T00:00', '2026-05-20T00:00:00Z'],
      ['Asia/Kolkata', '2026-01-01T00:15', '2025-12-31T18:45:00Z'],
      ['America/New_York', '2026-03-08T03:30', '2026-03-08T07:30:00Z'],
      ['America/New_York', '2026-11-01T00:30', '2026-11-01T04:30:00Z'],
    ];
    for (const [zone, local, utc] of cases) {
      assert.equal(new Date(zonedMs(local, zone)).toISOString(), utc.replace('Z', '.000Z'), `${local} in ${zone}`);
      assert.equal(localDateTime(Date.parse(utc), zone), local);
    }
  });

  test('only a real `YYYY-MM-DDTHH:mm` is a local date-time', () => {
    for (const good of ['2026-05-20T08:30', '2024-02-29T23:59']) assert.ok(isLocalDateTime(good), good);
    for (const bad of ['2026-05-20', '2026-02-30T10:00', '2026-05-20T24:00', '2026-05-20T08:60', '2026-05-20 08:30', undefined]) assert.ok(!isLocalDateTime(bad), String(bad));
  });
});

function pick(point: PathPoint) {
  return { latitude: point.latitude, longitude: point.longitude, speedKmh: point.speedKmh };
}
