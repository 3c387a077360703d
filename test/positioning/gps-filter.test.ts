// The GPS filter and the fuel balance through the real API on both stores: an outlier is stored as
// an invalid fix and is in no track, statistic or report, whether it comes in order, late or out of
// order; and fuel used is start + filled − drained − end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLASSIC_QUERY, startOsmAnd } from '../helpers/osmand.js';
import { createEmployee, LOCATIONS, startServer, type Client, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const T0 = Date.parse('2026-05-20T06:00:00Z');
const BASE = '/v6/api/globalPositioningManagement';
const DAY = 'dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-20T23:59:59Z';
const LON_PER_METRE = 1 / (111_320 * Math.cos((55.75 * Math.PI) / 180));

type Body = { subscriberID: number; locationDate: string; latitude: number; longitude: number; velocity: number; [field: string]: unknown };

/** Parked 10 minutes (a fix every 10 s) then a 20 minute drive east at 72 km/h, then parked 10 minutes. */
function trip(subscriberID: number, fromMs = T0, extra: (i: number) => object = () => ({})): Body[] {
  const fixes: Body[] = [];
  let longitude = 37.6;
  for (let i = 0; i < 60 + 120 + 60; i++) {
    const driving = i >= 60 && i < 180;
    if (driving) longitude += 200 * LON_PER_METRE;
    fixes.push({ subscriberID, locationDate: new Date(fromMs + i * 10_000).toISOString(), latitude: 55.75, longitude, velocity: driving ? 72 : 0, ...extra(i) });
  }
  return fixes;
}

/** The trip with fix 120 (mid-drive) 30 km north of where the vehicle was. */
const JUMP = 120;
function tripWithJump(subscriberID: number, fromMs = T0): Body[] {
  const fixes = trip(subscriberID, fromMs);
  fixes[JUMP] = { ...fixes[JUMP]!, latitude: 55.75 + 30_000 / 111_195 };
  return fixes;
}

async function post(api: Client, fixes: Body[]): Promise<void> {
  const response = await api.post(LOCATIONS, fixes);
  assert.equal(response.status, 201, response.text);
}

async function tracksOf(api: Client, id: number): Promise<any[]> {
  const response = await api.get(`${BASE}/tracks?subscriberIDs=${id}&${DAY}`);
  assert.equal(response.status, 200, response.text);
  return response.body.map((t: any) => ({ ...t, trackID: 0, subscriberID: 0 }));
}

/** `[locationDate, latitude, isValid]` of the subscriber's stored fixes, oldest first. */
async function validityOf(api: Client, id: number): Promise<[string, number, boolean][]> {
  const response = await api.get(`${LOCATIONS}?subscriberIDs=${id}&${DAY}`);
  assert.equal(response.status, 200, response.text);
  // Listed newest first by id, that is by arrival: in time order for comparing arrivals.
  const rows = response.body.map((l: any) => [l.locationDate, l.latitude, l.isValid] as [string, number, boolean]);
  return rows.sort((a: [string], b: [string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

async function dayStatistics(api: Client, id: number): Promise<any> {
  const response = await api.get(`${BASE}/statistics?subscriberIDs=${id}&interval=1&${DAY}`);
  assert.equal(response.status, 200, response.text);
  return response.body.data[0].statistics[0];
}

for (const dialect of dialects) {
  describe(`GPS filter and fuel balance on ${dialect}`, () => {
    let server: TestServer;
    let clean: number;
    let jumped: number;
    before(async () => {
      server = await startServer(dialect, { now: T0 + 12 * 3_600_000 });
      clean = await createEmployee(server.api, { name: 'Truck clean' });
      jumped = await createEmployee(server.api, { name: 'Truck jumped' });
      await post(server.api, trip(clean));
      await post(server.api, tripWithJump(jumped));
    });
    after(() => server.close());

    it('a 30 km jump mid-trip is stored as an invalid fix and the trip is the one driven', async () => {
      const [track, ...more] = await tracksOf(server.api, jumped);
      assert.equal(more.length, 0);
      assert.deepEqual(track, (await tracksOf(server.api, clean))[0], 'the same trip as without the jump');
      assert.ok(Math.abs(track.distance - 24_000) < 50, `${track.distance} m`);

      const stored = await validityOf(server.api, jumped);
      assert.equal(stored.length, 240, 'the jump is kept as a raw fix');
      assert.deepEqual(stored.flatMap(([date, , valid], i) => (valid ? [] : [[i, date]])), [[JUMP, new Date(T0 + JUMP * 10_000).toISOString().replace('.000Z', '+00:00')]]);

      const [withIds] = (await server.api.get(`${BASE}/tracks?subscriberIDs=${jumped}&${DAY}`)).body;
      const points = (await server.api.get(`${BASE}/tracks/${withIds.trackID}/locations`)).body;
      assert.ok(points.every((p: any) => p.isValid && p.latitude === 55.75), 'the track’s fixes leave the jump out');

      const [jumpedDay, cleanDay] = [await dayStatistics(server.api, jumped), await dayStatistics(server.api, clean)];
      assert.equal(jumpedDay.mileage, cleanDay.mileage);
      const perFix = (await server.api.get(`${BASE}/statistics?subscriberIDs=${jumped}&interval=3&${DAY}`)).body.data[0].statistics;
      assert.equal(perFix.length, 239, 'interval 3: one record per valid fix');
      const events = (await server.api.get(`${BASE}/events?subscriberIDs=${jumped}&startDate=2026-05-20T00:00:00Z`)).body;
      assert.deepEqual(events.data.flatMap((g: any) => g.events), [], 'no speeding from the jump');
    });

    it('gives the same tracks and the same invalid fixes when the drive and its jump arrive late and out of order', async () => {
      const late = await createEmployee(server.api, { name: 'Truck late' });
      const fixes = tripWithJump(late);
      // The second half first, then the first half in shuffled chunks, the jump among them.
      await post(server.api, fixes.slice(150));
      const first = fixes.slice(0, 150);
      const order = first.map((_, i) => i).sort((a, b) => ((a * 7919) % 31) - ((b * 7919) % 31) || a - b);
      for (let i = 0; i < order.length; i += 23) await post(server.api, order.slice(i, i + 23).map((k) => first[k]!));

      assert.deepEqual(await tracksOf(server.api, late), await tracksOf(server.api, jumped));
      assert.deepEqual(await validityOf(server.api, late), await validityOf(server.api, jumped));
      assert.deepEqual(await dayStatistics(server.api, late), await dayStatistics(server.api, jumped));
    });

    it('judges stored fixes again when a late fix changes what they follow, as in-order arrival would', async () => {
      // Three fixes 300 km off confirm the new place (the receiver was carried while off); the third
      // to arrive is the middle one, so until then only two agree.
      const far = 55.75 + 300_000 / 111_195;
      const fixes = (id: number) => [
        ...Array.from({ length: 6 }, (_, i) => ({ subscriberID: id, locationDate: new Date(T0 + 4 * 3_600_000 + i * 10_000).toISOString(), latitude: 55.75, longitude: 37.6, velocity: 0 })),
        ...Array.from({ length: 6 }, (_, i) => ({ subscriberID: id, locationDate: new Date(T0 + 4 * 3_600_000 + 60_000 + i * 10_000).toISOString(), latitude: far, longitude: 37.6 + i * 0.0001, velocity: 0 })),
      ];
      const inOrder = await createEmployee(server.api, { name: 'Carried in order' });
      await post(server.api, fixes(inOrder));
      const outOfOrder = await createEmployee(server.api, { name: 'Carried, late' });
      const late = fixes(outOfOrder);
      await post(server.api, [...late.slice(0, 7), ...late.slice(8, 9)]);
      const before = await validityOf(server.api, outOfOrder);
      assert.deepEqual(before.slice(6).map(([, , valid]) => valid), [false, false], 'two fixes far off: not yet a place');
      await post(server.api, [late[7]!, ...late.slice(9)]);

      const expected = await validityOf(server.api, inOrder);
      assert.deepEqual(expected.map(([, , valid]) => valid), [true, true, true, true, true, true, false, false, true, true, true, true]);
      assert.deepEqual(await validityOf(server.api, outOfOrder), expected, 'the third far fix is accepted once its predecessor arrives');
    });

    it('an account can turn a rule off: with maxSpeedKmh 0 the jump is a valid fix again', async () => {
      const other = await server.newAccount();
      await server.database.db.updateTable('accounts').set({ settings: JSON.stringify({ gpsFilter: { maxSpeedKmh: 0 } }) }).where('id', '=', other.account.id).execute();
      const truck = await createEmployee(other.api, { name: 'Unfiltered' });
      await post(other.api, tripWithJump(truck));
      assert.ok((await validityOf(other.api, truck)).every(([, , valid]) => valid));
      const [track] = await tracksOf(other.api, truck);
      assert.ok(track.distance > 24_000 + 59_000, `the jump counts: ${track.distance} m`);
    });

    it('a phone’s fix less accurate than 500 m is stored invalid; an accurate one is not', async () => {
      const osmand = await startOsmAnd(server.services, () => T0 + 12 * 3_600_000);
      try {
        const deviceKey = `phone-${dialect}`;
        const phone = await createEmployee(server.api, { name: 'Phone', deviceKey });
        const query = (seconds: number, accuracy: number) => CLASSIC_QUERY.replace('timestamp=1716200000', `timestamp=${T0 / 1000 + 8 * 3600 + seconds}`).replace('accuracy=5.0', `accuracy=${accuracy}`);
        for (const [seconds, accuracy] of [[0, 8], [30, 1500], [60, 12]] as const) {
          const answer = await osmand.send('GET', `/?id=${deviceKey}&${query(seconds, accuracy)}`);
          assert.equal(answer.status, 200, answer.text);
        }
        assert.deepEqual((await validityOf(server.api, phone)).map(([, , valid]) => valid), [true, false, true]);
      } finally {
        await osmand.close();
      }
    });

    it('fuel used is start + filled − drained − end: a drain is never consumption', async () => {
      const truck = await createEmployee(server.api, { name: 'Fuel truck', vehicleSettings: { fuelFillThreshold: 10, fuelDrainThreshold: 10 } });
      const start = T0 + 6 * 3_600_000;
      // 30 min parked at 60 l with a 30 l drain over 2 min at minute 10; 30 min parked with a 40 l
      // filling over 3 min at minute 40; the 40 min trip burns 4 l; parked at the end.
      const level = (i: number) => {
        const minute = i / 6;
        if (minute < 60) return minute < 10 ? 60 : minute < 12 ? 60 - (minute - 10) * 15 : minute < 40 ? 30 : minute < 43 ? 30 + ((minute - 40) * 40) / 3 : 70;
        const driven = Math.min(120, i - 360);
        return 70 - (4 * driven) / 120;
      };
      const parked = Array.from({ length: 360 }, (_, i) => ({ subscriberID: truck, locationDate: new Date(start + i * 10_000).toISOString(), latitude: 55.75, longitude: 37.6, velocity: 0, ignition: false }));
      const driven = trip(truck, start + 3_600_000 - 60 * 10_000, (i) => ({ ignition: i >= 60 && i < 180 })).slice(60);
      const fixes = [...parked, ...driven].map((f, i) => ({ ...f, fuelLevel: Math.round(level(i) * 10) / 10 }));
      await post(server.api, fixes);

      const events = (await server.api.get(`${BASE}/events?subscriberIDs=${truck}&startDate=2026-05-20T00:00:00Z`)).body.data[0].events;
      assert.deepEqual(events.map((e: any) => e.type).sort(), [1, 2], 'one filling and one drain');
      const report = await server.api.get(`/v6/api/reports/fuel?subscriberIDs=${truck}&${DAY}`);
      assert.equal(report.status, 200, report.text);
      const [day] = report.body.data[0].records;
      const balance = day.startFuelLevel + day.filledLitres - day.drainedLitres - day.endFuelLevel;
      assert.ok(Math.abs(day.fuelConsumption - balance) <= 0.02, `${day.fuelConsumption} l used, the balance says ${balance}`);
      assert.ok(day.drainedLitres > 25 && day.filledLitres > 35, JSON.stringify(day));
      assert.ok(Math.abs(day.fuelConsumption - 4) < 1, `what the engine burnt, not the drain: ${day.fuelConsumption} l`);
      assert.ok(day.consumptionPer100Km < 20, `${day.consumptionPer100Km} l/100 km`);

      const statistics = await dayStatistics(server.api, truck);
      assert.equal(statistics.fuelConsumption, day.fuelConsumption, 'route 7 says the same');
      const summary = (await server.api.get(`/v6/api/reports/summary?subscriberIDs=${truck}&${DAY}`)).body.data[0].records[0];
      assert.equal(summary.fuelConsumption, day.fuelConsumption);
    });
  });
}
