import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ErrorObject } from 'ajv';
import fc from 'fast-check';
import { formatDateTime, parseDateTime } from '../../src/http/datetime.js';
import { ApiError } from '../../src/http/errors.js';
import { resolvePeriod } from '../../src/http/list-params.js';
import { validationError, validatorCompiler } from '../../src/http/validation.js';
import { LocationListQuery } from '../../src/positioning/location-schema.js';

/**
 * Properties of the list parameters of CONTRACT §1: the period rules of `resolvePeriod`
 * (defaults, 225 for mixed forms, 2 for a reversed period or an unreadable date-time), and
 * `count` and ids as the query-string validator and its error mapping see them.
 */

const HOUR = 3_600_000;
const DEFAULT_PERIOD = 72 * HOUR;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham'];
const NAMES = [
  { from: 'dateFrom', to: 'dateTo' },
  { from: 'startDate', to: 'finishDate' },
];

type Form = 'Z' | 'offset' | 'local';

/** A date-time of an instant between 2000 and 2040, in one of the three forms. */
const dateTime = fc.record({
  epochMs: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
  form: fc.constantFrom<Form>('Z', 'offset', 'local'),
});
type Given = { epochMs: number; form: Form };

/** The text of a date-time as a client writes it; local forms are the wall clock of the account's zone. */
function textOf({ epochMs, form }: Given, tz: string): string {
  const withOffset = formatDateTime(epochMs, tz);
  if (form === 'offset') return withOffset;
  if (form === 'local') return withOffset.slice(0, -6);
  return `${new Date(epochMs).toISOString().slice(0, -1)}Z`;
}

const hasOffset = (form: Form) => form !== 'local';
/** The instant a text names (a local wall clock shown twice in an overlap names the earlier one). */
const instantOf = (given: Given, tz: string) => parseDateTime(textOf(given, tz), tz)!.epochMs;

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

const now = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) });
const zone = fc.constantFrom(...ZONES);
const names = fc.constantFrom(...NAMES);
const runs = { numRuns: 500 };

describe('resolvePeriod (properties)', () => {
  it('without dates: the 72 hours before now', () => {
    fc.assert(
      fc.property(now, zone, names, (nowMs, tz, n) => {
        assert.deepEqual(resolvePeriod({}, n, tz, nowMs), { fromMs: nowMs - DEFAULT_PERIOD, toMs: nowMs });
      }),
    );
  });

  it('with only the end: the 72 hours before it', () => {
    fc.assert(
      fc.property(dateTime, now, zone, names, (to, nowMs, tz, n) => {
        const toMs = instantOf(to, tz);
        assert.deepEqual(resolvePeriod({ [n.to]: textOf(to, tz) }, n, tz, nowMs), { fromMs: toMs - DEFAULT_PERIOD, toMs });
      }),
      runs,
    );
  });

  it('with only the start: until now, or code 2 naming the start when it is after now', () => {
    fc.assert(
      fc.property(dateTime, now, zone, names, (from, nowMs, tz, n) => {
        const fromMs = instantOf(from, tz);
        const run = () => resolvePeriod({ [n.from]: textOf(from, tz) }, n, tz, nowMs);
        if (fromMs <= nowMs) {
          assert.deepEqual(run(), { fromMs, toMs: nowMs });
        } else {
          const error = refusal(run);
          assert.equal(error.code, 2);
          assert.equal(error.status, 400);
          assert.ok(error.validationErrors?.[n.from], `names ${n.from}`);
        }
      }),
      runs,
    );
  });

  it('both in the same kind of form: the period as given, or code 2 naming the start when reversed', () => {
    const sameKind = fc.tuple(dateTime, dateTime).filter(([a, b]) => hasOffset(a.form) === hasOffset(b.form));
    fc.assert(
      fc.property(sameKind, now, zone, names, ([from, to], nowMs, tz, n) => {
        const fromMs = instantOf(from, tz);
        const toMs = instantOf(to, tz);
        const run = () => resolvePeriod({ [n.from]: textOf(from, tz), [n.to]: textOf(to, tz) }, n, tz, nowMs);
        if (fromMs <= toMs) {
          assert.deepEqual(run(), { fromMs, toMs });
        } else {
          const error = refusal(run);
          assert.equal(error.code, 2);
          assert.ok(error.validationErrors?.[n.from], `names ${n.from}`);
        }
      }),
      // The same instant twice is a period of no length, not a reversed one.
      { ...runs, examples: [[[{ epochMs: Date.UTC(2026, 4, 20), form: 'Z' }, { epochMs: Date.UTC(2026, 4, 20), form: 'offset' }], Date.UTC(2026, 4, 21), 'Asia/Kolkata', NAMES[0]!]] },
    );
  });

  it('one with an offset and one without: code 225 naming both, whatever their order and the period', () => {
    const mixed = fc.tuple(dateTime, dateTime).filter(([a, b]) => hasOffset(a.form) !== hasOffset(b.form));
    fc.assert(
      fc.property(mixed, now, zone, names, ([from, to], nowMs, tz, n) => {
        const error = refusal(() => resolvePeriod({ [n.from]: textOf(from, tz), [n.to]: textOf(to, tz) }, n, tz, nowMs));
        assert.equal(error.code, 225);
        assert.equal(error.status, 400);
        assert.equal(error.kind, 'REQUEST_DATE_TIME_INCONSISTENT_FORMAT');
        assert.ok(error.validationErrors?.[n.from] && error.validationErrors[n.to], 'names both');
      }),
      runs,
    );
  });

  it('an unreadable date-time or one given twice is code 2 naming it, whatever the other one is', () => {
    const unreadable = fc.oneof(
      fc.string().filter((s) => parseDateTime(s, 'UTC') === null),
      fc.constantFrom('2026-02-30T00:00:00Z', '2026-05-20', 'now', '', "2026-05-20T00:00:00Z' OR 1=1 --"),
      fc.array(fc.constant('2026-05-20T00:00:00Z'), { minLength: 2, maxLength: 3 }),
    );
    fc.assert(
      fc.property(unreadable, fc.option(dateTime), fc.boolean(), now, zone, names, (bad, other, badIsStart, nowMs, tz, n) => {
        const [badName, otherName] = badIsStart ? [n.from, n.to] : [n.to, n.from];
        const query: Record<string, unknown> = { [badName]: bad };
        if (other) query[otherName] = textOf(other, tz);
        const error = refusal(() => resolvePeriod(query, n, tz, nowMs));
        assert.equal(error.code, 2);
        assert.deepEqual(Object.keys(error.validationErrors ?? {}), [badName]);
      }),
      runs,
    );
  });
});

