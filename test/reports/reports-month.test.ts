// Generated weeks of a small fleet (drives, parking with the engine on, refuelling, a drain, zone
// visits, a dead zone and a late buffer each day) pushed through the real API, and every figure of
// the six reports checked against the v6 routes (3, 6, 7) and against a brute-force computation from
// the raw fixes (report-oracle.ts). The same code path holds for 50 vehicles over a month; `npm test`
// keeps it to a few vehicles and days so each store takes well under a minute.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { ZONES, bounds } from '../geozones/geozone-fixtures.js';
import { DAY_VEHICLE, DEFAULT_DEPOT, generateDay, HOUR, type DayFix, type TripTruth } from '../positioning/day-generator.js';
import { move, seededRandom, type LatLon } from '../positioning/pipeline/fixtures.js';
import { createEmployee, LOCATIONS, startServer, type Client, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { VehicleOracle, type OracleDay, type OracleZone } from './report-oracle.js';
import { parseCsv } from './csv.js';

const VEHICLES = Number(process.env.REPORTS_VEHICLES ?? 3);
const DAYS = Number(process.env.REPORTS_DAYS ?? 3);
const TIME_ZONE = 'Asia/Kolkata';
const FIRST_DAY = '2026-05-18';
const BATCH = 1000;
const BASE = '/v6/api/globalPositioningManagement';

const localMidnight = (date: string) => Date.parse(`${date}T00:00:00+05:30`);
const dateAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 24 * HOUR).toISOString().slice(0, 10);
const DAYS_LIST: OracleDay[] = Array.from({ length: DAYS }, (_, i) => {
  const date = dateAfter(FIRST_DAY, i);
  return { date, fromMs: localMidnight(date), toMs: localMidnight(dateAfter(date, 1)) };
});
const LAST_DAY = DAYS_LIST.at(-1)!.date;
const PERIOD = `dateFrom=${FIRST_DAY}T00:00:00&dateTo=${LAST_DAY}T23:59:59`;

/** A square of `half` metres around a point, as a ring. */
function square(center: LatLon, half: number): LatLon[] {
  const n = move(center, half, 0).lat;
  const s = move(center, half, 180).lat;
  const e = move(center, half, 90).lon;
  const w = move(center, half, 270).lon;
  return [{ lat: n, lon: w }, { lat: n, lon: e }, { lat: s, lon: e }, { lat: s, lon: w }];
}

const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

/** A cell's number as Excel stores it: exceljs reads a cell with a date or time format back as a Date. */
function excelSerial(value: unknown): number {
  return value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : Number(value);
}

async function getAll(api: Client, path: string, count = 1000): Promise<any[]> {
  const records: any[] = [];
  for (let offset = 0; ; offset += count) {
    const r = await api.get(`${path}&count=${count}&offset=${offset}`);
    assert.equal(r.status, 200, r.text);
    const page = r.body.data.flatMap((g: any) => g.records.map((rec: any) => ({ subscriberID: g.subscriberID, name: g.name, ...rec })));
    records.push(...page);
    if (page.length < count) return records;
  }
}

