import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType, type Point } from '../../../src/positioning/pipeline/pipeline-types.js';
import { SpeedDetector } from '../../../src/positioning/pipeline/speed-detector.js';
import { eventKey, MOSCOW, move, RecordingSink, T0 } from './fixtures.js';

const LIMIT = 90;
const PROLONGED_S = 60;
const GAP_MS = 600_000;

interface Sample {
  point: Point;
  kmh: number;
}

/** Speeds at the given seconds after T0, each at its own place along a road heading east. */
function samples(...pairs: [seconds: number, kmh: number][]): Sample[] {
  return pairs.map(([seconds, kmh]) => {
    const where = move(MOSCOW, seconds * 25, 90);
    return { point: { t: T0 + seconds * 1000, lat: where.lat, lon: where.lon }, kmh };
  });
}

/** One fix every `every` seconds from `fromS`, at the given speeds. */
function every(everyS: number, fromS: number, speeds: number[]): [number, number][] {
  return speeds.map((kmh, i) => [fromS + i * everyS, kmh]);
}

function runSpeed(input: readonly Sample[], limit = LIMIT, prolongedS = PROLONGED_S) {
  const sink = new RecordingSink();
  const detector = new SpeedDetector(SpeedDetector.initialState(), { limitKmh: limit, prolongedSeconds: prolongedS, gapMs: GAP_MS });
  input.forEach((s, i) => {
    sink.step = i;
    detector.step(s.point, s.kmh, sink);
  });
  const reports = (type: number) => sink.calls.flatMap((c) => (c.kind === 'event' && c.record.type === type ? [{ ...c.record, step: c.step }] : []));
  return { sink, speeding: sink.eventList(EventType.speeding), prolonged: sink.eventList(EventType.prolongedSpeeding), reports };
}

describe('speed detector', () => {
  it('makes no event at or below the limit', () => {
    const { sink } = runSpeed(samples(...every(10, 0, [60, 80, 90, 90, 89.9, 90, 70])));
    assert.deepEqual(sink.calls, []);
  });

  it('reports one speeding event per excursion, at its start, with the highest speed (updated as it grows)', () => {
    const input = samples(...every(10, 0, [80, 95, 100, 110, 105, 108, 85, 70]));
    const { speeding, reports, prolonged } = runSpeed(input);
    assert.equal(speeding.length, 1);
    const [event] = speeding;
    assert.equal(event!.eventMs, input[1]!.point.t, 'dated at the first fix above the limit');
    assert.deepEqual([event!.latitude, event!.longitude], [input[1]!.point.lat, input[1]!.point.lon]);
    assert.equal(event!.value, 110);
    assert.equal(event!.detail, 0);

    const r = reports(EventType.speeding);
    assert.equal(r[0]!.step, 1, 'reported as soon as the limit is exceeded');
    assert.equal(r[0]!.value, 95);
    assert.ok(
      r.every((e) => eventKey(e) === eventKey(event!)),
      'every update has the same key',
    );
    assert.deepEqual(
      r.map((e) => e.value),
      [...r.map((e) => e.value)].sort((a, b) => a - b),
      'the value only grows',
    );
    assert.equal(r.find((e) => e.value === 110)!.step, 3, 'updated when the speed grows');
    assert.deepEqual(prolonged, [], '50 s above the limit is not prolonged');
  });

  it('reports prolonged speeding once the excursion has lasted the prolonged time, not before', () => {
    const input = samples(...every(10, 0, [80, 95, 96, 97, 96, 95, 94, 93, 120, 93, 80]));
    const { prolonged, reports } = runSpeed(input);
    // Above the limit from 10 s; 60 s later is the fix at 70 s (index 7).
    const r = reports(EventType.prolongedSpeeding);
    assert.equal(r[0]!.step, 7, 'first reported at the fix 60 s after the start');
    assert.equal(r[0]!.value, 97, 'with the highest speed so far');
    assert.equal(prolonged.length, 1);
    assert.equal(prolonged[0]!.eventMs, input[1]!.point.t, 'dated at the start of the excursion');
    assert.equal(prolonged[0]!.value, 120, 'updated as the highest speed grows');
    assert.ok(r.every((e) => eventKey(e) === eventKey(prolonged[0]!)));
  });

  it('counts the prolonged time from the settings', () => {
    const input = samples(...every(10, 0, [95, 95, 95, 95, 80]));
    assert.equal(runSpeed(input, LIMIT, 30).prolonged.length, 1, '30 s lasted');
    assert.equal(runSpeed(input, LIMIT, 31).prolonged.length, 0, '31 s not reached');
    assert.equal(runSpeed(input, 95, 30).speeding.length, 0, 'at a limit of 95, 95 is not above it');
  });

  it('ends an excursion at a fix at the limit: two excursions give two events', () => {
    const input = samples(...every(10, 0, [100, 105, 90, 101, 99, 50]));
    const { speeding } = runSpeed(input);
    assert.deepEqual(
      speeding.map((e) => [e.eventMs, e.value]),
      [
        [input[0]!.point.t, 105],
        [input[3]!.point.t, 101],
      ],
    );
  });

  it('ends an excursion at a gap in the fixes', () => {
    // 40 s above the limit, 11 minutes of silence, 40 s above again: two short excursions, not one long one.
    const input = samples(...every(10, 0, [100, 100, 100, 100, 100]), ...every(10, 700, [100, 100, 100, 100, 100]));
    const { speeding, prolonged } = runSpeed(input);
    assert.deepEqual(
      speeding.map((e) => e.eventMs),
      [input[0]!.point.t, input[5]!.point.t],
    );
    assert.deepEqual(prolonged, [], 'the silence does not count as time above the limit');
  });

  it('keeps one excursion across a pause in fixes shorter than the gap', () => {
    const input = samples([0, 100], [300, 100], [301, 80]);
    const { speeding, prolonged } = runSpeed(input);
    assert.equal(speeding.length, 1);
    assert.equal(prolonged.length, 1, '300 s between two fixes above the limit');
  });
});
