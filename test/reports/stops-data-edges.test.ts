// Stops and trips begin and end at fixes, whatever the period: a vehicle first heard at 22:13 (no
// data before, ever) and silent from the small hours of the next day has no stop from midnight or from the
// period's start, and its last stop lasts to its last fix, not to the period's end or to now. Checked
// against the raw fixes (report-oracle.ts) for the first day, the second, and both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DAY_VEHICLE, generateDay, HOUR, MINUTE, type DayFix, type TripTruth } from '../positioning/day-generator.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { VehicleOracle } from './report-oracle.js';

const TIME_ZONE = 'Europe/Moscow';
const SEED = 34_700;
const FIRST_FIX = Date.parse('2026-05-20T22:13:00+03:00');
const DAY_1 = { from: '2026-05-20T00:00:00', to: '2026-05-20T23:59:59', fromMs: Date.parse('2026-05-20T00:00:00+03:00'), toMs: Date.parse('2026-05-20T23:59:59+03:00') };
const DAY_2 = { from: '2026-05-21T00:00:00', to: '2026-05-21T23:59:59', fromMs: Date.parse('2026-05-21T00:00:00+03:00'), toMs: Date.parse('2026-05-21T23:59:59+03:00') };
const BOTH = { from: DAY_1.from, to: DAY_2.to, fromMs: DAY_1.fromMs, toMs: DAY_2.toMs };

/**
 * A generated day moved so that three minutes before its trip from customer B fall at 22:13, cut
 * there and a quarter of an hour after the next trip ends (after midnight): the tracker is first
 * heard at 22:13 and switched off in the night.
 */
function vehicleHeardLate(): { fixes: DayFix[]; trips: TripTruth[] } {
  const probe = generateDay({ seed: SEED, dayStartMs: 0 });
  const k = probe.truth.trips.findIndex((t) => t.name.startsWith('customer B'));
  assert.ok(k >= 0 && probe.truth.trips.length > k + 1);
  const day = generateDay({ seed: SEED, dayStartMs: FIRST_FIX - (probe.truth.trips[k]!.startMs - 3 * MINUTE) });
  const trips = day.truth.trips;
  const endMs = trips[k + 1]!.finishMs + 15 * MINUTE;
  assert.ok((trips[k + 2]?.startMs ?? Infinity) > endMs + MINUTE, 'the vehicle stands when the tracker goes silent');
  return {
    fixes: day.fixes.filter((f) => f.timeMs >= FIRST_FIX && f.timeMs <= endMs),
    trips: trips.filter((t) => t.startMs >= FIRST_FIX && t.finishMs <= endMs),
  };
}

for (const dialect of dialects) {
  describe(`stops and trips begin and end where the data does (${dialect})`, () => {
    let server: TestServer;
    let id = 0;
    const { fixes, trips } = vehicleHeardLate();
    const oracle = new VehicleOracle(fixes, trips);
    const firstFixMs = oracle.valid[0]!.timeMs;
    const lastFixMs = oracle.valid.at(-1)!.timeMs;

    before(async () => {
      server = await startServer(dialect, { timeZone: TIME_ZONE, now: DAY_2.toMs + 30 * HOUR });
      id = await createEmployee(server.api, { name: 'Late truck', vehicleSettings: DAY_VEHICLE });
      const r = await server.api.post(LOCATIONS, fixes.map((f) => ({ subscriberID: id, ...f.body })));
      assert.equal(r.status, 201, r.text);
    });
    after(() => server?.close());

    const read = async (kind: string, period: { from: string; to: string }) => {
      const r = await server.api.get(`/v6/api/reports/${kind}?dateFrom=${period.from}&dateTo=${period.to}&subscriberIDs=${id}`);
      assert.equal(r.status, 200, r.text);
      return (r.body.data[0]?.records ?? []) as any[];
    };

    it('the generated data starts at 22:13 and its first trip a few minutes later, and ends in the night while the vehicle stands', () => {
      assert.ok(firstFixMs >= FIRST_FIX && firstFixMs < FIRST_FIX + MINUTE);
      assert.ok(trips[0]!.startMs > firstFixMs && trips[0]!.startMs < firstFixMs + 5 * MINUTE);
      assert.ok(lastFixMs > DAY_2.fromMs && lastFixMs < DAY_2.toMs - 6 * HOUR);
      assert.ok(trips.length >= 2);
    });

    for (const [name, period] of [['the first day', DAY_1], ['the second day', DAY_2], ['both days', BOTH]] as const) {
      it(`stops over ${name} are the raw fixes' stops that overlap it, none from midnight, the period's start or its end`, async () => {
        const stops = await read('stops', period);
        const expected = oracle.stops().filter((s) => s.startMs <= period.toMs && (s.finishMs ?? lastFixMs) >= period.fromMs);
        assert.ok(expected.length > 0);
        assert.deepEqual(
          stops.map((s) => ({ startMs: Date.parse(s.startDate), finishMs: s.finishDate === null ? null : Date.parse(s.finishDate) })),
          expected.map((s) => ({ startMs: s.startMs, finishMs: s.finishMs })),
        );
        for (const [i, s] of stops.entries()) {
          assert.ok(Date.parse(s.startDate) > trips[0]!.startMs, `stop ${i} begins after the first trip, not at ${s.startDate}`);
          assert.ok(Math.abs(s.idleSeconds - expected[i]!.idleS) <= 1, `stop ${i} idling`);
        }
        const last = stops.at(-1)!;
        if (last.finishDate === null) assert.equal(last.duration, Math.round((lastFixMs - Date.parse(last.startDate)) / 1000), 'the standing vehicle’s stop lasts to its last fix');
      });

      it(`trips over ${name} begin and end at the fixes the raw data puts them`, async () => {
        const records = await read('trips', period);
        const expected = trips.filter((t) => t.startMs <= period.toMs && t.finishMs >= period.fromMs);
        assert.deepEqual(
          records.map((t) => [Date.parse(t.startDate), Date.parse(t.finishDate)]),
          expected.map((t) => [t.startMs, t.finishMs]),
        );
      });
    }
  });
}
