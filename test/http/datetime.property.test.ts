import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDateTime, parseDateTime } from '../../src/http/datetime.js';

/**
 * Properties of the date-time rules of CONTRACT §1, checked against an oracle built on
 * `Intl.DateTimeFormat` (the wall clock of an instant in a zone), not on the code under test.
 */

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe', // DST of 30 minutes
  'Asia/Kolkata', // +05:30, no DST
  'Pacific/Chatham', // +12:45 / +13:45
  'Asia/Kathmandu', // +05:45
  'America/St_Johns', // -03:30 with DST
  'America/Sao_Paulo', // southern DST until 2019
  'Europe/Dublin',
  'Africa/Casablanca', // DST suspended every Ramadan
  'Pacific/Kiritimati', // +14
  'Pacific/Pago_Pago', // -11
  'Europe/Moscow',
];
const DST_ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Europe/Dublin', 'Africa/Casablanca'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Parsing refuses years before 1900; a day's margin keeps every zone's wall clock inside. */
const EARLIEST = Date.UTC(1900, 0, 2);
const LATEST = Date.UTC(2199, 11, 31);
/** Since 1936 every zone above keeps whole-minute offsets (older local mean times have seconds). */
const MODERN_FROM = Date.UTC(1936, 0, 1);
const MODERN_TO = Date.UTC(2100, 0, 1);

/** The contract's grammar, restated: `YYYY-MM-DDTHH:mm[:ss[.f{1,7}]]` then `Z`, `±HH:MM` or nothing. */
const GRAMMAR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})?$/;

// ---- oracle ----

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of an instant in a zone, as milliseconds of the same reading in UTC. */
function wallMs(epochMs: number, zone: string): number {
  const parts = Object.fromEntries(wallFormatter(zone).formatToParts(epochMs).map((p) => [p.type, p.value]));
  const millis = ((epochMs % 1000) + 1000) % 1000;
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second), millis);
}

