import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixMetrics } from '../../../src/positioning/pipeline/pipeline-types.js';
import { BUCKET_MS, StatisticsAccumulator, type BucketRecord } from '../../../src/positioning/pipeline/statistics-accumulator.js';
import { HOUR, MINUTE, RecordingSink, SECOND, T0 } from './fixtures.js';

/** Metrics of a vehicle that has gone `km` and run its engine `engineS`, with `fuel` litres. */
function metrics(km: number, engineS: number, fuel: number | null): FixMetrics {
  return { cumDistanceM: km * 1000, cumTrackM: km * 900, cumEngineS: engineS, fuelSmoothed: fuel, odoAnchorKm: null, odoAnchorCumM: 0, odoAnchorTrackM: 0 };
}

/** One valid fix, as the pipeline passes it: the totals before it, then after it. */
function step(accumulator: StatisticsAccumulator, timeMs: number, before: FixMetrics, after: FixMetrics, sink: RecordingSink): void {
  accumulator.enter(timeMs, before, sink);
  accumulator.add(timeMs, after);
}

/** Feeds (time, metrics after the fix) pairs; each fix's `before` is the previous fix's metrics. */
function runStatistics(fixes: [timeMs: number, after: FixMetrics][], start: FixMetrics = metrics(0, 0, null)) {
  const sink = new RecordingSink();
  const accumulator = new StatisticsAccumulator(StatisticsAccumulator.initialState());
  let before = start;
  fixes.forEach(([timeMs, after], i) => {
    sink.step = i;
    step(accumulator, timeMs, before, after, sink);
    before = after;
  });
  const reported = () => sink.calls.flatMap((c) => (c.kind === 'bucket' ? [{ ...c.record, step: c.step }] : []));
  return { sink, accumulator, reported };
}

/** What readers do with the bucket being filled: it is in the state, never written as a row until it closes. */
function reportOpen(accumulator: StatisticsAccumulator, sink: RecordingSink): void {
  if (accumulator.state.current) sink.bucket(structuredClone(accumulator.state.current));
}

