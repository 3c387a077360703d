import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { valueProblem } from '../../src/customfields/custom-field-values.js';

/**
 * The value checks of custom fields against independent oracles: calendar arithmetic for dates
 * (not JavaScript's Date), clock ranges for times, BigInt for integers, and JSON's number grammar
 * (JSON.parse) for doubles. Seeded, so a failure repeats.
 */
const SEED = 16;
const runs = { seed: SEED, numRuns: 3000 };

const daysIn = (year: number, month: number) =>
  [31, (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('custom field values', () => {
  it('a date YYYY-MM-DD fits exactly when that day exists in the Gregorian calendar', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
        const exists = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
        assert.equal(valueProblem('date', text) === null, exists, text);
      }),
      runs,
    );
  });

  it('a time fits exactly when its hours, minutes and seconds are on a clock', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.option(fc.integer({ min: 0, max: 99 })), (h, m, s) => {
        const text = `${pad(h)}:${pad(m)}${s === null ? '' : `:${pad(s)}`}`;
        const onClock = h < 24 && m < 60 && (s === null || s < 60);
        assert.equal(valueProblem('time', text) === null, onClock, text);
      }),
      runs,
    );
  });

  it('an integer fits exactly when it is decimal digits (with a sign) of at most 15 of them', () => {
    const chars = fc.constantFrom(...'0123456789-+.e x'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { minLength: 1, maxLength: 18 }).map((c) => c.join('')), (text) => {
        let oracle: boolean;
        try {
          const digits = text.startsWith('-') ? text.slice(1) : text;
          oracle = digits.length >= 1 && digits.length <= 15 && BigInt(digits).toString().length <= 15 && !/[^0-9]/.test(digits);
        } catch {
          oracle = false;
        }
        assert.equal(valueProblem('integer', text) === null, oracle, text);
      }),
      runs,
    );
  });

  it('a double fits exactly when it reads as a finite JSON number (leading zeros allowed)', () => {
    const chars = fc.constantFrom(...'0123456789-.eE+x,'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { minLength: 1, maxLength: 12 }).map((c) => c.join('')), (text) => {
        // JSON's grammar forbids leading zeros ("01"); a field value may have them, so strip them for the oracle.
        const normalised = text.replace(/^(-?)0+(?=\d)/, '$1');
        let oracle: boolean;
        try {
          oracle = typeof JSON.parse(normalised) === 'number' && Number.isFinite(JSON.parse(normalised)) && !normalised.startsWith('+');
        } catch {
          oracle = false;
        }
        assert.equal(valueProblem('double', text) === null, oracle, text);
      }),
      runs,
    );
  });

  it('an empty or absent value fits every type, and select takes only its choices when it has some', () => {
    for (const type of ['string', 'text', 'date', 'time', 'integer', 'double', 'boolean', 'select', 'picture', 'file'] as const) {
      for (const value of [null, undefined, '']) assert.equal(valueProblem(type, value), null, `${type} ${String(value)}`);
    }
    assert.equal(valueProblem('select', 'b', ['a', 'b']), null);
    assert.notEqual(valueProblem('select', 'B', ['a', 'b']), null);
    assert.equal(valueProblem('select', 'anything', []), null);
    assert.equal(valueProblem('boolean', 'False'), null);
    assert.notEqual(valueProblem('boolean', '1'), null);
  });
});
