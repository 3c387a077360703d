// The Tracks view's stops (web/src/pages/tracks/stops.ts): a stop begins and ends where the
// day's data does, never at midnight or at the end of the day when nothing was heard then.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findStops, type StopFix, type StopTrack } from '../../web/src/pages/tracks/stops.js';

const DAY_START = Date.parse('2026-05-20T00:00:00Z');
const DAY_END = Date.parse('2026-05-21T00:00:00Z');
const at = (time: string) => Date.parse(`2026-05-20T${time}:00Z`);

type Fix = StopFix & { locationID: number };

function fix(locationID: number, time: string, isValid = true): Fix {
  return { locationID, locationDate: new Date(at(time)).toISOString(), latitude: 55.75, longitude: 37.61, isValid };
}

function track(start: string, finish: string): StopTrack {
  return { startAddress: 'A', finishAddress: 'B', startLat: 55.7, startLon: 37.6, finishLat: 55.8, finishLon: 37.7, startMs: at(start), finishMs: at(finish) };
}

/** Newest first, as the locations route lists them. */
const newestFirst = (fixes: Fix[]) => [...fixes].sort((a, b) => b.locationID - a.locationID);
const spans = (stops: { fromMs: number; toMs: number }[]) => stops.map((s) => [new Date(s.fromMs).toISOString().slice(11, 16), new Date(s.toMs).toISOString().slice(11, 16)]);

describe('stops in the Tracks view', () => {
  test('a vehicle first heard at 22:13 has no stop from midnight, and its last stop ends at its last fix', () => {
    const fixes = newestFirst([fix(1, '22:13'), fix(2, '22:16'), fix(3, '22:40'), fix(4, '23:05')]);
    const stops = findStops([track('22:16', '22:40')], fixes, DAY_START, DAY_END);
    assert.deepEqual(spans(stops), [['22:13', '22:16'], ['22:40', '23:05']]);
  });

  test('a day without a track is one stop from its first valid fix to its last; invalid fixes do not stretch it', () => {
    const fixes = newestFirst([fix(1, '01:00', false), fix(2, '08:00'), fix(3, '12:30'), fix(4, '23:50', false)]);
    assert.deepEqual(spans(findStops([], fixes, DAY_START, DAY_END)), [['08:00', '12:30']]);
  });

  test('no valid fix, no stop', () => {
    assert.deepEqual(findStops([], newestFirst([fix(1, '10:00', false)]), DAY_START, DAY_END), []);
  });

  test('today: the last stop ends at the last fix, not at now', () => {
    const fixes = newestFirst([fix(1, '06:00'), fix(2, '07:00'), fix(3, '09:00')]);
    const now = at('15:00');
    assert.deepEqual(spans(findStops([track('06:30', '07:00')], fixes, DAY_START, now)), [['06:00', '06:30'], ['07:00', '09:00']]);
  });
});
