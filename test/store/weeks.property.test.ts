import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WEEK_MS, weekPartitionName, weekStartMs } from '../../src/store/weeks.js';

/** The weeks of the locations' partitions, against the calendar's own idea of a Monday (Date, UTC). */
describe('weeks of the partitions', () => {
  it('start on the Monday 00:00 UTC at or before any instant, and name it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -4e12, max: 8e12 }), (ms) => {
        const start = weekStartMs(ms);
        const monday = new Date(start);
        assert.ok(start <= ms && ms < start + WEEK_MS);
        assert.equal(monday.getUTCDay(), 1);
        assert.equal(monday.getUTCHours() + monday.getUTCMinutes() + monday.getUTCSeconds() + monday.getUTCMilliseconds(), 0);
        assert.equal(weekPartitionName('locations', start), `locations_w${monday.toISOString().slice(0, 10).replaceAll('-', '')}`);
      }),
      { numRuns: 2000 },
    );
  });
});