describe('statistics accumulator', () => {
  it('folds the fixes of a quarter hour into one bucket: metrics before its first fix and at its last, fix count', () => {
    const start = metrics(10, 100, 40);
    const fixes: [number, FixMetrics][] = [
      [T0 + 1 * MINUTE, metrics(11, 160, 39.5)],
      [T0 + 7 * MINUTE, metrics(13, 520, 39)],
      [T0 + 14 * MINUTE + 59 * SECOND, metrics(15, 1000, 38)],
    ];
    const { sink, accumulator, reported } = runStatistics(fixes, start);
    assert.deepEqual(reported(), [], 'not reported while the quarter hour may still grow');
    reportOpen(accumulator, sink);
    assert.deepEqual(sink.buckets.get(T0), {
      bucketMs: T0,
      firstFixMs: T0 + 1 * MINUTE,
      lastFixMs: T0 + 14 * MINUTE + 59 * SECOND,
      fixCount: 3,
      before: start,
      firstFuel: 39.5,
      end: metrics(15, 1000, 38),
    } satisfies BucketRecord);
  });

  it('reports a bucket when the next quarter hour starts, and keeps the one being filled in its state', () => {
    const fixes: [number, FixMetrics][] = [
      [T0 + 5 * MINUTE, metrics(1, 0, null)],
      [T0 + 15 * MINUTE - 1, metrics(2, 0, null)], // the last millisecond of the first quarter
      [T0 + 15 * MINUTE, metrics(3, 0, null)], // the first of the second
      [T0 + 29 * MINUTE, metrics(4, 0, null)],
    ];
    const { sink, accumulator, reported } = runStatistics(fixes);
    assert.deepEqual(
      reported().map((b) => [b.bucketMs, b.step, b.fixCount]),
      [[T0, 2, 2]],
      'the first bucket, once the fix at :15 arrives',
    );
    reportOpen(accumulator, sink);
    const second = sink.buckets.get(T0 + 15 * MINUTE)!;
    assert.equal(second.fixCount, 2);
    assert.deepEqual(second.before, metrics(2, 0, null), 'before = the end of the previous bucket');
    assert.deepEqual(second.end, metrics(4, 0, null));
  });

  it('makes buckets only for quarter hours with fixes, aligned to quarter hours of UTC', () => {
    // Aligned to UTC quarters, the clock hours of +05:45 or -03:30 zones are whole sets of buckets.
    const fixes: [number, FixMetrics][] = [
      [T0 + 50 * MINUTE, metrics(1, 0, null)],
      [T0 + 3 * HOUR + 31 * MINUTE, metrics(2, 0, null)],
      [T0 + 3 * HOUR + 44 * MINUTE, metrics(3, 0, null)],
      [T0 + 5 * HOUR, metrics(4, 0, null)],
    ];
    const { sink, accumulator } = runStatistics(fixes);
    reportOpen(accumulator, sink);
    assert.deepEqual(
      [...sink.buckets.keys()].map((ms) => (ms - T0) / MINUTE),
      [45, 3 * 60 + 30, 5 * 60],
    );
    for (const bucketMs of sink.buckets.keys()) assert.equal(bucketMs % BUCKET_MS, 0);
  });

  it('holds no open bucket before any fix', () => {
    const sink = new RecordingSink();
    reportOpen(new StatisticsAccumulator(StatisticsAccumulator.initialState()), sink);
    assert.deepEqual(sink.calls, []);
  });

  it('holds in its state the bucket still being filled, with what came since', () => {
    const { sink, accumulator } = runStatistics([[T0 + MINUTE, metrics(1, 10, 50)]]);
    reportOpen(accumulator, sink);
    step(accumulator, T0 + 2 * MINUTE, metrics(1, 10, 50), metrics(2, 70, 49), sink);
    reportOpen(accumulator, sink);
    const record = sink.buckets.get(T0)!;
    assert.equal(record.fixCount, 2);
    assert.deepEqual(record.end, metrics(2, 70, 49));
    assert.deepEqual(record.before, metrics(0, 0, null));
  });

  it('keeps its own copy of the metrics it is given (the pipeline passes its live running totals)', () => {
    const accumulator = new StatisticsAccumulator(StatisticsAccumulator.initialState());
    const sink = new RecordingSink();
    const live = metrics(0, 0, null);
    const before = { ...live };
    live.cumDistanceM = 500;
    step(accumulator, T0, before, live, sink);
    before.cumDistanceM = -1;
    live.cumDistanceM = 99_999; // the next fix's processing, before the record is written
    reportOpen(accumulator, sink);
    const record = sink.buckets.get(T0)!;
    assert.equal(record.before.cumDistanceM, 0);
    assert.equal(record.end.cumDistanceM, 500);
  });

  it('leaves a reported bucket as it was reported (a batch writes it after its later fixes)', () => {
    const accumulator = new StatisticsAccumulator(StatisticsAccumulator.initialState());
    const kept: BucketRecord[] = [];
    const byReference = { bucket: (record: BucketRecord) => void kept.push(record) };
    const fix = (timeMs: number, before: FixMetrics, after: FixMetrics) => {
      accumulator.enter(timeMs, before, byReference);
      accumulator.add(timeMs, after);
    };
    fix(T0 + MINUTE, metrics(0, 0, 50), metrics(1, 60, 49));
    fix(T0 + 2 * MINUTE, metrics(1, 60, 49), metrics(2, 120, 48));
    fix(T0 + 16 * MINUTE, metrics(2, 120, 48), metrics(3, 180, 47));
    assert.equal(kept.length, 1);
    const reported = structuredClone(kept[0]!);
    fix(T0 + 17 * MINUTE, metrics(3, 180, 47), metrics(4, 240, 46));
    assert.deepEqual(kept[0], reported);
    assert.deepEqual(reported.end, metrics(2, 120, 48));
  });

  it('round-trips its state through JSON', () => {
    const fixes: [number, FixMetrics][] = [
      [T0 + MINUTE, metrics(1, 0, 50)],
      [T0 + 2 * MINUTE, metrics(2, 60, 49)],
    ];
    const { accumulator } = runStatistics(fixes);
    const restored = new StatisticsAccumulator(JSON.parse(JSON.stringify(accumulator.state)));
    const a = new RecordingSink();
    const b = new RecordingSink();
    step(accumulator, T0 + 20 * MINUTE, metrics(2, 60, 49), metrics(3, 120, 48), a);
    step(restored, T0 + 20 * MINUTE, metrics(2, 60, 49), metrics(3, 120, 48), b);
    assert.deepEqual(b.calls, a.calls);
    assert.deepEqual(restored.state, accumulator.state);
  });
});
