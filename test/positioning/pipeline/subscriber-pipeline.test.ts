import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EventType, type PipelineFix, type PipelineSettings } from '../../../src/positioning/pipeline/pipeline-types.js';
import { initialState, SubscriberPipeline, type SubscriberState } from '../../../src/positioning/pipeline/subscriber-pipeline.js';
import { HOUR, makeFix, MINUTE, MOSCOW, move, pathMetres, pipelineSettings, RecordingSink, Route, seededRandom, SECOND, T0 } from './fixtures.js';

const EPS_M = 1e-6;

function runPipeline(fixes: readonly PipelineFix[], settings: PipelineSettings = pipelineSettings(), state: SubscriberState = initialState(), sink = new RecordingSink(), firstStep = 0) {
  const pipeline = new SubscriberPipeline(state, settings);
  const metrics = fixes.map((fix, i) => {
    sink.step = firstStep + i;
    return pipeline.process(fix, sink);
  });
  return { pipeline, sink, metrics };
}

const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

/** Fixes `everyS` apart from T0 at Moscow, with the given fields. */
const timeline = (everyS: number, fields: Partial<PipelineFix>[]) => fields.map((f, i) => makeFix({ timeMs: T0 + i * everyS * SECOND, ...f }));

/** The detectors' part of the state: what an invalid fix must leave alone. */
function derived(state: SubscriberState) {
  const { lastFixMs: _ms, ...rest } = state;
  return structuredClone(rest);
}

/** The bucket being filled lives in the state (readers take it from there); tests compare it too. */
function reportOpenBucket(pipeline: SubscriberPipeline, sink: RecordingSink): void {
  if (pipeline.state.statistics.current) sink.bucket(structuredClone(pipeline.state.statistics.current));
}

