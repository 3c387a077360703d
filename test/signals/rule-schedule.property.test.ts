import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { inSchedule, type RuleSchedule } from '../../src/signals/rule-schedule.js';

/**
 * When a rule may fire (CONTRACT §4: validity period, ISO weekdays, a daily window in the account's
 * zone that may pass midnight), tested directly: hand-picked edges, then random rules and instants
 * against an oracle that reads the wall clock with Intl (not the offset arithmetic the rule uses)
 * and treats the schedule as intervals of the week.
 */

const WEEK_MINUTES = 7 * 1440;
const ZONES = ['UTC', 'Europe/Moscow', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham', 'Asia/Kolkata'];
const WEEKDAY_NUMBERS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at an instant, as minutes since Monday 00:00. */
function minuteOfWeek(atMs: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(atMs).map((p) => [p.type, p.value]));
  return (WEEKDAY_NUMBERS[parts.weekday!]! - 1) * 1440 + Number(parts.hour) * 60 + Number(parts.minute);
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

/** Each chosen weekday opens a window at timeFrom lasting until the next timeTo (a whole day when equal). */
function oracle(rule: RuleSchedule, atMs: number, timeZone: string): boolean {
  if (rule.validFromMs !== null && atMs < rule.validFromMs) return false;
  if (rule.validToMs !== null && atMs > rule.validToMs) return false;
  const from = minutes(rule.timeFrom);
  const length = (minutes(rule.timeTo) - from + 1440) % 1440 || 1440;
  const now = minuteOfWeek(atMs, timeZone);
  return rule.weekdays.some((day) => (now - ((day - 1) * 1440 + from) + WEEK_MINUTES) % WEEK_MINUTES < length);
}

const rule = (timeFrom: string, timeTo: string, weekdays: number[], validFromMs: number | null = null, validToMs: number | null = null): RuleSchedule => ({
  timeFrom,
  timeTo,
  weekdays,
  validFromMs,
  validToMs,
});

/** 2026-05-18 is a Monday. */
const at = (day: number, hhmm: string) => Date.parse(`2026-05-${String(17 + day).padStart(2, '0')}T${hhmm}:00Z`);

describe('rule schedule', () => {
  describe('edges', () => {
    const workdays = rule('07:00', '20:00', [1, 2, 3, 4, 5]);
    const cases: [string, RuleSchedule, number, boolean][] = [
      ['a window includes its start', workdays, at(1, '07:00'), true],
      ['a minute before the start is outside', workdays, at(1, '06:59'), false],
      ['the last minute of the window is inside', workdays, at(5, '19:59'), true],
      ['the window ends before timeTo', workdays, at(5, '20:00'), false],
      ['a weekday not chosen is outside', workdays, at(6, '10:00'), false],
      ['Sunday is 7', rule('07:00', '20:00', [7]), at(7, '10:00'), true],
      ['equal times are the whole day', rule('00:00', '00:00', [3]), at(3, '23:59'), true],
      ['equal times do not reach into the next day', rule('00:00', '00:00', [3]), at(4, '00:00'), false],
      ['a night window holds late on its own day', rule('22:00', '06:00', [1]), at(1, '23:00'), true],
      ['a night window holds early the next morning', rule('22:00', '06:00', [1]), at(2, '05:59'), true],
      ['a night window ends at timeTo the next morning', rule('22:00', '06:00', [1]), at(2, '06:00'), false],
      ['the early hours of its own day belong to the day before', rule('22:00', '06:00', [1]), at(1, '05:00'), false],
      ["Sunday's night window reaches Monday morning", rule('22:00', '06:00', [7]), at(1, '01:00'), true],
      ['a night window is closed in the afternoon', rule('22:00', '06:00', [1, 2]), at(2, '15:00'), false],
      ['validFrom is inclusive', rule('00:00', '00:00', [1], at(1, '12:00')), at(1, '12:00'), true],
      ['before validFrom is outside', rule('00:00', '00:00', [1], at(1, '12:00')), at(1, '12:00') - 1, false],
      ['validTo is inclusive', rule('00:00', '00:00', [1], null, at(1, '12:00')), at(1, '12:00'), true],
      ['after validTo is outside', rule('00:00', '00:00', [1], null, at(1, '12:00')), at(1, '12:00') + 1, false],
    ];
    for (const [name, schedule, atMs, expected] of cases) {
      it(name, () => assert.equal(inSchedule(schedule, atMs, 'UTC'), expected));
    }

    it("reads the weekday and window in the account's zone", () => {
      // Monday 23:30 in Moscow is Monday 20:30 UTC; Tuesday 01:00 in Moscow is Monday 22:00 UTC.
      assert.equal(inSchedule(rule('23:00', '23:59', [1]), at(1, '20:30'), 'Europe/Moscow'), true);
      assert.equal(inSchedule(rule('00:00', '00:00', [2]), at(1, '22:00'), 'Europe/Moscow'), true);
      assert.equal(inSchedule(rule('00:00', '00:00', [2]), at(1, '22:00'), 'UTC'), false);
    });
  });

  it('agrees with the week-interval oracle on random rules, zones and instants', () => {
    const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    const instant = fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') });
    const schedule = fc.record({
      timeFrom: fc.oneof(hhmm, fc.constant('00:00')),
      timeTo: fc.oneof(hhmm, fc.constant('00:00')),
      weekdays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 0, maxLength: 7 }),
      validFromMs: fc.option(instant, { nil: null }),
      validToMs: fc.option(instant, { nil: null }),
    });
    fc.assert(
      fc.property(schedule, instant, fc.constantFrom(...ZONES), (s, atMs, zone) => inSchedule(s, atMs, zone) === oracle(s, atMs, zone)),
      { seed: 20261123, numRuns: 20_000 },
    );
  });
});
