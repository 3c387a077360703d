import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SensorSignal, type SensorRule } from '../../src/signals/kinds/sensor-signal.js';
import { collector, fixAt } from './signal-fixtures.js';

type Readings = { sensorID: number; value: number }[] | null;

function run(rules: SensorRule[], readings: Readings[]) {
  const { found, emit } = collector();
  const unit = new SensorSignal(SensorSignal.initialState(), rules);
  const fixes = readings.map((sensors, i) => fixAt(i * 30, { sensors }));
  for (const fix of fixes) unit.step(fix, emit);
  return { found, fixes, unit };
}

const series = (sensorID: number, values: (number | null)[]): Readings[] => values.map((value) => (value === null ? null : [{ sensorID, value }]));

describe('sensor control signal (type 10)', () => {
  it('fires once per excursion outside [min, max], with sensorID and the reading that left the range', () => {
    const { found, fixes } = run([{ id: 8, sensorID: 2, min: 0, max: 30 }], series(2, [20, 30, 31, 35, null, 40, 29, 0, -2, -9, 5]));
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.atMs, f.fields]),
      [
        [10, 8, fixes[2]!.timeMs, { sensorID: 2, sensorValue: 31 }],
        [10, 8, fixes[8]!.timeMs, { sensorID: 2, sensorValue: -2 }],
      ],
    );
  });

  it('takes a null bound as open, and the bounds themselves as inside', () => {
    assert.deepEqual(run([{ id: 1, sensorID: 2, min: null, max: 10 }], series(2, [-1e9, 10, 11])).found.map((f) => f.fields.sensorValue), [11]);
    assert.deepEqual(run([{ id: 1, sensorID: 2, min: -5, max: null }], series(2, [1e9, -5, -6])).found.map((f) => f.fields.sensorValue), [-6]);
    assert.deepEqual(run([{ id: 1, sensorID: 2, min: null, max: null }], series(2, [-1e9, 1e9])).found, []);
  });

  it('follows each rule’s own range for the same sensor', () => {
    const { found } = run(
      [
        { id: 1, sensorID: 2, min: 0, max: 50 },
        { id: 2, sensorID: 2, min: 0, max: 100 },
      ],
      series(2, [10, 60, 120, 60, 120]),
    );
    assert.deepEqual(
      found.map((f) => [f.ruleId, f.fields.sensorValue]),
      [
        [1, 60],
        [2, 120],
        [2, 120],
      ],
    );
  });

  it('ignores other sensors and keeps state only for rules outside their range', () => {
    const { found, unit } = run([{ id: 1, sensorID: 2, min: 0, max: 10 }], series(3, [500, -500]));
    assert.deepEqual(found, []);
    assert.deepEqual(unit.state.outside, []);
    const outside = run([{ id: 1, sensorID: 2, min: 0, max: 10 }], series(2, [50]));
    assert.deepEqual(outside.unit.state.outside, [1]);
    assert.deepEqual(new SensorSignal(structuredClone(outside.unit.state), []).state.outside, [], 'the rule is gone');
  });
});