describe('subscriber pipeline', () => {
  describe('invalid fixes', () => {
    /** A valid drive with speeding, a refuelling and a sensor violation, and wild invalid fixes between. */
    function driveWithInvalidFixes() {
      const route = new Route().park(5 * 60).drive(4000, 100, 90, { every: 5 }).park(10 * 60);
      route.fixes.forEach((fix, i) => Object.assign(fix, { fuelLevel: i < 25 ? 20 : 60, ignition: fix.velocityKmh > 5, sensors: [{ sensorID: 1, value: i === 20 ? 150 : 50 }] }));
      const random = seededRandom(3);
      const all: PipelineFix[] = [];
      for (const fix of route.fixes) {
        all.push(fix);
        if (random() < 0.3) {
          const wild = move(MOSCOW, 20_000 + random() * 50_000, random() * 360);
          all.push(
            makeFix({
              timeMs: fix.timeMs + 1,
              isValid: false,
              latitude: wild.lat,
              longitude: wild.lon,
              velocityKmh: 250,
              fuelLevel: 0,
              ignition: true,
              odometer: 999_999,
              engineHours: 99_999,
              sensors: [{ sensorID: 1, value: -500 }],
            }),
          );
        }
      }
      return { valid: route.fixes, all };
    }

    it('return null metrics and report nothing, leaving every running total and detector as it was', () => {
      const { all } = driveWithInvalidFixes();
      const settings = pipelineSettings({ sensorLimits: [{ sensorID: 1, min: 0, max: 100 }] });
      const state = initialState();
      const pipeline = new SubscriberPipeline(state, settings);
      const sink = new RecordingSink();
      let invalidSeen = 0;
      all.forEach((fix, i) => {
        sink.step = i;
        const before = derived(state);
        const callsBefore = sink.calls.length;
        const result = pipeline.process(fix, sink);
        if (fix.isValid) return;
        invalidSeen++;
        assert.equal(result, null);
        assert.deepEqual(derived(state), before, `fix ${i} changed the pipeline state`);
        assert.deepEqual(
          sink.calls.slice(callsBefore).filter((c) => c.kind !== 'checkpoint'),
          [],
          `fix ${i} reported something`,
        );
      });
      assert.ok(invalidSeen > 10, 'fixture: invalid fixes are spread through the drive');
    });

    it('give the same tracks, events, statistics and metrics as the valid fixes alone', () => {
      const { all, valid } = driveWithInvalidFixes();
      const settings = pipelineSettings({ sensorLimits: [{ sensorID: 1, min: 0, max: 100 }] });
      const withInvalid = runPipeline(all, settings);
      const validOnly = runPipeline(valid, settings);
      reportOpenBucket(withInvalid.pipeline, withInvalid.sink);
      reportOpenBucket(validOnly.pipeline, validOnly.sink);
      assert.deepEqual(
        withInvalid.metrics.filter((m) => m !== null),
        validOnly.metrics,
      );
      assert.deepEqual(withInvalid.sink.tracks, validOnly.sink.tracks);
      assert.deepEqual(withInvalid.sink.events, validOnly.sink.events);
      assert.deepEqual(withInvalid.sink.buckets, validOnly.sink.buckets);
      assert.deepEqual(
        new Set(validOnly.sink.eventList().map((e) => e.type)),
        new Set([EventType.fuelFilling, EventType.sensorViolation, EventType.speeding, EventType.prolongedSpeeding]),
        'fixture: the drive has events for the invalid fixes to disturb',
      );
      assert.equal(validOnly.sink.tracks.size, 1, 'fixture: and a track');
    });
  });

  it('sums the haversine distance between consecutive valid fixes, parked jitter and silences included', () => {
    const route = new Route().park(10 * 60).drive(2500, 50, 30).silence(20 * 60).drive(1200, 40, 300).park(10 * 60);
    const { metrics } = runPipeline(route.fixes);
    metrics.forEach((m, i) => near(m!.cumDistanceM, pathMetres(route.fixes.slice(0, i + 1)), EPS_M, `cumulative distance at fix ${i}`));
  });

  it('counts track mileage: the trips, not the parked jitter', () => {
    const route = new Route().park(30 * 60);
    const parkedEnd = route.fixes.length - 1;
    route.drive(2500, 50, 30).park(10 * 60).drive(1200, 40, 300).park(10 * 60);
    const { metrics, sink } = runPipeline(route.fixes);
    assert.equal(metrics[parkedEnd]!.cumTrackM, 0, 'no mileage while parked');
    assert.ok(metrics[parkedEnd]!.cumDistanceM > 100, 'fixture: the jitter adds distance');
    const tracks = sink.trackList();
    assert.equal(tracks.length, 2);
    near(metrics.at(-1)!.cumTrackM, tracks[0]!.distanceM + tracks[1]!.distanceM, EPS_M, 'track mileage');
  });

  describe('engine seconds', () => {
    it('count the time after each fix with ignition on', () => {
      // Fixes a minute apart: on from 0 to 10 min, off from 11 to 20 min.
      const fixes = timeline(
        60,
        Array.from({ length: 21 }, (_, i) => ({ ignition: i <= 10 })),
      );
      const { metrics } = runPipeline(fixes);
      assert.equal(metrics[10]!.cumEngineS, 600);
      assert.equal(metrics[11]!.cumEngineS, 660, 'the minute after the last fix with ignition on');
      assert.equal(metrics[20]!.cumEngineS, 660);
    });

    it('count at most the gap threshold across a silence', () => {
      const fixes = [makeFix({ timeMs: T0, ignition: true }), makeFix({ timeMs: T0 + 45 * MINUTE, ignition: true }), makeFix({ timeMs: T0 + 46 * MINUTE, ignition: true })];
      const { metrics } = runPipeline(fixes);
      assert.deepEqual(
        metrics.map((m) => m!.cumEngineS),
        [0, 600, 660],
      );
    });

    it('prefer the engine-hour counter when both fixes carry it', () => {
      const fixes = [
        makeFix({ timeMs: T0, ignition: true, engineHours: 1200 }),
        // The counter says 72 s in these 5 minutes, whatever the ignition said.
        makeFix({ timeMs: T0 + 5 * MINUTE, ignition: true, engineHours: 1200.02 }),
        makeFix({ timeMs: T0 + 10 * MINUTE, ignition: false, engineHours: 1200.07 }),
        // Only this fix has the counter: back to the ignition of the previous fix (off).
        makeFix({ timeMs: T0 + 15 * MINUTE, ignition: true, engineHours: null }),
        makeFix({ timeMs: T0 + 16 * MINUTE, ignition: true, engineHours: 1200.1 }),
      ];
      const { metrics } = runPipeline(fixes);
      const engine = metrics.map((m) => m!.cumEngineS);
      near(engine[1]!, 72, 1e-6, 'counter over ignition on');
      near(engine[2]!, 72 + 180, 1e-6, 'counter over ignition off');
      near(engine[3]!, 252, 1e-6, 'the counter of one fix alone is not used');
      near(engine[4]!, 252 + 60, 1e-6, 'ignition on, no counter on the previous fix');
    });
  });

  it('keeps the median-smoothed fuel level, carried over fixes without a reading', () => {
    const levels = [50, null, 52, 49, 80, null, 51, 50, 20, 48];
    const { metrics } = runPipeline(timeline(30, levels.map((fuelLevel) => ({ fuelLevel }))));
    assert.deepEqual(
      metrics.map((m) => m!.fuelSmoothed),
      [50, 50, 51, 50, 51, 51, 51, 51, 50, 50],
    );
    assert.equal(runPipeline(timeline(30, [{}, {}])).metrics[1]!.fuelSmoothed, null, 'no reading yet: null');
  });

  it('anchors the odometer at its last reading, with the distances run up to it', () => {
    const route = new Route().park(2 * 60).drive(3000, 60, 90).park(10 * 60).drive(1000, 60, 0).park(10 * 60);
    const f = route.fixes;
    const firstReading = 10;
    const secondReading = f.length - 5;
    f[firstReading]!.odometer = 12_345.6;
    f[secondReading]!.odometer = 12_350.1;
    const { metrics } = runPipeline(f);
    assert.deepEqual(metrics[firstReading - 1]!.odoAnchorKm, null, 'no reading yet');
    for (const [from, to, reading] of [
      [firstReading, secondReading, firstReading],
      [secondReading, f.length, secondReading],
    ] as const) {
      for (let i = from; i < to; i++) {
        const m = metrics[i]!;
        assert.equal(m.odoAnchorKm, f[reading]!.odometer);
        assert.equal(m.odoAnchorCumM, metrics[reading]!.cumDistanceM, 'distance at the reading');
        assert.equal(m.odoAnchorTrackM, metrics[reading]!.cumTrackM, 'track mileage at the reading');
      }
    }
    assert.ok(metrics[secondReading]!.odoAnchorCumM > metrics[firstReading]!.odoAnchorCumM + 3000, 'fixture: the readings are a trip apart');
  });

  it('adds nothing for a second fix at the same instant (a resent buffer)', () => {
    const route = new Route().park(60).drive(1000, 50, 90);
    const f = route.fixes;
    const resent = f.flatMap((fix, i) => (i % 3 === 0 ? [fix, { ...fix, id: fix.id + 100_000 }] : [fix]));
    const once = runPipeline(f);
    const twice = runPipeline(resent);
    // The GPS filter sets the second one aside (a duplicate): no metrics of its own.
    assert.equal(twice.metrics.filter((m) => m === null).length, resent.length - f.length);
    assert.deepEqual(twice.metrics.filter((m) => m !== null), once.metrics);
    assert.deepEqual(twice.sink.tracks, once.sink.tracks);
  });

  it('checkpoints the state before the first fix of every clock hour that has fixes', () => {
    const route = new Route(MOSCOW, T0 + 10 * MINUTE).park(20 * 60).drive(30_000, 60, 90); // 06:30-07:00
    route.silence(90 * 60).drive(10_000, 60, 180).park(30 * 60); // 08:30-09:10
    const sink = new RecordingSink();
    const state = initialState();
    const pipeline = new SubscriberPipeline(state, pipelineSettings());
    const expected: { atMs: number; state: string }[] = [];
    route.fixes.forEach((fix, i) => {
      const hour = Math.floor(fix.timeMs / HOUR) * HOUR;
      if (i === 0 || hour > Math.floor(route.fixes[i - 1]!.timeMs / HOUR) * HOUR) expected.push({ atMs: hour, state: JSON.stringify(state) });
      sink.step = i;
      pipeline.process(fix, sink);
    });
    assert.deepEqual(
      sink.checkpoints.map((c) => (c.atMs - T0) / HOUR),
      [0, 1, 2, 3],
      'fixture: 06:00, 07:00, 08:00 and 09:00',
    );
    assert.deepEqual(sink.checkpoints, expected);
  });

  it('chains its statistics: each quarter hour starts where the previous one ended', () => {
    const route = new Route().park(20 * 60).drive(30_000, 60, 90).park(20 * 60);
    route.tag(0, { ignition: true, fuelLevel: 40 });
    const { pipeline, sink, metrics } = runPipeline(route.fixes);
    reportOpenBucket(pipeline, sink);
    const buckets = [...sink.buckets.values()].sort((a, b) => a.bucketMs - b.bucketMs);
    assert.ok(buckets.length >= 5, 'fixture: over an hour of fixes');
    assert.equal(
      buckets.reduce((n, b) => n + b.fixCount, 0),
      route.fixes.length,
    );
    for (let i = 1; i < buckets.length; i++) assert.deepEqual(buckets[i]!.before, buckets[i - 1]!.end);
    assert.deepEqual(buckets.at(-1)!.end, metrics.at(-1));
  });

  describe('replay from a checkpoint (what late fixes rely on)', () => {
    const SETTINGS = pipelineSettings({
      speedLimit: 90,
      prolongedSpeedSeconds: 60,
      sensorLimits: [
        { sensorID: 1, min: -25, max: 8 },
        { sensorID: 2, min: 11, max: null },
      ],
    });

    type Segment =
      | { kind: 'park'; seconds: number; every: number; jitterM: number }
      | { kind: 'drive'; metres: number; kmh: number; bearing: number; every: number }
      | { kind: 'silence'; seconds: number };

    /** A day of driving with every kind of reading, some of it missing, invalid or resent. */
    function randomDay(segments: Segment[], seed: number, startOffsetS: number): PipelineFix[] {
      const route = new Route(MOSCOW, T0 + startOffsetS * SECOND, seed);
      for (const s of segments) {
        if (s.kind === 'park') route.park(s.seconds, { every: s.every, jitterM: s.jitterM });
        else if (s.kind === 'drive') route.drive(s.metres, s.kmh, s.bearing, { every: s.every });
        else route.silence(s.seconds);
      }
      const random = seededRandom(seed ^ 0x5eed);
      const withCounter = random() < 0.5;
      let fuel = 20 + random() * 40;
      let engineHours = 1000 + random() * 100;
      let odometer = 50_000 + random() * 1000;
      let temperature = random() * 10 - 5;
      let previousMs = route.fixes[0]?.timeMs ?? T0;
      const out: PipelineFix[] = [];
      for (const fix of route.fixes) {
        const elapsedH = (fix.timeMs - previousMs) / HOUR;
        previousMs = fix.timeMs;
        const moving = fix.velocityKmh > 5;
        const ignition = moving || random() < 0.15;
        if (ignition) engineHours += elapsedH;
        odometer += moving ? (fix.velocityKmh * elapsedH) : 0;
        fuel = Math.max(0, fuel - (ignition ? 9 * elapsedH : 0));
        const r = random();
        if (r < 0.02) fuel += 15 + random() * 40; // a refuelling
        else if (r < 0.03) fuel = Math.max(0, fuel - 12 - random() * 10); // a drain
        const spike = random() < 0.03 ? (random() - 0.5) * 60 : 0;
        temperature = Math.min(15, Math.max(-30, temperature + (random() - 0.5) * 3));
        Object.assign(fix, {
          velocityKmh: moving && random() < 0.3 ? fix.velocityKmh + random() * 40 : fix.velocityKmh,
          ignition: random() < 0.05 ? null : ignition,
          fuelLevel: random() < 0.1 ? null : Math.max(0, Math.round((fuel + spike + (random() - 0.5)) * 10) / 10),
          engineHours: withCounter && random() < 0.9 ? Math.round(engineHours * 1000) / 1000 : null,
          odometer: random() < 0.05 ? Math.round(odometer * 10) / 10 : null,
          sensors: random() < 0.2 ? null : [
            { sensorID: 1, value: Math.round(temperature * 10) / 10 },
            { sensorID: 2, value: random() < 0.03 ? 5 : 12 + Math.round(random() * 3) },
            { sensorID: 3, value: random() * 1000 },
          ],
        } satisfies Partial<PipelineFix>);
        out.push(fix);
        const extra = random();
        if (extra < 0.04) out.push({ ...fix, id: fix.id + 1_000_000 }); // resent
        else if (extra < 0.08) {
          const wild = move(MOSCOW, random() * 100_000, random() * 360);
          out.push(makeFix({ timeMs: fix.timeMs + 1 + Math.floor(random() * 5000), isValid: false, latitude: wild.lat, longitude: wild.lon, velocityKmh: random() * 300 }));
        }
      }
      // Ordered by (time, id), as the store hands them over.
      return out.sort((a, b) => a.timeMs - b.timeMs || a.id - b.id);
    }

    /** Runs the day uninterrupted, then from each checkpoint on a restored state, and compares. */
    function assertReplayMatches(fixes: PipelineFix[]): number {
      const full = runPipeline(fixes, SETTINGS);
      reportOpenBucket(full.pipeline, full.sink);
      const finalState = JSON.parse(JSON.stringify(full.pipeline.state)) as SubscriberState;
      const checkpoints = full.sink.calls.flatMap((c) => (c.kind === 'checkpoint' ? [{ step: c.step, checkpoint: c.checkpoint }] : []));
      for (const { step, checkpoint } of checkpoints) {
        const restored = runPipeline(fixes.slice(step), SETTINGS, JSON.parse(checkpoint.state) as SubscriberState, new RecordingSink(), step);
        reportOpenBucket(restored.pipeline, restored.sink);
        const where = `replay from the checkpoint at ${new Date(checkpoint.atMs).toISOString()} (fix ${step})`;
        assert.deepEqual(restored.metrics, full.metrics.slice(step), `${where}: metrics`);
        assert.deepEqual(
          restored.sink.calls,
          full.sink.calls.filter((c) => c.step >= step),
          `${where}: outputs`,
        );
        // Compared as it is persisted: JSON (which also makes a -0 and a 0 the same).
        assert.deepEqual(JSON.parse(JSON.stringify(restored.pipeline.state)), finalState, `${where}: final state`);
      }
      return checkpoints.length;
    }

    const segment: fc.Arbitrary<Segment> = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('park' as const), seconds: fc.integer({ min: 30, max: 3600 }), every: fc.integer({ min: 5, max: 120 }), jitterM: fc.integer({ min: 0, max: 30 }) }) },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('drive' as const),
          metres: fc.oneof(fc.integer({ min: 20, max: 300 }), fc.integer({ min: 300, max: 40_000 })), // short hops get dropped
          kmh: fc.integer({ min: 6, max: 130 }),
          bearing: fc.integer({ min: 0, max: 359 }),
          every: fc.integer({ min: 2, max: 60 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('silence' as const), seconds: fc.integer({ min: 30, max: 4 * 3600 }) }) },
    );

    it('a fixed day: restored from any hour checkpoint, the rest gives the same outputs and final state', () => {
      const day = randomDay(
        [
          { kind: 'park', seconds: 1800, every: 30, jitterM: 30 },
          { kind: 'drive', metres: 35_000, kmh: 95, bearing: 80, every: 10 },
          { kind: 'park', seconds: 600, every: 30, jitterM: 20 },
          { kind: 'silence', seconds: 5400 },
          { kind: 'drive', metres: 20_000, kmh: 70, bearing: 200, every: 15 },
          { kind: 'park', seconds: 3600, every: 60, jitterM: 30 },
        ],
        42,
        17 * 60,
      );
      const full = runPipeline(day, SETTINGS);
      const kinds = new Set(full.sink.eventList().map((e) => e.type));
      assert.ok(full.sink.tracks.size >= 2 && kinds.size >= 4, `fixture: tracks and events of several kinds (${[...kinds]})`);
      assert.ok(assertReplayMatches(day) >= 4, 'fixture: several checkpoints');
    });

    it('property: over random days, replay from any checkpoint equals the uninterrupted run', () => {
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 10 }), fc.integer(), fc.integer({ min: 0, max: 3599 }), (segments, seed, startOffsetS) => {
          assertReplayMatches(randomDay(segments, seed, startOffsetS));
        }),
        { numRuns: 60 },
      );
    });
  });
});
