import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultTrackSettings, type PipelineFix } from '../../src/positioning/pipeline/pipeline-types.js';
import { StopSignal, type StopRule } from '../../src/signals/kinds/stop-signal.js';
import { Route } from '../positioning/pipeline/fixtures.js';
import { collector, MINUTE } from './signal-fixtures.js';

const { moveSpeedKmh, moveDistanceM } = defaultTrackSettings;

function run(rules: StopRule[], fixes: PipelineFix[]) {
  const { found, emit } = collector();
  const unit = new StopSignal(StopSignal.initialState(), rules, { moveSpeedKmh, moveDistanceM });
  for (const fix of fixes) unit.step(fix, emit);
  return { found, unit };
}

describe('stop signal (type 3)', () => {
  it('fires once per stop and rule, when the stop has lasted the rule’s minStopMinutes, through GPS jitter', () => {
    const route = new Route().park(60).drive(2000, 36, 90);
    const firstStop = route.fixes.length;
    route.park(20 * 60, { jitterM: 30, maxKmh: 3 }).drive(1000, 36, 0);
    const secondStop = route.fixes.length;
    route.park(12 * 60, { jitterM: 30 });
    const fixes = route.fixes;
    const { found } = run(
      [
        { id: 1, minStopMinutes: 5 },
        { id: 2, minStopMinutes: 15 },
      ],
      fixes,
    );
    const stopAt = (from: number, minutes: number) => fixes.find((f, i) => i >= from && f.timeMs - fixes[from]!.timeMs >= minutes * MINUTE)!;
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.atMs]),
      [
        [3, 1, stopAt(firstStop, 5).timeMs],
        [3, 2, stopAt(firstStop, 15).timeMs],
        [3, 1, stopAt(secondStop, 5).timeMs],
      ],
    );
    const fired = stopAt(firstStop, 5);
    assert.deepEqual([found[0]!.latitude, found[0]!.longitude, found[0]!.velocityKmh], [fired.latitude, fired.longitude, fired.velocityKmh]);
  });

  it('does not take a slow crawl for a stop', () => {
    const route = new Route();
    for (let i = 0; i < 30; i++) route.drive(150, 4, 90, { every: 60 });
    assert.deepEqual(run([{ id: 1, minStopMinutes: 5 }], route.fixes).found, []);
  });

  it('counts a silence at the same place as standing', () => {
    const route = new Route().drive(1000, 36, 90).park(3 * 60).silence(20 * 60).park(3 * 60);
    const { found } = run([{ id: 1, minStopMinutes: 10 }], route.fixes);
    assert.equal(found.length, 1);
    const afterSilence = route.fixes.find((f) => f.timeMs > route.fixes[0]!.timeMs + 20 * MINUTE)!;
    assert.equal(found[0]!.atMs, afterSilence.timeMs);
  });

  it('keeps one stop and the rules that fired for it, and forgets rules that are gone', () => {
    const route = new Route().drive(500, 36, 90).park(10 * 60);
    const { unit } = run(
      [
        { id: 1, minStopMinutes: 5 },
        { id: 2, minStopMinutes: 60 },
      ],
      route.fixes,
    );
    assert.deepEqual(unit.state.fired, [1]);
    assert.ok(unit.state.stop);
    assert.deepEqual(new StopSignal(structuredClone(unit.state), [{ id: 2, minStopMinutes: 60 }], { moveSpeedKmh, moveDistanceM }).state.fired, []);
  });
});
