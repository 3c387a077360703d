import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultGpsFilterSettings, FilterReason, gpsFilterSettingsOf, judgeFix, type FilterSuspect, type GpsFilterSettings } from '../../../src/positioning/pipeline/fix-filter.js';
import { initialState, SubscriberPipeline, type SubscriberState } from '../../../src/positioning/pipeline/subscriber-pipeline.js';
import type { PipelineFix } from '../../../src/positioning/pipeline/pipeline-types.js';
import { distance, makeFix, MOSCOW, move, pathMetres, pipelineSettings, RecordingSink, Route, SECOND, T0, type LatLon } from './fixtures.js';

const pointOf = (f: PipelineFix): LatLon => ({ lat: f.latitude, lon: f.longitude });
const fixAt = (where: LatLon, timeMs: number) => ({ timeMs, latitude: where.lat, longitude: where.lon });
const accepted = (where: LatLon, t: number) => ({ t, lat: where.lat, lon: where.lon });
const settingsWith = (overrides: Partial<GpsFilterSettings>): GpsFilterSettings => ({ ...defaultGpsFilterSettings, ...overrides });

/** Anywhere a vehicle may be, away from the poles (where a degree of longitude shrinks to nothing). */
const place = fc.record({ lat: fc.double({ min: -80, max: 80, noNaN: true }), lon: fc.double({ min: -179, max: 179, noNaN: true }) });

function runPipeline(fixes: readonly PipelineFix[], filter: GpsFilterSettings = defaultGpsFilterSettings, state: SubscriberState = initialState(), sink = new RecordingSink()) {
  const pipeline = new SubscriberPipeline(state, { ...pipelineSettings(), filter });
  const rejected: number[] = [];
  const metrics = fixes.map((fix) => {
    const m = pipeline.process(fix, sink);
    rejected.push(pipeline.rejected);
    return m;
  });
  return { sink, metrics, rejected, state };
}

