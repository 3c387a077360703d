import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseEgtsRecords, TELEDATA_SERVICE } from '../../../src/devices/egts/egts-records.js';
import { decodeTeledata } from '../../../src/devices/egts/egts-teledata.js';
import { egtsRecord, liquidLevel, posData, stateData } from '../../../scripts/trackers/egts-encoder.js';

const T0 = Date.parse('2024-05-20T10:00:00Z');

/** A subrecord of a random record: a position (its time offset in seconds) or a reading (a fuel level in litres, a voltage). */
type Item = { pos: number } | { fuel: number } | { volts: number };
const item = fc.oneof(
  fc.record({ pos: fc.integer({ min: 0, max: 86_400 }) }),
  fc.record({ fuel: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({ volts: fc.integer({ min: 0, max: 250 }) }),
);

/** The oracle: each position with the last fuel and voltage read between it and the next position (before the first: the first's). */
function expected(items: Item[]): { timeMs: number; fuel?: number; volts?: number }[] {
  const fixes: { timeMs: number; fuel?: number; volts?: number }[] = [];
  const pending: { fuel?: number; volts?: number } = {};
  for (const it of items) {
    const target = fixes.at(-1) ?? pending;
    if ('pos' in it) fixes.push({ timeMs: T0 + it.pos * 1000, ...(fixes.length === 0 ? pending : {}) });
    else if ('fuel' in it) target.fuel = it.fuel / 10;
    else target.volts = it.volts / 10;
  }
  return fixes;
}

describe('EGTS teledata records (property)', () => {
  it('every POS_DATA is one fix, in order, with the readings written after it (before the first: the first\'s)', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        const subrecords = items.map((it) =>
          'pos' in it ? posData({ timeMs: T0 + it.pos * 1000, latitude: 55, longitude: 37 }) : 'fuel' in it ? liquidLevel(1, 2, it.fuel) : stateData(it.volts / 10, 0, 0),
        );
        const [record] = parseEgtsRecords(egtsRecord({ number: 1, serviceType: TELEDATA_SERVICE, objectId: 866, subrecords }));
        const decoded = decodeTeledata(record!).map((p) => ({ timeMs: p.timeMs, ...(p.readings.lls1 !== undefined ? { fuel: p.readings.lls1 } : {}), ...(p.readings.mpsv !== undefined ? { volts: p.readings.mpsv } : {}) }));
        assert.deepEqual(decoded, expected(items));
      }),
      { seed: 34, numRuns: 300 },
    );
  });
});
