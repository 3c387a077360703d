import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { haversineMetres } from '../../../src/geo/geo.js';
import { defaultTrackSettings, type PipelineFix, type TrackSettings } from '../../../src/positioning/pipeline/pipeline-types.js';
import { TrackBuilder } from '../../../src/positioning/pipeline/track-builder.js';
import { distance, MINUTE, MOSCOW, move, pathMetres, RecordingSink, Route, SECOND, T0 } from './fixtures.js';

/** Float error of summing a few hundred haversine legs; far below anything a bug would show. */
const EPS_M = 1e-6;

function runTracks(fixes: readonly PipelineFix[], settings: TrackSettings = defaultTrackSettings) {
  const sink = new RecordingSink();
  const builder = new TrackBuilder(TrackBuilder.initialState(), settings);
  const mileage: number[] = [];
  fixes.forEach((fix, i) => {
    sink.step = i;
    mileage.push(builder.step(fix, sink));
  });
  const totalMileage = mileage.reduce((a, b) => a + b, 0);
  return { sink, mileage, totalMileage, builder };
}

const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

/** Dropped: nothing left in the store, and never listed as a finished track (jitter may list it in progress for a while). */
function assertNeverKept(sink: RecordingSink) {
  assert.equal(sink.tracks.size, 0);
  assert.ok(!sink.calls.some((c) => c.kind === 'track' && !c.record.isOpen), 'never listed as finished');
}

describe('geo helpers the expectations rest on', () => {
  it('haversine gives one degree of latitude as 111.195 km and agrees with move()', () => {
    near(haversineMetres(55.75, 37.61, 56.75, 37.61), 111_195.08, 0.01, 'one degree of latitude');
    for (const [metres, bearing] of [[1, 0], [150, 37], [2500, 90], [12_000, 251]] as const) {
      near(distance(MOSCOW, move(MOSCOW, metres, bearing)), metres, 1e-6, `move ${metres} m at ${bearing}°`);
    }
    const east = move(MOSCOW, 1000, 90);
    assert.ok(east.lon > MOSCOW.lon && Math.abs(east.lat - MOSCOW.lat) < 1e-4, 'bearing 90 goes east');
  });
});