describe('GPS filter', () => {
  describe('settings of an account', () => {
    it('are the defaults without settings: zero and duplicate fixes out, 500 m, 300 km/h, 3 fixes confirm a place', () => {
      assert.deepEqual(gpsFilterSettingsOf(undefined), { zeroCoordinates: true, duplicates: true, maxAccuracyM: 500, maxSpeedKmh: 300, confirmFixes: 3 });
      assert.deepEqual(gpsFilterSettingsOf({}), defaultGpsFilterSettings);
    });

    it('take each rule the account set when it has the rule’s type, and nothing else', () => {
      const names = Object.keys(defaultGpsFilterSettings) as (keyof GpsFilterSettings)[];
      const value = fc.oneof(fc.boolean(), fc.double(), fc.integer(), fc.string(), fc.constant(null), fc.constantFrom(Infinity, Number.NaN, -1));
      fc.assert(
        fc.property(fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), value), (given) => {
          const settings = gpsFilterSettingsOf(given);
          for (const name of names) {
            const own = Object.hasOwn(given, name) ? given[name] : undefined;
            const fallback = defaultGpsFilterSettings[name];
            const takes = typeof fallback === 'boolean' ? typeof own === 'boolean' : typeof own === 'number' && Number.isFinite(own) && own >= 0;
            assert.equal(settings[name], takes ? own : fallback, name);
          }
          assert.deepEqual(Object.keys(settings).sort(), [...names].sort());
        }),
        { seed: 34, numRuns: 1000 },
      );
    });
  });

  describe('rules', () => {
    it('never sets aside a fix within the speed limit of the last accepted one, whatever is pending', () => {
      fc.assert(
        fc.property(
          place,
          fc.integer({ min: 1, max: 3600 }),
          fc.double({ min: 0, max: 0.999, noNaN: true }),
          fc.double({ min: 0, max: 360, noNaN: true }),
          fc.integer({ min: 1, max: 500 }),
          fc.option(fc.record({ count: fc.integer({ min: 1, max: 5 }), metres: fc.integer({ min: 0, max: 100_000 }) })),
          (from, seconds, share, bearing, maxSpeedKmh, pending) => {
            const reachM = (maxSpeedKmh / 3.6) * seconds;
            const to = move(from, share * reachM, bearing);
            if (to.lat === 0 && to.lon === 0) return;
            const holder: { filterSuspect?: FilterSuspect } = {};
            if (pending) holder.filterSuspect = { ...accepted(move(from, pending.metres, bearing), T0 + 500), count: pending.count };
            const reason = judgeFix(fixAt(to, T0 + seconds * SECOND), accepted(from, T0), holder, settingsWith({ maxSpeedKmh }));
            assert.equal(reason, 0, `${share * reachM} m in ${seconds} s at most ${maxSpeedKmh} km/h`);
            assert.equal(holder.filterSuspect, undefined, 'an accepted fix ends what was pending');
          },
        ),
        { seed: 6, numRuns: 3000 },
      );
    });

    it('sets aside a lone fix the vehicle could only reach above the limit, and accepts nothing from it', () => {
      fc.assert(
        fc.property(place, fc.integer({ min: 1, max: 600 }), fc.double({ min: 1.01, max: 50, noNaN: true }), fc.double({ min: 0, max: 360, noNaN: true }), (from, seconds, times, bearing) => {
          const reachM = (300 / 3.6) * seconds;
          const to = move(from, Math.min(times * reachM, 5_000_000), bearing);
          fc.pre(distance(from, to) > reachM * 1.001);
          const holder: { filterSuspect?: FilterSuspect } = {};
          assert.equal(judgeFix(fixAt(to, T0 + seconds * SECOND), accepted(from, T0), holder, defaultGpsFilterSettings), FilterReason.speed);
          assert.equal(holder.filterSuspect?.count, 1);
          assert.equal(judgeFix(fixAt(to, T0 + seconds * SECOND), accepted(from, T0), holder, settingsWith({ maxSpeedKmh: 0 })), 0, '0 turns the rule off');
        }),
        { seed: 7, numRuns: 2000 },
      );
    });

    it('sets aside (0, 0) and a second fix at the instant of the accepted one, each only while its rule is on', () => {
      const holder = {};
      assert.equal(judgeFix(fixAt({ lat: 0, lon: 0 }, T0), null, holder, defaultGpsFilterSettings), FilterReason.zeroCoordinates);
      assert.equal(judgeFix(fixAt({ lat: 0, lon: 0 }, T0), null, holder, settingsWith({ zeroCoordinates: false })), 0);
      assert.equal(judgeFix(fixAt({ lat: 0, lon: 0.0001 }, T0), null, holder, defaultGpsFilterSettings), 0, 'only exactly zero');
      assert.equal(judgeFix(fixAt(MOSCOW, T0), accepted(MOSCOW, T0), holder, defaultGpsFilterSettings), FilterReason.duplicate);
      assert.equal(judgeFix(fixAt(MOSCOW, T0), accepted(MOSCOW, T0), holder, settingsWith({ duplicates: false })), 0);
    });

    it('sets aside a fix less accurate than the limit, only where the fix says how accurate it is', () => {
      fc.assert(
        fc.property(fc.option(fc.double({ min: 0.1, max: 100_000, noNaN: true })), fc.integer({ min: 0, max: 5000 }), (accuracyM, maxAccuracyM) => {
          const fix = { ...fixAt(move(MOSCOW, 10, 0), T0 + 60 * SECOND), accuracyM };
          const reason = judgeFix(fix, accepted(MOSCOW, T0), {}, settingsWith({ maxAccuracyM }));
          const expected = maxAccuracyM > 0 && accuracyM !== null && accuracyM > maxAccuracyM ? FilterReason.accuracy : 0;
          assert.equal(reason, expected);
        }),
        { seed: 4, numRuns: 1000 },
      );
    });

    it('accepts a new place once confirmFixes fixes in a row agree on it, never with 0', () => {
      const far = move(MOSCOW, 400_000, 45);
      const run = (confirmFixes: number) => {
        const holder: { filterSuspect?: FilterSuspect } = {};
        return [1, 2, 3, 4].map((i) => judgeFix(fixAt(move(far, i * 200, 90), T0 + i * 10 * SECOND), accepted(MOSCOW, T0), holder, settingsWith({ confirmFixes })));
      };
      assert.deepEqual(run(3), [FilterReason.speed, FilterReason.speed, 0, FilterReason.speed], 'the fourth is judged against the third, accepted, by the pipeline; here against the same reference');
      assert.deepEqual(run(0), [FilterReason.speed, FilterReason.speed, FilterReason.speed, FilterReason.speed]);
      assert.deepEqual(run(1), [0, 0, 0, 0]);
    });

    it('does not count fixes that disagree with each other as confirming a place', () => {
      const holder: { filterSuspect?: FilterSuspect } = {};
      const reasons = [0, 1, 2, 3].map((i) => judgeFix(fixAt(move(MOSCOW, 50_000, i * 90), T0 + (i + 1) * 10 * SECOND), accepted(MOSCOW, T0), holder, defaultGpsFilterSettings));
      assert.deepEqual(reasons, [3, 3, 3, 3]);
    });
  });

  describe('in the pipeline', () => {
    it('a single far jump in a straight drive never changes the trip by more than the legs it replaces', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 38 }), fc.integer({ min: 5_000, max: 3_000_000 }), fc.double({ min: 0, max: 360, noNaN: true }), (k, jumpM, bearing) => {
          const route = new Route().park(120).drive(12_000, 72, 80).park(600);
          const clean = route.fixes;
          const driveStart = clean.findIndex((f) => f.velocityKmh > 5);
          const at = driveStart + k;
          const original = clean[at]!;
          const jumped = { ...original, ...fixAt(move(pointOf(original), jumpM, bearing), original.timeMs) };
          const fixes = clean.map((f, i) => (i === at ? jumped : f));
          const base = runPipeline(clean).sink.trackList();
          const { sink, rejected, metrics } = runPipeline(fixes);
          const tracks = sink.trackList();
          assert.equal(rejected[at], FilterReason.speed, 'the jump is set aside');
          assert.equal(metrics[at], null);
          assert.equal(rejected.filter((r) => r !== 0).length, 1, 'and nothing else');
          assert.equal(tracks.length, base.length);
          const legsM = distance(pointOf(clean[at - 1]!), pointOf(original)) + distance(pointOf(original), pointOf(clean[at + 1]!));
          assert.ok(Math.abs(tracks[0]!.distanceM - base[0]!.distanceM) <= legsM + 1e-6, `${tracks[0]!.distanceM} against ${base[0]!.distanceM}`);
          assert.ok(tracks[0]!.maxSpeedKmh <= 72);
        }),
        { seed: 30, numRuns: 60 },
      );
    });

    it('the reproduction: a 30 km jump mid-trip leaves the trip as driven, not 335 km at 838 km/h', () => {
      const route = new Route().park(120).drive(20_000, 60, 90).park(600);
      const fixes = route.fixes.map((f) => ({ ...f }));
      const at = fixes.findIndex((f) => f.velocityKmh > 5) + 60;
      Object.assign(fixes[at]!, fixAt(move(pointOf(fixes[at]!), 30_000, 0), fixes[at]!.timeMs));
      const { sink, rejected } = runPipeline(fixes);
      const [trip, ...more] = sink.trackList();
      assert.equal(more.length, 0);
      assert.deepEqual(rejected.flatMap((r, i) => (r === 0 ? [] : [[i, r]])), [[at, FilterReason.speed]]);
      const driven = pathMetres(route.fixes.filter((_, i) => i !== at));
      // The trip is the drive without the jump: its fixes' path, give or take the parked jitter at its ends.
      assert.ok(Math.abs(trip!.distanceM - 20_000) < 100 && trip!.distanceM <= driven, `${trip!.distanceM} m`);
      assert.ok(trip!.maxSpeedKmh <= 60);
    });

    it('a replay from any checkpoint judges every fix as the run in order did', () => {
      const route = new Route().park(300).drive(8000, 60, 30).park(300);
      const fixes = route.fixes.map((f) => ({ ...f }));
      const rng = [7, 19, 20, 33, 50];
      for (const i of rng) Object.assign(fixes[i]!, fixAt(move(pointOf(fixes[i]!), 40_000 + i * 1000, i * 40), fixes[i]!.timeMs));
      fixes.splice(25, 0, makeFix({ timeMs: fixes[24]!.timeMs, latitude: 0, longitude: 0 }));
      const whole = runPipeline(fixes);
      for (let cut = 1; cut < fixes.length; cut += 3) {
        const head = runPipeline(fixes.slice(0, cut));
        const state = JSON.parse(JSON.stringify(head.state)) as SubscriberState;
        const tail = runPipeline(fixes.slice(cut), defaultGpsFilterSettings, state, head.sink);
        assert.deepEqual([...head.rejected, ...tail.rejected], whole.rejected, `cut at ${cut}`);
        assert.deepEqual(tail.sink.trackList(), whole.sink.trackList(), `cut at ${cut}`);
      }
      assert.deepEqual(whole.rejected.filter((r) => r !== 0).length, rng.length + 1);
    });
  });
});
