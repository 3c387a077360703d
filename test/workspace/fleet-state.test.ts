// The fleet map's rules, checked directly: which state an employee is in (against an independent
// reading of the calendar day), and which employees the list's filters leave.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EVERYONE, filterFleet, type FleetMember } from '../../web/src/pages/map/fleet-filter.js';
import { fleetStateOf, MOVING_FROM_KMH, todayIn, type FleetState } from '../../web/src/pages/map/fleet-state.js';

const NOW = Date.parse('2026-03-29T12:00:00Z'); // a day of a clock change in Europe
const iso = (ms: number) => new Date(ms).toISOString();
/** The oracle: the calendar day of an instant in a zone, as Intl writes it. */
const dayOf = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(ms);

describe('the fleet map: states', () => {
  it('no fix, or none of today in the account’s zone, is no data today; else offline, moving or stopped', () => {
    const today = todayIn('Europe/Moscow', NOW);
    const fix = (hoursAgo: number, velocity: number) => ({ locationDate: iso(NOW - hoursAgo * 3_600_000), velocity });
    assert.equal(fleetStateOf({ isOnline: true }, undefined, today), 'noData');
    // 12:00 UTC is 15:00 in Moscow: 16 h before is yesterday there.
    assert.equal(fleetStateOf({ isOnline: true }, fix(16, 40), today), 'noData');
    assert.equal(fleetStateOf({ isOnline: false }, fix(1, 40), today), 'offline');
    assert.equal(fleetStateOf({ isOnline: true }, fix(1, MOVING_FROM_KMH), today), 'moving');
    assert.equal(fleetStateOf({ isOnline: true }, fix(1, MOVING_FROM_KMH - 0.1), today), 'stopped');
    // 14 h before is 01:00 in Moscow, today; in New York it is still the day before.
    assert.equal(fleetStateOf({ isOnline: true }, fix(14, 0), today), 'stopped');
    assert.equal(fleetStateOf({ isOnline: true }, fix(14, 0), todayIn('America/New_York', NOW)), 'noData');
  });

  it('is no data today exactly when the fix is of another calendar day in the zone', () => {
    const zones = ['Europe/Moscow', 'Europe/Berlin', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }), fc.integer({ min: -86_400_000, max: 86_400_000 }), fc.boolean(), fc.double({ min: 0, max: 200, noNaN: true }), (zone, shiftMs, ageMs, isOnline, velocity) => {
        const nowMs = NOW + shiftMs;
        const atMs = nowMs - ageMs;
        const state = fleetStateOf({ isOnline }, { locationDate: iso(atMs), velocity }, todayIn(zone, nowMs));
        const expected: FleetState = dayOf(atMs, zone) !== dayOf(nowMs, zone) ? 'noData' : !isOnline ? 'offline' : velocity >= MOVING_FROM_KMH ? 'moving' : 'stopped';
        return state === expected;
      }),
    );
  });
});

describe('the fleet map: filters', () => {
  const employee = (subscriberID: number, name: string, subscriberGroupID: number | null): FleetMember => ({ subscriberID, name, subscriberGroupID });
  const all = [employee(1, 'Anna Smirnova', 7), employee(2, 'Boris Orlov', null), employee(3, 'Анна Смирнова-Орлова', 7)];
  const states = new Map<number, FleetState>([
    [1, 'moving'],
    [2, 'offline'],
    [3, 'moving'],
  ]);
  const ids = (list: readonly FleetMember[]) => list.map((e) => e.subscriberID);

  it('leaves everyone without a filter, and narrows by words of the name, the group and the state together', () => {
    assert.deepEqual(ids(filterFleet(all, states, EVERYONE)), [1, 2, 3]);
    assert.deepEqual(ids(filterFleet(all, states, { ...EVERYONE, text: 'ORL' })), [2]);
    assert.deepEqual(ids(filterFleet(all, states, { ...EVERYONE, text: 'смирн анна' })), [3]);
    assert.deepEqual(ids(filterFleet(all, states, { ...EVERYONE, groupID: '7' })), [1, 3]);
    assert.deepEqual(ids(filterFleet(all, states, { ...EVERYONE, state: 'offline' })), [2]);
    assert.deepEqual(ids(filterFleet(all, states, { text: 'орл', groupID: '7', state: 'moving' })), [3]);
    assert.deepEqual(ids(filterFleet(all, states, { ...EVERYONE, state: 'noData' })), []);
  });
});
