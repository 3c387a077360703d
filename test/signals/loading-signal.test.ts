import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoadingSignal, type LoadingRule } from '../../src/signals/kinds/loading-signal.js';
import { collector, fixAt } from './signal-fixtures.js';

type Readings = { sensorID: number; value: number }[] | null;

function run(rules: LoadingRule[], readings: Readings[]) {
  const { found, emit } = collector();
  const unit = new LoadingSignal(LoadingSignal.initialState(), rules);
  const fixes = readings.map((sensors, i) => fixAt(i * 30, { sensors }));
  for (const fix of fixes) unit.step(fix, emit);
  return { found, fixes, unit };
}

const series = (sensorID: number, values: (number | null)[]): Readings[] => values.map((value) => (value === null ? null : [{ sensorID, value }]));

describe('waste loading signal (type 9)', () => {
  it('fires when the rule’s sensor turns from 0 to non-zero, each time', () => {
    const { found, fixes } = run([{ id: 3, sensorID: 5 }], series(5, [0, 0, 12, 14, 0, 0, -1, 0]));
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.atMs]),
      [
        [9, 3, fixes[2]!.timeMs],
        [9, 3, fixes[6]!.timeMs],
      ],
    );
    assert.deepEqual(found[0]!.fields, {});
  });

  it('skips fixes without the reading, and invents nothing from a first non-zero reading', () => {
    const { found, fixes } = run([{ id: 3, sensorID: 5 }], series(5, [7, null, 0, null, null, 4]));
    assert.deepEqual(found.map((f) => f.atMs), [fixes[5]!.timeMs]);
  });

  it('watches only the rules’ sensors, each rule its own, and keeps one value per watched sensor', () => {
    const readings: Readings[] = [
      [{ sensorID: 1, value: 0 }, { sensorID: 2, value: 0 }, { sensorID: 3, value: 0 }],
      [{ sensorID: 1, value: 1 }, { sensorID: 2, value: 0 }, { sensorID: 3, value: 9 }],
      [{ sensorID: 1, value: 1 }, { sensorID: 2, value: 8 }, { sensorID: 3, value: 9 }],
    ];
    const { found, fixes, unit } = run(
      [
        { id: 10, sensorID: 1 },
        { id: 11, sensorID: 2 },
        { id: 12, sensorID: 1 },
      ],
      readings,
    );
    assert.deepEqual(
      found.map((f) => [f.ruleId, f.atMs]),
      [
        [10, fixes[1]!.timeMs],
        [12, fixes[1]!.timeMs],
        [11, fixes[2]!.timeMs],
      ],
    );
    assert.deepEqual(unit.state, { 1: 1, 2: 8 });
    assert.deepEqual(new LoadingSignal(structuredClone(unit.state), [{ id: 11, sensorID: 2 }]).state, { 2: 8 }, 'sensor 1 is no longer watched');
  });
});