/** The query-string validator the routes use, and the mapping of its first error to the contract's codes. */
const validateListQuery = validatorCompiler({ schema: LocationListQuery, httpPart: 'querystring', method: 'GET', url: '/' }) as unknown as ((data: unknown) => boolean) & {
  errors?: ErrorObject[] | null;
};

function check(query: Record<string, unknown>): { ok: true; value: Record<string, unknown> } | { ok: false; error: ApiError } {
  const input = { ...query };
  if (validateListQuery(input)) return { ok: true, value: input };
  return { ok: false, error: validationError(validateListQuery.errors ?? [], 'querystring', input) };
}

const bigInteger = fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n });
const nonNumeric = fc.string().filter((s) => s.trim() !== '' && Number.isNaN(Number(s)));

describe('count and ids in the query (properties)', () => {
  it('count: 1..1000 is taken as that number, above 1000 is code 67, below 1 is code 2', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -5, max: 1005 }), bigInteger), (n) => {
        const result = check({ count: String(n) });
        const value = Number(n);
        if (value >= 1 && value <= 1000) {
          assert.ok(result.ok, String(n));
          assert.equal(result.value.count, value);
          return;
        }
        assert.ok(!result.ok, String(n));
        assert.equal(result.error.code, value > 1000 ? 67 : 2, String(n));
        assert.ok(result.error.validationErrors?.count, 'names count');
      }),
      { numRuns: 1000 },
    );
  });

  it('count: a fraction or text is code 2', () => {
    const fraction = fc.tuple(fc.integer({ min: 0, max: 999 }), fc.stringMatching(/^\d{0,5}[1-9]$/)).map(([i, f]) => `${i}.${f}`);
    fc.assert(
      fc.property(fc.oneof(fraction, nonNumeric), (text) => {
        const result = check({ count: text });
        assert.ok(!result.ok, text);
        assert.equal(result.error.code, 2, text);
        assert.ok(result.error.validationErrors?.count);
      }),
      { numRuns: 500 },
    );
  });

  it('lastLocationID and subscriberIDs: integers 1..2^53-1 are taken, anything else is code 2', () => {
    fc.assert(
      fc.property(fc.oneof(bigInteger, fc.bigInt({ min: 1n, max: 2n ** 53n + 5n })), fc.constantFrom('lastLocationID', 'subscriberIDs'), (n, name) => {
        const given = name === 'subscriberIDs' ? [String(n)] : String(n);
        const result = check({ [name]: given });
        if (n >= 1n && n <= BigInt(Number.MAX_SAFE_INTEGER)) {
          assert.ok(result.ok, String(n));
          assert.deepEqual(result.value[name], name === 'subscriberIDs' ? [Number(n)] : Number(n));
          return;
        }
        assert.ok(!result.ok, String(n));
        assert.equal(result.error.code, 2, String(n));
        assert.ok(Object.keys(result.error.validationErrors ?? {}).some((k) => k.startsWith(name)));
      }),
      { numRuns: 1000 },
    );
  });

  it('ids: a fraction or text anywhere in the list is code 2 naming the list', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }).map(String), { maxLength: 5 }), fc.oneof(nonNumeric, fc.constant('1.5')), fc.nat(), (good, bad, at) => {
        const ids = [...good];
        ids.splice(at % (good.length + 1), 0, bad);
        const result = check({ subscriberIDs: ids });
        assert.ok(!result.ok, JSON.stringify(ids));
        assert.equal(result.error.code, 2);
        assert.ok(Object.keys(result.error.validationErrors ?? {}).some((k) => k.startsWith('subscriberIDs')));
      }),
      { numRuns: 500 },
    );
  });
});
