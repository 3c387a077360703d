import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PowerSignal } from '../../src/signals/kinds/power-signal.js';
import { collector, fixAt } from './signal-fixtures.js';

function run(readings: (boolean | null)[], ruleIds = [4]) {
  const { found, emit } = collector();
  const unit = new PowerSignal(PowerSignal.initialState(), ruleIds.map((id) => ({ id })));
  const fixes = readings.map((externalPower, i) => fixAt(i * 30, { externalPower, velocityKmh: i }));
  for (const fix of fixes) unit.step(fix, emit);
  return { found, fixes };
}

describe('power off signal (type 7)', () => {
  it('fires when externalPower turns from true to false, each time', () => {
    const { found, fixes } = run([true, true, false, false, true, false]);
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.atMs, f.velocityKmh]),
      [
        [7, 4, fixes[2]!.timeMs, 2],
        [7, 4, fixes[5]!.timeMs, 5],
      ],
    );
    assert.deepEqual(found[0]!.fields, {});
  });

  it('does not take a fix without the reading for a change', () => {
    const { found, fixes } = run([true, null, null, false, null, false]);
    assert.deepEqual(found.map((f) => f.atMs), [fixes[3]!.timeMs]);
  });

  it('invents nothing from a first reading of false', () => {
    assert.deepEqual(run([false, false, null, false]).found, []);
    assert.deepEqual(run([null, false]).found, []);
  });

  it('fires once for each rule', () => {
    const { found } = run([true, false], [2, 9]);
    assert.deepEqual(found.map((f) => f.ruleId), [2, 9]);
  });
});
