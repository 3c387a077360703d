import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixSignals } from '../../src/positioning/pipeline/pipeline-signals.js';
import type { PipelineFix, TrackRecord } from '../../src/positioning/pipeline/pipeline-types.js';
import { initialState, SubscriberPipeline } from '../../src/positioning/pipeline/subscriber-pipeline.js';
import { pipelineSettings, RecordingSink, Route } from '../positioning/pipeline/fixtures.js';

/** What the pipeline hands the signal detectors, fix by fix. */
class RecordingSignals implements FixSignals {
  readonly steps: { timeMs: number; live: boolean; ended: TrackRecord | null; stopAtMs: number | null }[] = [];
  step(fix: PipelineFix, live: boolean, ended: TrackRecord | null, stopAtMs: number | null): void {
    this.steps.push({ timeMs: fix.timeMs, live, ended: ended && structuredClone(ended), stopAtMs });
  }
}

describe('the pipeline’s signal hook', () => {
  it('gets each valid fix once, with the runner’s live flag, the track a fix ended and where the stop began', () => {
    const route = new Route().park(60).drive(3000, 36, 90);
    const stopAt = route.fixes.length;
    route.park(7 * 60);
    const fixes = route.fixes;
    fixes[3]!.isValid = false;
    const signals = new RecordingSignals();
    const sink = new RecordingSink();
    const pipeline = new SubscriberPipeline(initialState(), pipelineSettings(), { signals });
    fixes.forEach((fix, i) => pipeline.process(fix, sink, i % 2 === 0));
    // The resent fix at the same instant adds nothing.
    pipeline.process({ ...fixes.at(-1)!, id: 999_999 }, sink, true);

    const valid = fixes.filter((f) => f.isValid);
    assert.deepEqual(signals.steps.map((s) => s.timeMs), valid.map((f) => f.timeMs));
    assert.deepEqual(signals.steps.map((s) => s.live), valid.map((f) => fixes.indexOf(f) % 2 === 0));
    const ended = signals.steps.filter((s) => s.ended);
    assert.equal(ended.length, 1);
    assert.deepEqual(ended[0]!.ended, sink.trackList()[0]);
    assert.equal(ended[0]!.ended!.finishMs, fixes[stopAt]!.timeMs);
    const standing = signals.steps.filter((s) => s.stopAtMs !== null);
    assert.ok(standing.length > 0 && standing.every((s) => s.stopAtMs === fixes[stopAt]!.timeMs));
    assert.equal(initialState().signals, undefined, 'no signal state without rules');
  });
});