for (const dialect of dialects) {
  describe(`reports over ${VEHICLES} vehicles × ${DAYS} days agree with the v6 routes and the raw fixes (${dialect})`, () => {
    let server: TestServer;
    const vehicles: { id: number; fixes: DayFix[]; trips: TripTruth[]; oracle: VehicleOracle }[] = [];
    const zones: OracleZone[] = [];
    /** The first vehicle's twin: the same fixes, its first day sent shuffled in late batches (every batch a replay). */
    let twin = 0;

    before(async () => {
      server = await startServer(dialect, { timeZone: TIME_ZONE, now: DAYS_LIST.at(-1)!.toMs + 2 * HOUR });
      const { api } = server;
      const days = Array.from({ length: VEHICLES }, (_, v) => DAYS_LIST.map((day, d) => generateDay({ seed: 17_000 + v * 100 + d, dayStartMs: day.fromMs })));
      // The depot every vehicle sleeps at, and the fuel station the first vehicle uses on its first day.
      const places = [
        { name: 'Depot', ring: square(DEFAULT_DEPOT, 300) },
        { name: 'Fuel station', ring: square(days[0]![0]!.truth.fill.where, 150) },
      ];
      for (const place of places) {
        const r = await api.post(ZONES, { name: place.name, bounds: bounds(place.ring.map((p) => [p.lon, p.lat] as const)) });
        assert.equal(r.status, 201, r.text);
        zones.push({ zoneID: r.body.zoneID, name: place.name, ring: place.ring });
      }
      for (let v = 0; v < VEHICLES; v++) {
        const id = await createEmployee(api, { name: `Truck ${v + 1}`, vehicleSettings: DAY_VEHICLE });
        const fixes = days[v]!.flatMap((day) => day.fixes);
        const trips = days[v]!.flatMap((day) => day.truth.trips);
        vehicles.push({ id, fixes, trips, oracle: new VehicleOracle(fixes, trips) });
      }
      twin = await createEmployee(api, { name: 'Truck 1 (twin)', vehicleSettings: DAY_VEHICLE });
      const random = seededRandom(77);
      const firstDay = [...days[0]![0]!.fixes];
      for (let i = firstDay.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [firstDay[i], firstDay[j]] = [firstDay[j]!, firstDay[i]!];
      }
      for (let i = 0; i < firstDay.length; i += 700) await post(api, twin, firstDay.slice(i, i + 700));
      // Day by day, each tracker in order; its buffer held back in a dead spot comes after its day (a replay).
      for (let d = 0; d < DAYS; d++) {
        if (d > 0) await post(api, twin, days[0]![d]!.fixes);
        for (let v = 0; v < VEHICLES; v++) {
          const day = days[v]![d]!;
          const live = day.fixes.filter((f) => !f.withheld);
          for (let i = 0; i < live.length; i += BATCH) await post(api, vehicles[v]!.id, live.slice(i, i + BATCH));
        }
        for (let v = 0; v < VEHICLES; v++) await post(api, vehicles[v]!.id, days[v]![d]!.fixes.filter((f) => f.withheld));
      }
    });
    after(() => server?.close());

    async function post(api: Client, subscriberID: number, fixes: DayFix[]) {
      const r = await api.post(LOCATIONS, fixes.map((f) => ({ subscriberID, ...f.body })));
      assert.equal(r.status, 201, r.text);
    }

    it('the generated days keep every trip inside one day (the oracle splits none at midnight)', () => {
      for (const v of vehicles) for (const t of v.trips) assert.ok(DAYS_LIST.some((d) => t.startMs >= d.fromMs && t.finishMs < d.toMs), `trip ${t.name} crosses midnight`);
    });

    it('trips are the tracks of route 3, with the highest speed of their fixes', async () => {
      const trips = await getAll(server.api, `/v6/api/reports/trips?${PERIOD}`);
      const route3 = await server.api.get(`${BASE}/tracks?${PERIOD}`);
      assert.equal(route3.status, 200);
      const byId = new Map(route3.body.map((t: any) => [t.trackID, t]));
      assert.equal(trips.length, route3.body.length);
      for (const trip of trips) {
        const track: any = byId.get(trip.trackID);
        assert.ok(track, `trip ${trip.trackID} is a track of route 3`);
        for (const key of ['subscriberID', 'startDate', 'finishDate', 'startAddress', 'finishAddress', 'distance', 'duration', 'startLat', 'finishLon']) {
          assert.deepEqual(trip[key], track[key], `trip ${trip.trackID} ${key}`);
        }
        const vehicle = vehicles.find((v) => v.id === trip.subscriberID) ?? vehicles[0]!;
        const [from, to] = [Date.parse(trip.startDate), Date.parse(trip.finishDate)];
        const top = Math.max(...vehicle.oracle.valid.filter((f) => f.timeMs >= from && f.timeMs <= to).map((f) => f.body.velocity));
        assert.equal(trip.maxSpeed, Math.round(top * 10) / 10, `trip ${trip.trackID} max speed`);
        assert.equal(trip.averageSpeed, Math.round((trip.distance / trip.duration) * 36) / 10);
      }
      const truth = vehicles.flatMap((v) => v.trips);
      assert.equal(trips.length, truth.length + vehicles[0]!.trips.length, 'one trip per trip the vehicles (and the twin) made');
      // Pages of 7 (past the first 50 they start from the remembered key of their block) read the same trips.
      for (const kind of ['trips', 'summary']) {
        assert.deepEqual(await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`, 7), await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`), `${kind} by pages of 7`);
      }
    });

    it('the summary agrees with route 7 per day to the metre, and with the raw fixes', async () => {
      const summary = await getAll(server.api, `/v6/api/reports/summary?${PERIOD}`);
      assert.equal(summary.length, (VEHICLES + 1) * DAYS, 'one record per vehicle and day');
      const events = await server.api.get(`${BASE}/events?startDate=${FIRST_DAY}T00:00:00&finishDate=${LAST_DAY}T23:59:59&subscriberIDs=${vehicles.map((v) => v.id).join(',')}`);
      for (const v of vehicles) {
        const ownEvents = events.body.data.find((g: any) => g.subscriberID === v.id)?.events ?? [];
        const visits = v.oracle.visits(zones);
        for (const day of DAYS_LIST) {
          const record = summary.find((r) => r.subscriberID === v.id && r.date === day.date);
          assert.ok(record, `vehicle ${v.id} on ${day.date}`);
          const stats = await server.api.get(`${BASE}/statistics?subscriberIDs=${v.id}&interval=1&dateFrom=${day.date}T00:00:00&dateTo=${day.date}T23:59:59.999`);
          const s = stats.body.data[0].statistics[0];
          const what = `vehicle ${v.id} on ${day.date}`;
          assert.equal(record.mileage, s.mileage, `${what}: mileage as route 7`);
          assert.equal(record.engineMotohours, s.engineMotohours, `${what}: engine hours as route 7`);
          assert.equal(record.fuelConsumption, s.fuelConsumption, `${what}: fuel as route 7`);

          const truth = v.oracle.day(day);
          near(record.mileage * 1000, truth.mileageM, 1, `${what}: mileage from the raw fixes (m)`);
          assert.equal(record.trips, truth.trips, `${what}: trips`);
          near(record.drivingSeconds, truth.drivingS, 1, `${what}: driving`);
          near(record.engineMotohours * 3600, truth.engineS, 2, `${what}: engine seconds`);
          near(record.idleSeconds, truth.idleS, 1, `${what}: idling (engine on while parked)`);
          assert.ok(truth.idleS > 60, `${what}: the generated day idles`);
          assert.equal(record.maxSpeed, truth.maxSpeed, `${what}: highest speed`);

          const inDay = (e: any) => Date.parse(e.eventDate) >= day.fromMs && Date.parse(e.eventDate) < day.toMs;
          const sum = (type: number) => Math.round(ownEvents.filter((e: any) => e.type === type && inDay(e)).reduce((t: number, e: any) => t + e.value, 0) * 100) / 100;
          assert.equal(record.filledLitres, sum(1), `${what}: fillings as route 6`);
          assert.equal(record.drainedLitres, sum(2), `${what}: drains as route 6`);
          assert.ok(record.filledLitres > 30 && record.drainedLitres > 15, `${what}: a refuelling and a drain`);
          assert.equal(record.speedings, ownEvents.filter((e: any) => e.type === 4 && inDay(e)).length, `${what}: speedings as route 6`);
          assert.equal(record.zoneVisits, visits.filter((x) => x.enteredMs >= day.fromMs && x.enteredMs < day.toMs).length, `${what}: zone visits`);
        }
      }
    });

    it('the fuel report agrees with route 7, route 6 and the smoothed readings', async () => {
      const fuel = await getAll(server.api, `/v6/api/reports/fuel?${PERIOD}`);
      const summary = await getAll(server.api, `/v6/api/reports/summary?${PERIOD}`);
      const events = await server.api.get(`${BASE}/events?startDate=${FIRST_DAY}T00:00:00&finishDate=${LAST_DAY}T23:59:59&subscriberIDs=${vehicles.map((v) => v.id).join(',')}`);
      for (const record of fuel.filter((r) => r.subscriberID !== twin)) {
        const v = vehicles.find((x) => x.id === record.subscriberID)!;
        const day = DAYS_LIST.find((d) => d.date === record.date)!;
        const truth = v.oracle.day(day);
        const same = summary.find((s) => s.subscriberID === record.subscriberID && s.date === record.date);
        near(record.startFuelLevel, truth.startFuel!, 0.01, `${record.date}: fuel at the first fix`);
        near(record.endFuelLevel, truth.endFuel!, 0.01, `${record.date}: fuel at the last fix`);
        assert.equal(record.fuelConsumption, same.fuelConsumption);
        assert.equal(record.mileage, same.mileage);
        assert.equal(record.filledLitres, same.filledLitres);
        const ownEvents = events.body.data.find((g: any) => g.subscriberID === record.subscriberID)?.events ?? [];
        const count = (type: number) => ownEvents.filter((e: any) => e.type === type && Date.parse(e.eventDate) >= day.fromMs && Date.parse(e.eventDate) < day.toMs).length;
        assert.equal(record.fillings, count(1), `${record.date}: fillings as route 6`);
        assert.equal(record.drains, count(2), `${record.date}: drains as route 6`);
        assert.ok(record.fillings >= 1 && record.drains >= 1);
        assert.equal(record.consumptionPer100Km, Math.round((record.fuelConsumption / record.mileage) * 100 * 100) / 100);
      }
    });

    it('stops lie between trips, with the engine time in them', async () => {
      const stops = await getAll(server.api, `/v6/api/reports/stops?${PERIOD}`);
      for (const v of vehicles) {
        const own = stops.filter((s) => s.subscriberID === v.id);
        const truth = v.oracle.stops();
        assert.equal(own.length, truth.length, `vehicle ${v.id}: one stop after each trip`);
        own.forEach((stop, i) => {
          assert.equal(Date.parse(stop.startDate), truth[i]!.startMs);
          assert.equal(stop.finishDate === null ? null : Date.parse(stop.finishDate), truth[i]!.finishMs);
          near(stop.idleSeconds, truth[i]!.idleS, 1, `vehicle ${v.id} stop ${i} idling`);
        });
        assert.ok(own.some((s) => s.idleSeconds > 0), 'a stop with the engine on');
      }
    });

    it('zone visits are the ones the raw fixes make, by the zone signals’ boundary rule', async () => {
      const visits = await getAll(server.api, `/v6/api/reports/zoneVisits?${PERIOD}`);
      for (const v of vehicles) {
        const truth = v.oracle.visits(zones);
        const own = visits.filter((x) => x.subscriberID === v.id);
        assert.deepEqual(
          own.map((x) => ({ zoneID: x.zoneID, enteredMs: Date.parse(x.enteredDate), leftMs: x.leftDate === null ? null : Date.parse(x.leftDate) })),
          truth,
          `vehicle ${v.id}`,
        );
        for (const x of own) if (x.leftDate) assert.equal(x.duration, (Date.parse(x.leftDate) - Date.parse(x.enteredDate)) / 1000);
        assert.ok(own.filter((x) => x.zoneName === 'Depot').length >= DAYS, 'the depot every day');
      }
    });

    it('speeding episodes are route 6’s type 4 events, prolonged where a type 5 began', async () => {
      const speeding = await getAll(server.api, `/v6/api/reports/speeding?${PERIOD}`);
      const events = await server.api.get(`${BASE}/events?startDate=${FIRST_DAY}T00:00:00&finishDate=${LAST_DAY}T23:59:59&subscriberIDs=${vehicles.map((v) => v.id).join(',')}`);
      const expected = events.body.data.flatMap((g: any) =>
        g.events.filter((e: any) => e.type === 4).map((e: any) => ({
          subscriberID: g.subscriberID,
          date: e.eventDate,
          maxSpeed: e.value,
          prolonged: g.events.some((p: any) => p.type === 5 && p.eventDate === e.eventDate),
        })),
      );
      assert.deepEqual(speeding.filter((s) => s.subscriberID !== twin).map((s) => ({ subscriberID: s.subscriberID, date: s.date, maxSpeed: s.maxSpeed, prolonged: s.prolonged })), expected);
      assert.ok(expected.some((e: any) => e.prolonged), 'a prolonged episode');
    });

    it('late and shuffled fixes give the same reports as fixes in order (the replay re-derives idling and zone visits)', async () => {
      // Whose it is (and a track's id, given on arrival) aside, every field must be the same.
      const strip = (records: any[], id: number) =>
        records.filter((r) => r.subscriberID === id).map((r) => Object.fromEntries(Object.entries(r).filter(([key]) => !['subscriberID', 'name', 'trackID'].includes(key))));
      for (const kind of ['summary', 'stops', 'zoneVisits', 'fuel', 'speeding']) {
        const records = await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`);
        assert.deepEqual(strip(records, twin), strip(records, vehicles[0]!.id), kind);
      }
    });

    it('the XLSX holds the summary as number and date cells with a totals row; the CSV parses to the same', async () => {
      const json = await getAll(server.api, `/v6/api/reports/summary?${PERIOD}`);
      const file = await fetch(`${server.baseUrl}/v6/api/reports/summary?${PERIOD}&format=xlsx`, { headers: { authorization: `Bearer ${server.token}` } });
      assert.equal(file.status, 200);
      assert.match(file.headers.get('content-type') ?? '', /spreadsheetml/);
      assert.match(file.headers.get('content-disposition') ?? '', /attachment; filename="summary-2026-05-18-/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await file.arrayBuffer()) as unknown as ArrayBuffer);
      assert.equal(workbook.worksheets.length, 1);
      const sheet = workbook.worksheets[0]!;
      assert.equal(sheet.name, 'Summary');
      assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1, 5), ['Employee ID', 'Employee', 'Date', 'Mileage, km']);
      assert.equal(sheet.rowCount, json.length + 2, 'header, a row per record, totals');
      json.forEach((record, i) => {
        const row = sheet.getRow(i + 2);
        assert.equal(row.getCell(1).value, record.subscriberID);
        assert.equal(row.getCell(2).value, record.name);
        const date = row.getCell(3).value;
        assert.ok(date instanceof Date, 'the day is a date cell');
        assert.equal(date.toISOString().slice(0, 10), record.date);
        assert.equal(row.getCell(4).value, record.mileage);
        assert.equal(typeof row.getCell(4).value, 'number');
        near(excelSerial(row.getCell(6).value) * 86_400, record.drivingSeconds, 1e-3, 'driving as a duration cell (days)');
        assert.equal(row.getCell(6).numFmt, '[h]:mm:ss');
      });
      const totals = sheet.getRow(json.length + 2);
      assert.equal(totals.getCell(2).value, 'Total');
      near(Number(totals.getCell(4).value), json.reduce((t, r) => t + r.mileage, 0), 0.0015, 'total mileage');
      assert.equal(totals.getCell(5).value, json.reduce((t, r) => t + r.trips, 0));

      const trips = await fetch(`${server.baseUrl}/v6/api/reports/trips?${PERIOD}&format=xlsx`, { headers: { authorization: `Bearer ${server.token}` } });
      const tripBook = new ExcelJS.Workbook();
      await tripBook.xlsx.load(Buffer.from(await trips.arrayBuffer()) as unknown as ArrayBuffer);
      const start = tripBook.worksheets[0]!.getRow(2).getCell(4).value as Date;
      const firstTrip = (await getAll(server.api, `/v6/api/reports/trips?${PERIOD}`))[0];
      // Excel dates have no zone: the cell shows the account's wall-clock time.
      assert.equal(start.toISOString().slice(0, 19), firstTrip.startDate.slice(0, 19));

      const csv = await fetch(`${server.baseUrl}/v6/api/reports/trips?${PERIOD}&format=csv`, { headers: { authorization: `Bearer ${server.token}` } });
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      const text = await csv.text();
      assert.ok(text.endsWith('\r\n') && !/[^\r]\n/.test(text), 'CRLF line ends');
      const [header, ...lines] = parseCsv(text);
      assert.deepEqual(header!.slice(0, 4), ['Employee ID', 'Employee', 'Track ID', 'Start']);
      const jsonTrips = await getAll(server.api, `/v6/api/reports/trips?${PERIOD}`);
      assert.equal(lines.length, jsonTrips.length);
      lines.forEach((line, i) => {
        const trip = jsonTrips[i];
        assert.deepEqual(line.slice(0, 7).map(String), [trip.subscriberID, trip.name, trip.trackID, trip.startDate, trip.finishDate, trip.startAddress, trip.finishAddress].map(String));
        assert.equal(Number(line[header!.indexOf('Distance, m')]), trip.distance);
      });
    });
  });
}
