import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType } from '../../../src/positioning/pipeline/pipeline-types.js';
import { SensorDetector, type SensorLimit } from '../../../src/positioning/pipeline/sensor-detector.js';
import { MOSCOW, move, RecordingSink, T0 } from './fixtures.js';

type Readings = { sensorID: number; value: number }[];

/** One fix a minute, each at its own place, carrying the given readings. */
function runSensors(limits: SensorLimit[], fixes: Readings[]) {
  const sink = new RecordingSink();
  const detector = new SensorDetector(SensorDetector.initialState(), limits);
  const points = fixes.map((_, i) => {
    const where = move(MOSCOW, i * 50, 0);
    return { t: T0 + i * 60_000, lat: where.lat, lon: where.lon };
  });
  fixes.forEach((readings, i) => {
    sink.step = i;
    detector.step(points[i]!, readings, sink);
  });
  return { sink, points, events: sink.eventList(EventType.sensorViolation) };
}

/** Readings of one sensor, one per fix. */
const series = (sensorID: number, values: number[]): Readings[] => values.map((value) => [{ sensorID, value }]);

describe('sensor detector', () => {
  it('reports one event per excursion outside [min, max], with the reading that left the limits', () => {
    const { events, points, sink } = runSensors([{ sensorID: 1, min: 0, max: 30 }], series(1, [20, 30, 31, 35, 40, 29, 0, -2, -9, 5]));
    assert.deepEqual(events, [
      { type: EventType.sensorViolation, eventMs: points[2]!.t, detail: 1, latitude: points[2]!.lat, longitude: points[2]!.lon, value: 31 },
      { type: EventType.sensorViolation, eventMs: points[7]!.t, detail: 1, latitude: points[7]!.lat, longitude: points[7]!.lon, value: -2 },
    ]);
    assert.equal(sink.calls.length, 2, 'each reported once');
  });

  it('treats readings at the limits as inside', () => {
    const { events } = runSensors([{ sensorID: 1, min: -10, max: 10 }], series(1, [-10, 10, 0, 10, -10]));
    assert.deepEqual(events, []);
  });

  it('treats a null min or max as unbounded on that side', () => {
    const noMin = runSensors([{ sensorID: 1, min: null, max: 100 }], series(1, [-1e6, 50, 101, 50]));
    assert.deepEqual(
      noMin.events.map((e) => e.value),
      [101],
    );
    const noMax = runSensors([{ sensorID: 1, min: 10, max: null }], series(1, [1e6, 50, 9, 50]));
    assert.deepEqual(
      noMax.events.map((e) => e.value),
      [9],
    );
    const neither = runSensors([{ sensorID: 1, min: null, max: null }], series(1, [-1e6, 1e6]));
    assert.deepEqual(neither.events, []);
  });

  it('ignores sensors without limits', () => {
    const limits = [{ sensorID: 1, min: 0, max: 10 }];
    const { events } = runSensors(limits, series(7, [500, -500, 500]));
    assert.deepEqual(events, []);
    assert.deepEqual(runSensors([], series(1, [500])).events, [], 'nor reports anything when no sensor has limits');
  });

  it('tells several sensors apart by sensor id', () => {
    const limits = [
      { sensorID: 1, min: 0, max: 100 },
      { sensorID: 2, min: 10, max: 20 },
      { sensorID: 3, min: null, max: 5 },
    ];
    const fixes: Readings[] = [
      [
        { sensorID: 1, value: 50 },
        { sensorID: 2, value: 15 },
        { sensorID: 3, value: 1 },
      ],
      // 1 and 2 leave together: two events at one instant.
      [
        { sensorID: 1, value: 120 },
        { sensorID: 2, value: 25 },
        { sensorID: 3, value: 1 },
      ],
      // 1 comes back, 2 stays out (no new event), 3 leaves.
      [
        { sensorID: 1, value: 90 },
        { sensorID: 2, value: 30 },
        { sensorID: 3, value: 6 },
      ],
      // 1 leaves again: a new excursion of 1 only.
      [
        { sensorID: 1, value: -1 },
        { sensorID: 2, value: 21 },
        { sensorID: 3, value: 7 },
      ],
    ];
    const { events, points } = runSensors(limits, fixes);
    assert.deepEqual(
      events.map((e) => [e.eventMs, e.detail, e.value]),
      [
        [points[1]!.t, 1, 120],
        [points[1]!.t, 2, 25],
        [points[2]!.t, 3, 6],
        [points[3]!.t, 1, -1],
      ],
    );
  });
});