describe('track builder', () => {
  it('makes no track for a vehicle parked for two hours with GPS jitter (±30 m, 0-3 km/h)', () => {
    const route = new Route().park(2 * 3600, { every: 20 });
    for (const fix of route.fixes) {
      assert.ok(distance(MOSCOW, { lat: fix.latitude, lon: fix.longitude }) <= 30 + EPS_M, 'fixture: jitter within 30 m');
      assert.ok(fix.velocityKmh >= 0 && fix.velocityKmh <= 3, 'fixture: speed 0-3 km/h');
    }
    const { sink, mileage } = runTracks(route.fixes);
    assert.deepEqual(sink.calls, []);
    assert.ok(
      mileage.every((m) => m === 0),
      'no mileage while parked',
    );
  });

  it('does not take a reported 5 km/h, or jitter of 45 m, for movement', () => {
    const route = new Route().park(30 * 60, { every: 30, jitterM: 45, maxKmh: 5 });
    route.tag(0, { velocityKmh: 5 });
    const { sink, totalMileage } = runTracks(route.fixes);
    assert.deepEqual(sink.calls, []);
    assert.equal(totalMileage, 0);
  });

  it('starts a trip when the speed goes above 5 km/h, from the last fix where the vehicle stood', () => {
    // 6 km/h, a fix every 10 s: 17 m a fix, so only the speed can tell it is moving at first.
    const route = new Route().park(5 * 60);
    const start = route.last;
    route.drive(400, 6, 45);
    const stopIndex = route.fixes.length;
    route.park(10 * 60);
    const stop = route.fixes[stopIndex]!;

    const { sink } = runTracks(route.fixes);
    const tracks = sink.trackList();
    assert.equal(tracks.length, 1);
    const [track] = tracks;
    assert.equal(track!.startMs, start.timeMs);
    assert.deepEqual([track!.startLat, track!.startLon], [start.latitude, start.longitude]);
    assert.equal(track!.finishMs, stop.timeMs);
    assert.equal(track!.isOpen, false);
  });

  it('starts a trip when a fix is more than 100 m from where the vehicle stood, even with no speed reported', () => {
    const route = new Route().park(5 * 60, { jitterM: 10 });
    const start = route.last;
    const firstMovingIndex = route.fixes.length;
    route.drive(3000, 40, 0, { every: 15, reportedKmh: 0 }); // 167 m between fixes
    assert.ok(distance(MOSCOW, { lat: route.fixes[firstMovingIndex]!.latitude, lon: route.fixes[firstMovingIndex]!.longitude }) > 100, 'fixture');
    route.park(10 * 60);

    const { sink } = runTracks(route.fixes);
    const tracks = sink.trackList();
    assert.equal(tracks.length, 1);
    assert.equal(tracks[0]!.startMs, start.timeMs);
    near(tracks[0]!.distanceM, 3000, 10 + EPS_M, 'distance of the trip, give or take the start jitter');
  });

  it('ends a trip after 5 minutes standing: finish where it stopped, distance without the standing jitter', () => {
    const route = new Route().park(5 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(3000, 40, 90);
    const stopIndex = route.fixes.length;
    route.park(10 * 60);
    const start = route.fixes[startIndex]!;
    const stop = route.fixes[stopIndex]!;
    const expectedM = pathMetres(route.fixes.slice(startIndex, stopIndex + 1));
    near(expectedM, 3000, 30 + EPS_M, 'fixture: 3 km plus at most the start jitter');

    const { sink } = runTracks(route.fixes);
    assert.deepEqual(sink.trackList(), [
      {
        startMs: start.timeMs,
        finishMs: stop.timeMs,
        startLat: start.latitude,
        startLon: start.longitude,
        finishLat: stop.latitude,
        finishLon: stop.longitude,
        distanceM: sink.tracks.get(start.timeMs)!.distanceM,
        // The highest speed of the track's fixes, from the fix where it stood to the one where it stopped.
        maxSpeedKmh: Math.max(...route.fixes.slice(startIndex, stopIndex + 1).map((f) => f.velocityKmh)),
        isOpen: false,
      },
    ]);
    near(sink.tracks.get(start.timeMs)!.distanceM, expectedM, EPS_M, 'distance up to the stop');

    // Closed by the first fix 5 minutes after the stop, not earlier; open (finish = latest fix) until then.
    const closing = sink.calls.find((c) => c.kind === 'track' && !c.record.isOpen)!;
    const closingFix = route.fixes[closing.step]!;
    assert.ok(closingFix.timeMs - stop.timeMs >= 5 * MINUTE, 'not closed before 5 minutes');
    assert.ok(route.fixes[closing.step - 1]!.timeMs - stop.timeMs < 5 * MINUTE, 'closed at the first fix after 5 minutes');
    for (const call of sink.calls) {
      if (call.kind !== 'track' || call.step >= closing.step) continue;
      assert.equal(call.record.isOpen, true);
      assert.equal(call.record.finishMs, route.fixes[call.step]!.timeMs);
    }
  });

  it('ends a trip after 10 minutes without fixes: finish at the last fix before the silence; the next movement is a new trip', () => {
    const route = new Route().park(5 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(3000, 50, 90);
    const beforeGapIndex = route.fixes.length - 1;
    route.silence(11 * 60);
    const afterGapIndex = route.fixes.length;
    route.drive(2000, 50, 180);
    const stopIndex = route.fixes.length;
    route.park(10 * 60);
    const f = route.fixes;

    const { sink, totalMileage } = runTracks(f);
    const tracks = sink.trackList();
    assert.equal(tracks.length, 2);
    const [first, second] = tracks as [(typeof tracks)[0], (typeof tracks)[0]];
    assert.equal(first.startMs, f[startIndex]!.timeMs);
    assert.equal(first.finishMs, f[beforeGapIndex]!.timeMs);
    assert.deepEqual([first.finishLat, first.finishLon], [f[beforeGapIndex]!.latitude, f[beforeGapIndex]!.longitude]);
    assert.equal(first.isOpen, false);
    near(first.distanceM, pathMetres(f.slice(startIndex, beforeGapIndex + 1)), EPS_M, 'first trip distance');

    assert.equal(second.startMs, f[afterGapIndex]!.timeMs, 'the second trip starts at the first fix after the silence');
    assert.equal(second.finishMs, f[stopIndex]!.timeMs);
    assert.equal(second.isOpen, false);
    near(second.distanceM, pathMetres(f.slice(afterGapIndex, stopIndex + 1)), EPS_M, 'second trip distance');
    near(totalMileage, first.distanceM + second.distanceM, EPS_M, 'the silence is in neither trip nor mileage');
  });

  it('ends a trip at the standing place when the silence comes after it stopped, its mileage matching', () => {
    const route = new Route().park(5 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(3000, 50, 90);
    const stopIndex = route.fixes.length;
    route.park(3 * 60, { every: 20 }); // 3 minutes of jitter, then the tracker goes quiet
    route.silence(15 * 60).drive(2000, 50, 0).park(10 * 60);
    const f = route.fixes;
    const standing = f.slice(stopIndex, stopIndex + 9);

    const { sink, totalMileage } = runTracks(f);
    const [first, second] = sink.trackList();
    assert.equal(first!.startMs, f[startIndex]!.timeMs);
    assert.equal(first!.isOpen, false);
    const finishIndex = f.findIndex((fix) => fix.timeMs === first!.finishMs);
    assert.ok(standing.includes(f[finishIndex]!), 'finished at one of the standing fixes');
    near(first!.distanceM, pathMetres(f.slice(startIndex, finishIndex + 1)), EPS_M, 'distance up to the finish');
    near(totalMileage, first!.distanceM + second!.distanceM, EPS_M, 'jitter after the finish is not mileage');
  });

  it('drops a trip shorter than 200 m', () => {
    const route = new Route().park(5 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(150, 9, 0); // 60 s
    const stopIndex = route.fixes.length;
    route.park(10 * 60);
    const f = route.fixes;
    assert.ok(pathMetres(f.slice(startIndex, stopIndex + 1)) < 200, 'fixture: under 200 m');
    assert.ok(f[stopIndex]!.timeMs - f[startIndex]!.timeMs >= 60 * SECOND, 'fixture: at least 60 s');

    const { sink } = runTracks(f);
    assertNeverKept(sink);
  });

  it('drops a trip shorter than 60 s', () => {
    const route = new Route().park(5 * 60, { every: 10 });
    const startIndex = route.fixes.length - 1;
    route.drive(300, 40, 0, { every: 5 });
    const stopIndex = route.fixes.length;
    route.park(10 * 60, { every: 10 });
    const f = route.fixes;
    assert.ok(pathMetres(f.slice(startIndex, stopIndex + 1)) >= 200, 'fixture: at least 200 m');
    assert.ok(f[stopIndex]!.timeMs - f[startIndex]!.timeMs < 60 * SECOND, 'fixture: under 60 s');

    const { sink } = runTracks(f);
    assertNeverKept(sink);
  });

  it('reports as dropped a trip that was listed in progress but ends under the minimums', () => {
    // 150 m driven; the jitter while standing pushes the running distance past 200 m for a while.
    const route = new Route().park(5 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(150, 20, 0);
    const stopIndex = route.fixes.length;
    route.park(10 * 60, { every: 20 });
    const f = route.fixes;
    assert.ok(pathMetres(f.slice(startIndex, stopIndex + 1)) < 200, 'fixture: the trip itself is under 200 m');

    const { sink } = runTracks(f);
    const listed = sink.calls.filter((c) => c.kind === 'track');
    assert.ok(listed.length > 0, 'fixture: the trip was listed while in progress');
    assert.ok(listed.every((c) => c.kind === 'track' && c.record.isOpen && c.record.startMs === f[startIndex]!.timeMs));
    assert.deepEqual(
      sink.calls.filter((c) => c.kind === 'dropTrack').map((c) => c.kind === 'dropTrack' && c.startMs),
      [f[startIndex]!.timeMs],
    );
    assert.equal(sink.tracks.size, 0);
  });

  it('reports a trip once when it qualifies, then keeps its latest fix and distance in its state, under one key', () => {
    const route = new Route().park(2 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(2000, 36, 0); // 100 m every 10 s, and no stop yet
    const f = route.fixes;
    const start = f[startIndex]!;

    const sink = new RecordingSink();
    const builder = new TrackBuilder(TrackBuilder.initialState(), defaultTrackSettings);
    let firstListed: number | null = null;
    f.forEach((fix, i) => {
      builder.step(fix, sink);
      const sofar = i > startIndex ? pathMetres(f.slice(startIndex, i + 1)) : 0;
      const qualifies = i > startIndex && sofar >= 200 && fix.timeMs - start.timeMs >= 60 * SECOND;
      if (!qualifies) {
        assert.equal(sink.tracks.size, 0, `not listed before it qualifies (fix ${i})`);
        return;
      }
      firstListed ??= i;
      assert.equal(sink.tracks.size, 1, 'one track, whose key does not change');
      const track = sink.tracks.get(start.timeMs)!;
      assert.deepEqual([track.startLat, track.startLon], [start.latitude, start.longitude]);
      assert.equal(track.finishMs, f[firstListed]!.timeMs, 'reported once, when it qualified');
      assert.equal(track.isOpen, true);
      // Readers take the finish of a track in progress from the builder's state.
      const open = builder.state.track!;
      assert.equal(open.start.t, start.timeMs);
      assert.deepEqual([open.last.t, open.last.lat, open.last.lon], [fix.timeMs, fix.latitude, fix.longitude]);
      near(open.distanceM, sofar, EPS_M, `distance so far at fix ${i}`);
    });
    assert.equal(firstListed, startIndex + 6, 'fixture: qualifies at 60 s, the sixth moving fix');
    assert.equal(sink.calls.filter((c) => c.kind === 'track').length, 1, 'no write per fix while it grows');
  });

  it('measures a winding trip as the haversine sum of its legs', () => {
    const route = new Route().park(5 * 60, { jitterM: 0 });
    const startIndex = route.fixes.length - 1;
    const legs: [number, number][] = [
      [800, 10],
      [1200, 95],
      [450, 170],
      [2000, 260],
      [333, 315],
    ];
    for (const [metres, bearing] of legs) route.drive(metres, 45, bearing);
    route.park(10 * 60, { jitterM: 0 });
    const legsM = legs.reduce((sum, [m]) => sum + m, 0);

    const { sink } = runTracks(route.fixes);
    const [track] = sink.trackList();
    assert.equal(track!.startMs, route.fixes[startIndex]!.timeMs);
    near(track!.distanceM, legsM, 1e-6, 'sum of legs');
  });

  it('does not split a trip at traffic lights shorter than 5 minutes', () => {
    const route = new Route().park(5 * 60);
    const startIndex = route.fixes.length - 1;
    route.drive(1500, 40, 90).park(4.5 * 60); // the last standing fix is 4 minutes after the first
    route.drive(1500, 40, 90).park(2 * 60);
    route.drive(1000, 40, 0);
    const stopIndex = route.fixes.length;
    route.park(10 * 60);
    const f = route.fixes;

    const { sink } = runTracks(f);
    const tracks = sink.trackList();
    assert.equal(tracks.length, 1);
    assert.equal(tracks[0]!.startMs, f[startIndex]!.timeMs);
    assert.equal(tracks[0]!.finishMs, f[stopIndex]!.timeMs);
    near(tracks[0]!.distanceM, pathMetres(f.slice(startIndex, stopIndex + 1)), EPS_M, 'distance, stops included');
  });

  it('returns per fix a mileage that sums to the distances of the trips (closed and in progress)', () => {
    const route = new Route().park(5 * 60);
    route.drive(3000, 50, 90).park(6 * 60);
    route.drive(2000, 60, 0).park(3 * 60).silence(15 * 60);
    route.drive(1000, 30, 200).park(7 * 60);
    route.drive(800, 30, 300); // still driving at the end

    const { sink, totalMileage, builder } = runTracks(route.fixes);
    const tracks = sink.trackList();
    assert.equal(tracks.length, 4);
    assert.deepEqual(
      tracks.map((t) => t.isOpen),
      [false, false, false, true],
    );
    // The track in progress: its distance so far is in the builder's state.
    const inProgressM = builder.state.track!.distanceM;
    near(
      totalMileage,
      tracks.slice(0, -1).reduce((sum, t) => sum + t.distanceM, 0) + inProgressM,
      EPS_M,
      'mileage = sum of track distances',
    );
  });

  it('adds no mileage for a trip it drops', () => {
    // A 150 m hop to the other end of the car park, then a real 2 km trip.
    const route = new Route().park(5 * 60);
    route.drive(150, 9, 0).park(10 * 60);
    route.drive(2000, 40, 90).park(10 * 60);

    const { sink, totalMileage } = runTracks(route.fixes);
    const tracks = sink.trackList();
    assert.equal(tracks.length, 1, 'the hop is dropped');
    near(totalMileage, tracks[0]!.distanceM, EPS_M, 'mileage = the one kept trip');
  });

  it('property: over random days ending parked, mileage sums to the kept tracks, which meet the minimums and never overlap', () => {
    const segment = fc.oneof(
      fc.record({ kind: fc.constant('park' as const), seconds: fc.integer({ min: 20, max: 900 }), every: fc.integer({ min: 5, max: 60 }), jitterM: fc.integer({ min: 0, max: 30 }) }),
      fc.record({
        kind: fc.constant('drive' as const),
        metres: fc.integer({ min: 10, max: 4000 }),
        kmh: fc.integer({ min: 6, max: 110 }),
        bearing: fc.integer({ min: 0, max: 359 }),
        every: fc.integer({ min: 1, max: 30 }),
      }),
      fc.record({ kind: fc.constant('silence' as const), seconds: fc.integer({ min: 30, max: 1800 }) }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 14 }), fc.integer(), (segments, seed) => {
        const route = new Route(MOSCOW, T0, seed);
        for (const s of segments) {
          if (s.kind === 'park') route.park(s.seconds, { every: s.every, jitterM: s.jitterM });
          else if (s.kind === 'drive') route.drive(s.metres, s.kmh, s.bearing, { every: s.every });
          else route.silence(s.seconds);
        }
        route.park(6 * 60); // every trip over, so each one is either kept or dropped
        const { sink, totalMileage } = runTracks(route.fixes);
        const tracks = sink.trackList();
        const kept = tracks.reduce((sum, t) => sum + t.distanceM, 0);
        near(totalMileage, kept, 1e-6 * Math.max(1, route.fixes.length), 'mileage = sum of kept track distances');
        for (const [i, t] of tracks.entries()) {
          assert.ok(t.distanceM >= 200 && t.finishMs - t.startMs >= 60 * SECOND, 'a kept track meets the minimums');
          if (i > 0) assert.ok(t.startMs >= tracks[i - 1]!.finishMs, 'tracks do not overlap');
          if (i < tracks.length - 1) assert.equal(t.isOpen, false, 'only the latest track can be in progress');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('uses the thresholds it is given', () => {
    // A 1 km trip with a 3-minute stop in the middle: one trip by default, two when a stop is 2 minutes.
    const route = new Route().park(5 * 60);
    route.drive(1000, 40, 90).park(3 * 60);
    route.drive(1000, 40, 90).park(10 * 60);
    assert.equal(runTracks(route.fixes).sink.tracks.size, 1);
    assert.equal(runTracks(route.fixes, { ...defaultTrackSettings, stopSeconds: 120 }).sink.tracks.size, 2);
    assert.equal(runTracks(route.fixes, { ...defaultTrackSettings, minDistanceM: 2500 }).sink.tracks.size, 0);
  });
});
