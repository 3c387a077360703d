import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultTrackSettings } from '../../src/positioning/pipeline/pipeline-types.js';
import { TrackBuilder } from '../../src/positioning/pipeline/track-builder.js';
import { TripEndSignal } from '../../src/signals/kinds/trip-end-signal.js';
import { RecordingSink, Route } from '../positioning/pipeline/fixtures.js';
import { collector } from './signal-fixtures.js';

/** The route through the track builder and the unit, as the pipeline feeds them. */
function run(route: Route, ruleIds = [5]) {
  const { found, emit } = collector();
  const sink = new RecordingSink();
  const builder = new TrackBuilder(TrackBuilder.initialState(), defaultTrackSettings);
  const unit = new TripEndSignal(TripEndSignal.initialState(), ruleIds.map((id) => ({ id })));
  for (const fix of route.fixes) {
    builder.step(fix, sink);
    unit.step(fix, builder.ended, builder.state.track?.stop?.at.t ?? null, emit);
  }
  return { found, tracks: sink.trackList() };
}

describe('trip end signal (type 11)', () => {
  it('fires when a track ends by standing still, dated and placed at its finish, with the speed there', () => {
    const route = new Route().park(60).drive(3000, 36, 90);
    const stop = route.fixes.length;
    route.park(10 * 60);
    route.fixes[stop]!.velocityKmh = 2;
    route.drive(2000, 50, 0).park(10 * 60);
    const { found, tracks } = run(route);
    assert.equal(tracks.length, 2);
    assert.deepEqual(
      found.map((f) => [f.kind, f.ruleId, f.atMs, f.latitude, f.longitude]),
      tracks.map((t) => [11, 5, t.finishMs, t.finishLat, t.finishLon]),
    );
    assert.equal(found[0]!.velocityKmh, 2);
    assert.equal(found[1]!.velocityKmh, 0);
    assert.deepEqual(found[0]!.fields, {});
  });

  it('fires when a silence ends a track, at its last fix, once the next fix arrives', () => {
    const route = new Route().park(60).drive(3000, 36, 90).silence(15 * 60).park(60);
    const { found, tracks } = run(route, [1, 2]);
    assert.equal(tracks.length, 1);
    assert.deepEqual(
      found.map((f) => [f.ruleId, f.atMs, f.velocityKmh]),
      [
        [1, tracks[0]!.finishMs, 36],
        [2, tracks[0]!.finishMs, 36],
      ],
    );
  });

  it('does not fire for a movement too short to be a track, nor for a track still open', () => {
    assert.deepEqual(run(new Route().park(60).drive(150, 20, 90).park(10 * 60)).found, []);
    assert.deepEqual(run(new Route().park(60).drive(3000, 36, 90).park(2 * 60)).found, []);
  });
});