const trueOffsetMinutes = (epochMs: number, zone: string) => (wallMs(epochMs, zone) - epochMs) / MINUTE;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDTHH:mm:ss` (plus `.mmm` when asked) of a wall-clock reading held as UTC milliseconds. */
function wallText(wall: number, withMillis = false): string {
  const d = new Date(wall);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return withMillis ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
}

function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Every instant whose wall clock in `zone` reads `wall`: none in a DST gap, two in an overlap. */
function instantsShowing(wall: number, zone: string): { instants: number[]; offsets: number[] } {
  const offsets = new Set<number>();
  for (let k = -30; k <= 30; k++) offsets.add(trueOffsetMinutes(wall + k * 30 * MINUTE, zone));
  const instants = [...offsets].map((o) => wall - o * MINUTE).filter((t) => wallMs(t, zone) === wall);
  return { instants: [...new Set(instants)].sort((a, b) => a - b), offsets: [...offsets] };
}

/** The offset changes of a zone in a year, found day by day and narrowed to the minute. */
const transitionCache = new Map<string, { at: number; before: number; after: number }[]>();
function transitions(zone: string, year: number) {
  const key = `${zone}|${year}`;
  const cached = transitionCache.get(key);
  if (cached) return cached;
  const found: { at: number; before: number; after: number }[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  for (let t = Date.UTC(year, 0, 1); t < end; t += DAY) {
    const before = trueOffsetMinutes(t, zone);
    const after = trueOffsetMinutes(t + DAY, zone);
    if (before === after) continue;
    let lo = t;
    let hi = t + DAY;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (trueOffsetMinutes(mid, zone) === before) lo = mid;
      else hi = mid;
    }
    found.push({ at: hi, before, after });
  }
  transitionCache.set(key, found);
  return found;
}

// ---- arbitraries ----

const zone = fc.constantFrom(...ZONES);
const anyInstant = fc.integer({ min: EARLIEST, max: LATEST });
const modernInstant = fc.integer({ min: MODERN_FROM, max: MODERN_TO });
/** Offsets the grammar can write: up to ±18:59 is accepted by parsing. */
const offsetMinutesArb = fc.integer({ min: -(18 * 60 + 59), max: 18 * 60 + 59 });
const fractionDigits = fc.stringMatching(/^\d{1,7}$/);
const suffix = fc.constantFrom('Z', '+03:00', '-05:30', '');

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

const runs = { numRuns: 500 };

describe('parseDateTime and formatDateTime (properties)', () => {
  it('round-trip: formatting any instant in any zone and parsing it back gives the instant', () => {
    fc.assert(
      fc.property(anyInstant, zone, (epochMs, tz) => {
        const text = formatDateTime(epochMs, tz);
        assert.match(text, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}$/);
        assert.equal(text.includes('.'), epochMs % 1000 !== 0, 'fractional seconds only when not zero');
        assert.deepEqual(parseDateTime(text, tz), { epochMs, hasOffset: true });
        // Written with an offset, the text means the same instant whatever the reader's zone.
        assert.equal(parseDateTime(text, 'Pacific/Chatham')?.epochMs, epochMs);
      }),
      runs,
    );
  });

  it("formatDateTime writes the zone's wall clock and its offset at that instant", () => {
    fc.assert(
      fc.property(modernInstant, zone, (epochMs, tz) => {
        const text = formatDateTime(epochMs, tz);
        assert.equal(text.slice(0, 19), wallText(wallMs(epochMs, tz)), text);
        assert.equal(text.slice(-6), offsetText(trueOffsetMinutes(epochMs, tz)), text);
      }),
      // St. John's changed its clocks at 00:01 local time until 2010: 02:31Z, not on a quarter hour.
      { ...runs, examples: [[Date.UTC(1990, 9, 28, 2, 35), 'America/St_Johns']] },
    );
  });

  it('offset and Z forms name the same instant, with seconds and fractions optional', () => {
    fc.assert(
      fc.property(anyInstant, offsetMinutesArb, fc.option(fractionDigits), zone, (epochMs, offset, fraction, tz) => {
        const whole = epochMs - (((epochMs % 1000) + 1000) % 1000);
        // The fraction in milliseconds, kept apart from the epoch so that no float rounding creeps in.
        const fractionMs = fraction === null ? 0 : Number(fraction.padEnd(7, '0')) / 10_000;
        const tail = fraction === null ? '' : `.${fraction}`;
        const asZ = parseDateTime(`${wallText(whole)}${tail}Z`, tz);
        const asOffset = parseDateTime(`${wallText(whole + offset * MINUTE)}${tail}${offsetText(offset)}`, tz);
        for (const parsed of [asZ, asOffset]) {
          assert.ok(parsed, 'parsed');
          assert.equal(parsed.hasOffset, true);
          // Milliseconds are kept; further fraction digits may be dropped but never add a millisecond.
          assert.ok(Math.abs(parsed.epochMs - whole - fractionMs) < 1, `${parsed.epochMs} vs ${whole} + ${fractionMs}`);
        }
        assert.equal(asZ!.epochMs, asOffset!.epochMs);
        assert.equal(parseDateTime(`${wallText(whole)}+00:00`, tz)?.epochMs, whole);
        assert.equal(parseDateTime(`${wallText(whole)}-00:00`, tz)?.epochMs, whole);
        if (whole % MINUTE === 0) assert.equal(parseDateTime(`${wallText(whole).slice(0, 16)}Z`, tz)?.epochMs, whole, 'seconds optional');
      }),
      runs,
    );
  });

  it('local forms resolve in the zone: the instant showing that wall clock (the earlier in an overlap)', () => {
    fc.assert(
      fc.property(modernInstant, zone, fc.boolean(), (instant, tz, withMillis) => {
        const wall = wallMs(instant, tz) - (withMillis ? 0 : wallMs(instant, tz) % 1000);
        checkLocal(wall, tz, withMillis);
      }),
      runs,
    );
  });

  it('local forms near DST changes: gaps take one of the two offsets, overlaps the earlier instant', () => {
    const seen = { gap: 0, overlap: 0, plain: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...DST_ZONES),
        fc.integer({ min: 1990, max: 2037 }),
        fc.nat(),
        fc.integer({ min: -150, max: 150 }),
        (tz, year, pick, deltaMinutes) => {
          const changes = transitions(tz, year);
          fc.pre(changes.length > 0);
          const change = changes[pick % changes.length]!;
          const wall = change.at + change.before * MINUTE + deltaMinutes * MINUTE;
          seen[checkLocal(wall, tz, false)]++;
        },
      ),
      // St. John's changed its clocks at 00:01 local time until 2010, off the quarter hour.
      { numRuns: 400, examples: [['America/St_Johns', 1990, 0, 60], ['America/St_Johns', 1990, 1, 0]] },
    );
    assert.ok(seen.gap > 0 && seen.overlap > 0, `gaps and overlaps were both tried: ${JSON.stringify(seen)}`);
  });

  it('local times of a year whose zone had a seconds offset still resolve in that zone (Asia/Kolkata, 1901)', () => {
    // Madras time, +05:21:10, until 1906: the local wall clock is off by the offset, not by 5 hours.
    const parsed = parseDateTime('1901-01-01T12:00:00', 'Asia/Kolkata');
    assert.ok(parsed);
    assert.ok(Math.abs(parsed.epochMs - (Date.UTC(1901, 0, 1, 12) - (5 * 3600 + 21 * 60 + 10) * 1000)) < MINUTE, new Date(parsed.epochMs).toISOString());
  });

  it('random text is refused with null and never throws', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'0123456789-:T.Z+ '), maxLength: 30 }),
    );
    fc.assert(
      fc.property(text, zone, (s, tz) => {
        let parsed: ReturnType<typeof parseDateTime> = null;
        assert.doesNotThrow(() => {
          parsed = parseDateTime(s, tz);
        });
        if (!GRAMMAR.test(s)) assert.equal(parsed, null, JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('out-of-range months, days, hours, minutes and seconds are refused with null', () => {
    const component = fc.oneof(
      fc.record({ field: fc.constant('month' as const), value: fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })) }),
      fc.record({ field: fc.constant('day' as const), value: fc.oneof(fc.constant(0), fc.integer({ min: 32, max: 99 })) }),
      fc.record({ field: fc.constant('dayAfterEnd' as const), value: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ field: fc.constant('hour' as const), value: fc.integer({ min: 24, max: 99 }) }),
      fc.record({ field: fc.constant('minute' as const), value: fc.integer({ min: 60, max: 99 }) }),
      fc.record({ field: fc.constant('second' as const), value: fc.integer({ min: 60, max: 99 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2200 }), fc.integer({ min: 1, max: 12 }), component, suffix, zone, (year, month, bad, end, tz) => {
        const p = { year, month, day: 15, hour: 12, minute: 30, second: 45 };
        if (bad.field === 'dayAfterEnd') p.day = daysIn(year, month) + bad.value;
        else p[bad.field] = bad.value;
        const text = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${end}`;
        assert.equal(parseDateTime(text, tz), null, text);
      }),
      runs,
    );
  });

  it('29 February exists only in leap years (1900 and 2100 are not, 2000 is)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2400 }), suffix, zone, (year, end, tz) => {
        const parsed = parseDateTime(`${year}-02-29T12:00:00${end}`, tz);
        assert.equal(parsed !== null, isLeap(year), String(year));
      }),
      runs,
    );
    assert.equal(parseDateTime('1900-02-29T12:00:00Z', 'UTC'), null);
    assert.equal(parseDateTime('2100-02-29T12:00:00Z', 'UTC'), null);
    assert.notEqual(parseDateTime('2000-02-29T12:00:00Z', 'UTC'), null);
  });

  it('near misses of the grammar are refused with null', () => {
    const mutations: [string, (s: string) => string][] = [
      ['space for T', (s) => s.replace('T', ' ')],
      ['lower-case t', (s) => s.replace('T', 't')],
      ['lower-case z', (s) => `${s}z`],
      ['offset without colon', (s) => `${s}+0300`],
      ['offset of hours only', (s) => `${s}+03`],
      ['offset after Z', (s) => `${s}Z+03:00`],
      ['8 fraction digits', (s) => `${s}.12345678Z`],
      ['comma fraction', (s) => `${s},5Z`],
      ['empty fraction', (s) => `${s}.Z`],
      ['two-digit year', (s) => s.slice(2)],
      ['five-digit year', (s) => `+0${s}`],
      ['one-digit month', (s) => `${s.slice(0, 5)}${Number(s.slice(5, 7))}${s.slice(7)}`],
      ['hour only', (s) => s.slice(0, 13)],
      ['leading space', (s) => ` ${s}`],
      ['trailing space', (s) => `${s} `],
      ['trailing newline', (s) => `${s}\n`],
      ['date only', (s) => s.slice(0, 10)],
      ['slashes', (s) => s.replace(/-/g, '/')],
      ['full-width digit', (s) => s.replace('2', '２')],
    ];
    fc.assert(
      fc.property(modernInstant, fc.constantFrom(...mutations), zone, (epochMs, [, mutate], tz) => {
        const text = mutate(wallText(epochMs));
        fc.pre(!GRAMMAR.test(text));
        assert.equal(parseDateTime(text, tz), null, JSON.stringify(text));
      }),
      runs,
    );
  });
});

/**
 * Checks a local (offset-less) reading against the oracle and says which case it was:
 * one instant shows it (that one), two do (the earlier), none does (a gap: one of the offsets around it).
 */
function checkLocal(wall: number, tz: string, withMillis: boolean): 'plain' | 'overlap' | 'gap' {
  const text = wallText(wall, withMillis);
  const parsed = parseDateTime(text, tz);
  assert.ok(parsed, text);
  assert.equal(parsed.hasOffset, false);
  const { instants, offsets } = instantsShowing(wall, tz);
  if (instants.length > 0) {
    assert.equal(parsed.epochMs, instants[0], `${text} in ${tz}: ${instants.map((t) => new Date(t).toISOString()).join(', ')}`);
    return instants.length > 1 ? 'overlap' : 'plain';
  }
  const choices = offsets.map((o) => wall - o * MINUTE);
  assert.ok(choices.includes(parsed.epochMs), `${text} in ${tz} (a gap) resolved to ${new Date(parsed.epochMs).toISOString()}`);
  return 'gap';
}
