// Report files are read chunk by chunk: what a download holds does not depend on how the report is
// cut (a chunk of one vehicle-day against one chunk holding everything, the way the files were made
// before), the CSV and the XLSX hold exactly the JSON answer's records, and a period longer than a
// year is refused before anything is read. Two vehicles over four days of Berlin's zone across the
// spring clock change; their days are shifted so that local midnights fall inside a trip (the first
// vehicle) and inside the night at the depot, a stop and a zone visit (the second).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import type { FileColumn } from '../../src/reports/report-columns.js';
import { MAX_REPORT_DAYS } from '../../src/reports/report-chunks.js';
import { reportKindNames as reportKinds, type ReportKind, type ReportRecord } from '../../src/reports/kinds/report-kinds.js';
import type { ReportRow } from '../../src/reports/report-schema.js';
import { reportColumnsIn } from '../../src/reports/report-words.js';
import { ReportService } from '../../src/reports/report-service.js';
import { assertRefusedUnchanged } from '../helpers/bad-input.js';
import { bounds, ZONES } from '../geozones/geozone-fixtures.js';
import { DAY_VEHICLE, DEFAULT_DEPOT, generateDay, HOUR } from '../positioning/day-generator.js';
import { move } from '../positioning/pipeline/fixtures.js';
import { createEmployee, LOCATIONS, startServer, type Client, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { parseCsv } from './csv.js';

const TIME_ZONE = 'Europe/Berlin';
const FIRST_DAY = '2026-03-27';
const LAST_DAY = '2026-03-31';
const PERIOD = `dateFrom=${FIRST_DAY}T00:00:00&dateTo=${LAST_DAY}T23:59:59`;
const MINUTE = 60_000;
/** Local midnight of 2026-03-27 in Berlin (UTC+1 then). */
const MIDNIGHT = Date.parse(`${FIRST_DAY}T00:00:00+01:00`);
/** Where each vehicle's generated days start, before local midnight: at 09:20 of a generated day it drives, at 03:00 it sleeps at the depot. */
const SHIFTS = [9 * HOUR + 20 * MINUTE, 3 * HOUR];
const DAYS = 4;
const FORMULA_NAME = '=HYPERLINK("http://example.com","x")';

async function getAll(api: Client, path: string): Promise<any[]> {
  const records: any[] = [];
  for (let offset = 0; ; offset += 1000) {
    const r = await api.get(`${path}&count=1000&offset=${offset}`);
    assert.equal(r.status, 200, r.text);
    const page = r.body.data.flatMap((g: any) => g.records.map((record: any) => ({ subscriberID: g.subscriberID, name: g.name, record })));
    records.push(...page);
    if (page.length < 1000) return records;
  }
}

/** What a CSV field of a column holds for a value: as the JSON answer writes it, empty for null. */
const csvText = (value: unknown) => (value === null ? '' : String(value));

/** The same for Excel: decimal commas (`excel-ru`), date-times as Excel reads them, formulas as text. */
function excelText(type: string, value: unknown, decimalComma: boolean): string {
  if (value === null) return '';
  if (typeof value === 'number') return decimalComma ? String(value).replace('.', ',') : String(value);
  if (type === 'date') return `${String(value).slice(0, 10)} ${String(value).slice(11, 19)}`;
  if (type === 'text' && /^[=+\-@]/.test(String(value))) return `'${String(value)}`;
  return String(value);
}

const BOM = [0xef, 0xbb, 0xbf];

/** A cell's value compared with the JSON answer's, by its column's type (exceljs reads date-formatted cells as Dates). */
function assertCell(actual: unknown, column: FileColumn, expected: string | number | boolean | null, what: string): void {
  if (expected === null) return assert.ok(actual === null || actual === undefined, `${what}: an empty cell`);
  const serialDays = (v: unknown) => (v instanceof Date ? (v.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : Number(v));
  switch (column.type) {
    case 'date':
      assert.ok(actual instanceof Date, `${what}: a date cell`);
      return assert.equal(actual.toISOString().slice(0, 19), String(expected).slice(0, 19), `${what}: the account's wall-clock time`);
    case 'day':
      assert.ok(actual instanceof Date, `${what}: a date cell`);
      return assert.equal(actual.toISOString().slice(0, 10), expected, what);
    case 'duration':
      return assert.ok(Math.abs(serialDays(actual) * 86_400 - Number(expected)) < 1e-3, `${what}: ${String(actual)} as ${String(expected)} s`);
    default:
      return assert.equal(actual, expected, what);
  }
}

for (const dialect of dialects) {
  describe(`report files are streamed in chunks and hold the JSON answer (${dialect})`, () => {
    let server: TestServer;
    const ids: number[] = [];

    before(async () => {
      server = await startServer(dialect, { timeZone: TIME_ZONE, now: MIDNIGHT + 6 * 24 * HOUR });
      const { api } = server;
      const ring = [0, 90, 180, 270].map((bearing) => move(DEFAULT_DEPOT, 420, bearing + 45));
      const zone = await api.post(ZONES, { name: 'Depot', bounds: bounds(ring.map((p) => [p.lon, p.lat] as const)) });
      assert.equal(zone.status, 201, zone.text);
      for (const [v, shift] of SHIFTS.entries()) {
        const id = await createEmployee(api, { name: `Van "${v + 1}", night shift`, vehicleSettings: DAY_VEHICLE });
        ids.push(id);
        for (let d = 0; d < DAYS; d++) {
          const day = generateDay({ seed: 34_500 + v * 10 + d, dayStartMs: MIDNIGHT - shift + d * 24 * HOUR });
          for (let i = 0; i < day.fixes.length; i += 1000) {
            const r = await api.post(LOCATIONS, day.fixes.slice(i, i + 1000).map((f) => ({ subscriberID: id, ...f.body })));
            assert.equal(r.status, 201, r.text);
          }
        }
      }
      // A name a spreadsheet would run as a formula: an Excel CSV must show it as text.
      ids.push(await createEmployee(api, { name: FORMULA_NAME }));
    });
    after(() => server?.close());

    it('a report cut into chunks of one vehicle-day is the report read in one chunk, across midnights inside trips, stops and visits', async () => {
      // The service itself, to read a report in chunks of a chosen size.
      const reports = new ReportService({ database: server.database, employees: server.services.employees, data: server.services.positioning.reportData });
      const period = reports.period(server.account, { dateFrom: `${FIRST_DAY}T00:00:00`, dateTo: `${LAST_DAY}T23:59:59` });
      const collect = async (kind: ReportKind, vehicleDays: number) => {
        const rows: ReportRow<ReportRecord>[] = [];
        let chunks = 0;
        for await (const chunk of reports.stream(server.account, { kind, period }, ids, vehicleDays)) {
          rows.push(...chunk);
          chunks++;
        }
        return { rows, chunks };
      };
      for (const kind of reportKinds) {
        const whole = await collect(kind, 10_000);
        const cut = await collect(kind, 1);
        assert.ok(whole.rows.length > 0, `${kind}: records`);
        assert.equal(whole.chunks, 1, `${kind}: one chunk`);
        assert.ok(cut.chunks > ids.length, `${kind}: read in ${cut.chunks} chunks`);
        assert.deepEqual(cut.rows, whole.rows, `${kind}: the same records in the same order`);
        // And the JSON answer's pages hold the same.
        const json = await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`);
        assert.deepEqual(
          json.map((r) => ({ subscriberId: r.subscriberID, record: r.record })),
          whole.rows,
          `${kind}: as the JSON answer`,
        );
      }
      // The cuts fell where they matter: a trip over a local midnight, a stop and a depot visit over another.
      const overMidnight = (from: string, to: string | null) => to !== null && from.slice(0, 10) !== to.slice(0, 10);
      const trips = (await collect('trips', 1)).rows.map((r) => r.record as { startDate: string; finishDate: string });
      assert.ok(trips.some((t) => overMidnight(t.startDate, t.finishDate)), 'a trip over midnight');
      const visits = (await collect('zoneVisits', 1)).rows.map((r) => r.record as { enteredDate: string; leftDate: string | null });
      assert.ok(visits.some((v) => overMidnight(v.enteredDate, v.leftDate)), 'a zone visit over midnight');
    });

    it('the CSV and the XLSX of every report hold the JSON answer’s records, cell by cell, with the totals row', async () => {
      for (const kind of reportKinds) {
        const json = await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`);
        const columns = reportColumnsIn(kind, 'en');
        const headers = { authorization: `Bearer ${server.token}` };

        const csv = await fetch(`${server.baseUrl}/v6/api/reports/${kind}?${PERIOD}&format=csv`, { headers });
        assert.equal(csv.status, 200);
        assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
        const [header, ...lines] = parseCsv(await csv.text());
        assert.deepEqual(header!.slice(0, 2), ['Employee ID', 'Employee']);
        assert.equal(lines.length, json.length, `${kind}: a line per record`);
        lines.forEach((line, i) => {
          const { subscriberID, name, record } = json[i]!;
          assert.deepEqual(line, [String(subscriberID), name, ...columns.map((c) => csvText(c.value(record)))], `${kind} CSV line ${i + 1}`);
        });

        const xlsx = await fetch(`${server.baseUrl}/v6/api/reports/${kind}?${PERIOD}&format=xlsx`, { headers });
        assert.equal(xlsx.status, 200);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
        const sheet = book.worksheets[0]!;
        assert.equal(sheet.rowCount, json.length + 2, `${kind}: header, a row per record, totals`);
        json.forEach(({ subscriberID, name, record }, i) => {
          const row = sheet.getRow(i + 2);
          assert.equal(row.getCell(1).value, subscriberID);
          assert.equal(row.getCell(2).value, name);
          columns.forEach((c, k) => assertCell(row.getCell(k + 3).value, c, c.value(record), `${kind} row ${i + 2} ${c.header}`));
        });
        const totals = sheet.getRow(json.length + 2);
        assert.equal(totals.getCell(2).value, 'Total');
        columns.forEach((c, k) => {
          const values = json.map((r) => c.value(r.record)).filter((v): v is number => typeof v === 'number');
          if (!c.total || values.length === 0) return;
          const total = c.total === 'sum' ? values.reduce((a, b) => a + b, 0) : Math.max(...values);
          const digits = c.digits ?? 0;
          assertCell(totals.getCell(k + 3).value, c, Math.round(total * 10 ** digits) / 10 ** digits, `${kind} total ${c.header}`);
        });
      }
    });

    it('csvDialect=excel-ru gives Excel a byte-order mark, `;`, decimal commas, dates it reads and formulas as text; excel-en the same with `,`; the default stays RFC 4180', async () => {
      const headers = { authorization: `Bearer ${server.token}` };
      for (const kind of ['trips', 'summary', 'stops'] as const) {
        const json = await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`);
        const columns = reportColumnsIn(kind, 'en');
        const plain = Buffer.from(await (await fetch(`${server.baseUrl}/v6/api/reports/${kind}?${PERIOD}&format=csv`, { headers })).arrayBuffer());
        assert.notDeepEqual([...plain.subarray(0, 3)], BOM, `${kind}: no byte-order mark by default`);
        assert.deepEqual(parseCsv(plain.toString('utf8'))[0]!.slice(2), columns.map((c) => (c.type === 'duration' ? `${c.header}, s` : c.header)), `${kind}: RFC 4180 headers as they were`);
        for (const [dialect, separator, decimalComma] of [['excel-ru', ';', true], ['excel-en', ',', false]] as const) {
          const r = await fetch(`${server.baseUrl}/v6/api/reports/${kind}?${PERIOD}&format=csv&csvDialect=${dialect}`, { headers });
          assert.equal(r.status, 200);
          assert.match(r.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
          const bytes = Buffer.from(await r.arrayBuffer());
          assert.deepEqual([...bytes.subarray(0, 3)], BOM, `${kind} ${dialect}: UTF-8 with a byte-order mark`);
          const [header, ...lines] = parseCsv(bytes.subarray(3).toString('utf8'), separator);
          assert.deepEqual(header!.slice(0, 2), ['Employee ID', 'Employee']);
          assert.equal(lines.length, json.length);
          lines.forEach((line, i) => {
            const { subscriberID, name, record } = json[i]!;
            const expected = [String(subscriberID), excelText('text', name, decimalComma), ...columns.map((c) => excelText(c.type, c.value(record), decimalComma))];
            assert.deepEqual(line, expected, `${kind} ${dialect} line ${i + 1}`);
          });
          if (kind === 'summary') {
            assert.ok(lines.some((l) => l[1] === `'${FORMULA_NAME}`), 'the formula-like name as text');
            if (decimalComma) assert.ok(lines.some((l) => /^\d+,\d+$/.test(l[header!.indexOf('Mileage, km')]!)), 'a decimal comma');
          }
          if (kind === 'trips') {
            const start = header!.indexOf(`Start (${TIME_ZONE})`);
            assert.ok(start > 0, 'the date-time column names the zone its times are in');
            assert.match(lines[0]![start]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, 'a date-time Excel reads');
          }
        }
      }
      const path = `/v6/api/reports/trips?${PERIOD}&format=csv`;
      await assertRefusedUnchanged(() => getAll(server.api, `/v6/api/reports/trips?${PERIOD}`), () => server.api.get(`${path}&csvDialect=excel-de`), { code: 2, field: 'csvDialect' }, 'unknown dialect');
    });

    it('XLSX columns are as wide as what they show: dates whole (no ###), names and addresses to the widest, at most 50', async () => {
      const headers = { authorization: `Bearer ${server.token}` };
      for (const kind of ['trips', 'summary'] as const) {
        const json = await getAll(server.api, `/v6/api/reports/${kind}?${PERIOD}`);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(Buffer.from(await (await fetch(`${server.baseUrl}/v6/api/reports/${kind}?${PERIOD}&format=xlsx`, { headers })).arrayBuffer()) as unknown as ArrayBuffer);
        const sheet = book.worksheets[0]!;
        const columns = reportColumnsIn(kind, 'en');
        const widthOf = (header: string) => sheet.getColumn(2 + 1 + columns.findIndex((c) => c.header === header)).width!;
        const zoned = columns.filter((c) => c.type === 'date').map((c) => `${c.header} (${TIME_ZONE})`);
        for (const name of zoned) assert.ok((sheet.getRow(1).values as unknown[]).includes(name), `${kind}: the header ${name}`);
        const longestName = Math.max(...json.map((r) => r.name.length));
        assert.ok(sheet.getColumn(2).width! >= longestName + 2, `${kind}: the names fit (${sheet.getColumn(2).width} for ${longestName})`);
        for (const c of columns) {
          const width = widthOf(c.header);
          assert.ok(width >= c.header.length + 2 && width <= 54, `${kind} ${c.header}: ${width}`);
          if (c.type === 'date') assert.ok(width >= `${c.header} (${TIME_ZONE})`.length + 2, `${kind} ${c.header}: the zone in the header fits`);
          if (c.type === 'date') assert.ok(width >= 21, `${kind} ${c.header}: a whole date-time (${width})`);
          if (c.type === 'day') assert.ok(width >= 12, `${kind} ${c.header}: a whole date (${width})`);
          if (c.type === 'text') {
            const longest = Math.max(...json.map((r) => String(c.value(r.record)).length));
            assert.ok(width >= Math.min(50, longest + 2), `${kind} ${c.header}: ${width} for ${longest} characters`);
          }
        }
      }
    });

    it(`refuses a period longer than ${MAX_REPORT_DAYS} days in every format with 400, code 2, naming the field, and changes nothing`, async () => {
      const { api } = server;
      const state = async () => ({ summary: await getAll(api, `/v6/api/reports/summary?${PERIOD}`), locations: (await api.get(`${LOCATIONS}?${PERIOD}&count=1000`)).body });
      for (const kind of reportKinds) {
        for (const format of ['json', 'csv', 'xlsx']) {
          const path = `/v6/api/reports/${kind}?format=${format}`;
          await assertRefusedUnchanged(state, () => api.get(`${path}&dateFrom=1970-01-01T00:00:00Z&dateTo=2100-01-01T00:00:00Z`), { code: 2, field: 'dateTo' }, `${kind} ${format}`);
        }
      }
      // Without dateTo the period runs to now: the far dateFrom is the one named.
      await assertRefusedUnchanged(state, () => api.get('/v6/api/reports/trips?dateFrom=2020-01-01T00:00:00Z&format=csv'), { code: 2, field: 'dateFrom' }, 'dateFrom alone');
      // A whole leap year is the longest period there is.
      const year = await api.get('/v6/api/reports/summary?dateFrom=2024-01-01T00:00:00Z&dateTo=2025-01-01T00:00:00Z&format=csv');
      assert.equal(year.status, 200, year.text);
      assert.equal(parseCsv(year.text).length, 1 + ids.length * (MAX_REPORT_DAYS + 1), 'a line per employee and day touched');
      const longer = await api.get('/v6/api/reports/summary?dateFrom=2024-01-01T00:00:00Z&dateTo=2025-01-01T00:00:01Z');
      assert.equal(longer.status, 400);
    });
  });
}
