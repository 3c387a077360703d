import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpeedSignal, type SpeedRule } from '../../src/signals/kinds/speed-signal.js';
import { collector, speedSeries } from './signal-fixtures.js';

const GAP_MS = 600_000;

function run(rules: SpeedRule[], speeds: number[], every = 10) {
  const fixes = speedSeries(speeds, every);
  const { found, emit } = collector();
  const unit = new SpeedSignal(SpeedSignal.initialState(), rules, GAP_MS);
  for (const fix of fixes) unit.step(fix, emit);
  return { found, fixes, unit };
}

describe('speed signal (type 1)', () => {
  it('fires once per excursion above the rule’s limit, once it lasted minDurationSeconds', () => {
    const { found, fixes } = run([{ id: 7, speedLimitKmh: 60, minDurationSeconds: 30 }], [50, 70, 75, 80, 90, 95, 65, 55, 61, 62, 63, 64, 70, 40]);
    // Excursion 1 starts at fix 1 (70) and lasts 30 s at fix 4; excursion 2 starts at fix 8 and lasts 30 s at fix 11.
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.atMs, f.velocityKmh]),
      [
        [1, 7, fixes[4]!.timeMs, 90],
        [1, 7, fixes[11]!.timeMs, 64],
      ],
    );
    assert.deepEqual(found[0]!.fields, {});
    assert.equal(found[0]!.latitude, fixes[4]!.latitude);
    assert.equal(found[0]!.longitude, fixes[4]!.longitude);
  });

  it('fires at the first fix above the limit when minDurationSeconds is 0, and not for an excursion too short', () => {
    const now = run([{ id: 1, speedLimitKmh: 60, minDurationSeconds: 0 }], [50, 61, 62, 50]);
    assert.deepEqual(now.found.map((f) => f.atMs), [now.fixes[1]!.timeMs]);
    const short = run([{ id: 1, speedLimitKmh: 60, minDurationSeconds: 60 }], [50, 70, 70, 70, 70, 70, 50, 70, 70]);
    assert.deepEqual(short.found, [], '50 s above the limit, twice');
  });

  it('judges each rule by its own limit and duration, not the vehicle’s', () => {
    const { found, fixes } = run(
      [
        { id: 1, speedLimitKmh: 60, minDurationSeconds: 0 },
        { id: 2, speedLimitKmh: 80, minDurationSeconds: 20 },
        { id: 3, speedLimitKmh: 120, minDurationSeconds: 0 },
      ],
      [65, 85, 90, 95, 70],
    );
    assert.deepEqual(
      found.map((f) => [f.ruleId, f.atMs]),
      [
        [1, fixes[0]!.timeMs],
        [2, fixes[3]!.timeMs],
      ],
    );
  });

  it('treats the limit itself as allowed', () => {
    assert.deepEqual(run([{ id: 1, speedLimitKmh: 60, minDurationSeconds: 0 }], [60, 60, 60]).found, []);
  });

  it('ends an excursion at a gap in coverage: the one after it counts from its own start', () => {
    const { found } = run([{ id: 1, speedLimitKmh: 60, minDurationSeconds: 120 }], [70, 70, 70, 70], 100);
    assert.equal(found.length, 1, '300 s above the limit, fixes 100 s apart');
    const gapped = run([{ id: 1, speedLimitKmh: 60, minDurationSeconds: 120 }], [70, 70, 70, 70], 700);
    assert.deepEqual(gapped.found, [], 'each fix after a silence longer than the gap starts anew');
  });

  it('keeps state only for rules the vehicle is above, and forgets rules that are gone', () => {
    const rules = [
      { id: 1, speedLimitKmh: 60, minDurationSeconds: 0 },
      { id: 2, speedLimitKmh: 100, minDurationSeconds: 0 },
    ];
    const { unit } = run(rules, [70, 70]);
    assert.deepEqual(Object.keys(unit.state.above), ['1']);
    const { unit: calm } = run(rules, [70, 30]);
    assert.deepEqual(calm.state.above, {});
    const later = new SpeedSignal(structuredClone(unit.state), [rules[1]!], GAP_MS);
    assert.deepEqual(later.state.above, {}, 'rule 1 no longer exists');
  });

  it('does not fire again for the same excursion after a restart from its state', () => {
    const rules = [{ id: 1, speedLimitKmh: 60, minDurationSeconds: 0 }];
    const fixes = speedSeries([70, 75, 80, 85]);
    const { found, emit } = collector();
    let state = SpeedSignal.initialState();
    for (const fix of fixes) {
      const unit = new SpeedSignal(state, rules, GAP_MS);
      unit.step(fix, emit);
      state = JSON.parse(JSON.stringify(unit.state));
    }
    assert.equal(found.length, 1);
  });
});
