// The Tracks view's days and clock times in the account's zone (web/src/pages/tracks/zoned-time.ts):
// pure functions, so tested here without a browser, across clock changes and odd offsets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clockTime, dayBoundsMs, dayIn, isDay, shiftDay } from '../../web/src/pages/tracks/zoned-time.js';

const HOUR = 3_600_000;

describe('Tracks view: local days in the account zone', () => {
  test('a day starts at local midnight and lasts 24 hours, 23 when the clocks go forward, 25 when they go back', () => {
    const cases: [string, string, string, number][] = [
      ['UTC', '2026-05-20', '2026-05-20T00:00:00Z', 24],
      ['Europe/Moscow', '2026-05-20', '2026-05-19T21:00:00Z', 24],
      ['Asia/Kolkata', '2026-05-20', '2026-05-19T18:30:00Z', 24],
      ['America/New_York', '2026-01-15', '2026-01-15T05:00:00Z', 24],
      ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00Z', 23],
      ['Europe/Berlin', '2026-10-25', '2026-10-24T22:00:00Z', 25],
      ['America/New_York', '2026-03-08', '2026-03-08T05:00:00Z', 23],
      // Chile moves its clocks at midnight: 2026-09-06 has no 00:00 and begins at 01:00 (-03).
      ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00Z', 23],
    ];
    for (const [zone, day, start, hours] of cases) {
      const { startMs, endMs } = dayBoundsMs(day, zone);
      assert.equal(new Date(startMs).toISOString(), new Date(start).toISOString(), `${day} in ${zone} starts`);
      assert.equal((endMs - startMs) / HOUR, hours, `${day} in ${zone} lasts`);
      assert.equal(dayIn(zone, startMs), day);
      assert.equal(dayIn(zone, endMs - 1), day);
      assert.equal(dayIn(zone, endMs), shiftDay(day, 1));
    }
  });

  test('clock times are 24-hour in the zone; the end of the day is 24:00; other days carry their date', () => {
    const day = '2026-05-20';
    const { startMs, endMs } = dayBoundsMs(day, 'Asia/Kolkata');
    assert.equal(clockTime(startMs, 'Asia/Kolkata', day), '00:00');
    assert.equal(clockTime(startMs + 13.5 * HOUR, 'Asia/Kolkata', day), '13:30');
    assert.equal(clockTime(endMs, 'Asia/Kolkata', day), '24:00');
    assert.equal(clockTime(startMs - HOUR, 'Asia/Kolkata', day), '2026-05-19 23:00');
    assert.equal(clockTime(endMs + HOUR, 'Asia/Kolkata', day), '2026-05-21 01:00');
    assert.equal(clockTime(Date.parse('2026-05-20T12:05:00Z'), 'UTC'), '12:05');
  });

  test('days are checked and stepped across months and leap days', () => {
    assert.ok(isDay('2028-02-29'));
    for (const bad of ['2026-02-29', '2026-13-01', '2026-5-20', '20260520', '', undefined]) assert.ok(!isDay(bad), String(bad));
    assert.equal(shiftDay('2026-03-01', -1), '2026-02-28');
    assert.equal(shiftDay('2026-12-31', 1), '2027-01-01');
  });
});
