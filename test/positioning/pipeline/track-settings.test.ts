import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultTrackSettings, trackSettingsOf, type TrackSettings } from '../../../src/positioning/pipeline/pipeline-types.js';

/**
 * An account's track thresholds (CONTRACT §2): each it set, the contract's default for the rest;
 * what is not a finite number, or not a threshold, changes nothing.
 */
describe('track settings of an account', () => {
  it("are the contract's defaults without settings", () => {
    assert.deepEqual(trackSettingsOf(undefined), { moveSpeedKmh: 5, moveDistanceM: 100, stopSeconds: 300, gapSeconds: 600, minDistanceM: 200, minDurationSeconds: 60 });
    assert.deepEqual(trackSettingsOf({}), defaultTrackSettings);
  });

  it('take each threshold the account set, and only finite numbers of known names', () => {
    const names = Object.keys(defaultTrackSettings) as (keyof TrackSettings)[];
    const value = fc.oneof(fc.double({ noNaN: false }), fc.integer(), fc.constantFrom(Infinity, -Infinity, Number.NaN, 0));
    const overrides = fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), value);
    fc.assert(
      fc.property(overrides, (given) => {
        const settings = trackSettingsOf(given);
        for (const name of names) {
          const own = Object.hasOwn(given, name) ? given[name] : undefined;
          assert.equal(settings[name], own !== undefined && Number.isFinite(own) ? own : defaultTrackSettings[name], name);
        }
        assert.deepEqual(Object.keys(settings).sort(), [...names].sort());
      }),
      { seed: 12, numRuns: 2000 },
    );
    assert.equal(defaultTrackSettings.stopSeconds, 300, 'the defaults themselves are left as they were');
  });
});
