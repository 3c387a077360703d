// Report files in the account's language: a Russian account's XLSX has Russian sheet names and
// headers, its CSV Russian headers, and every other cell is what the English files hold (the same
// columns, the same numbers); its scheduled report e-mail is Russian, in Moscow time, and so is
// the workbook attached. JSON reports keep their field names.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';
import { reportKindNames as reportKinds, reportKindOf, type ReportKind } from '../../src/reports/kinds/report-kinds.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { attachmentsOf, startSmtp, subjectOf, textOf } from '../helpers/smtp.js';
import { dialects } from '../helpers/stores.js';
import { DAY_VEHICLE, generateDay } from '../positioning/day-generator.js';
import { parseCsv } from './csv.js';
import { until } from '../helpers/wait.js';

const ACCOUNT = '/v6/api/accountManagement/account';
const PERIOD = 'dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59';

async function workbookOf(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  assert.equal(workbook.worksheets.length, 1);
  return workbook.worksheets[0]!;
}

/** Every row's cell values, as exceljs reads them (dates as Dates, numbers as numbers). */
function cells(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v instanceof Date ? v.toISOString() : v))));
  return rows;
}

for (const dialect of dialects) {
  describe(`report files in the account's language on ${dialect}`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    const files = { en: new Map<string, Buffer>(), ru: new Map<string, Buffer>() };

    before(async () => {
      smtp = await startSmtp();
      server = await startServer(dialect, {
        timeZone: 'Europe/Moscow',
        now: Date.parse('2026-05-24T10:00:00+03:00'),
        delivery: { smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'lokator@example.test' }, retryScheduleMs: [50], timeoutMs: 5000 },
      });
      const truck = await createEmployee(server.api, { name: 'Самосвал 7', vehicleSettings: DAY_VEHICLE });
      const day = generateDay({ seed: 3636, dayStartMs: Date.parse('2026-05-20T00:00:00+03:00') });
      for (let i = 0; i < day.fixes.length; i += 1000) {
        const r = await server.api.post(LOCATIONS, day.fixes.slice(i, i + 1000).map((f) => ({ subscriberID: truck, ...f.body })));
        assert.equal(r.status, 201, r.text);
      }
      // The same data read in English, then in Russian.
      for (const locale of ['en', 'ru'] as const) {
        assert.equal((await server.api.patch(ACCOUNT, { locale })).status, 204);
        for (const kind of reportKinds) {
          for (const format of ['xlsx', 'csv']) {
            const file = await fetch(`${server.baseUrl}/v6/api/reports/${kind}?${PERIOD}&format=${format}`, { headers: { authorization: `Bearer ${server.token}` } });
            assert.equal(file.status, 200, `${kind} ${format}`);
            files[locale].set(`${kind}.${format}`, Buffer.from(await file.arrayBuffer()));
          }
        }
      }
    });
    after(async () => {
      await server.services.delivery.worker.stop();
      await server.close();
      await smtp.close();
    });

    // An XLSX date cell carries no offset: its column's header names the account's zone.
    const headersIn = (locale: 'en' | 'ru', kind: ReportKind) => {
      const words = (locale === 'en' ? en : ru).reports;
      const headers: Record<string, string> = words.columns[kind];
      const zoned = reportKindOf(kind)!.columns.map((c) => (c.type === 'date' ? `${headers[c.field]} (Europe/Moscow)` : headers[c.field]));
      return [words.employeeId, words.employee, ...zoned];
    };

    it('XLSX: Russian sheet names and headers, every other cell as in English', async () => {
      const trips = await workbookOf(files.ru.get('trips.xlsx')!);
      assert.equal(trips.name, 'Поездки');
      assert.deepEqual(cells(trips)[0]!.slice(0, 4), ['ID сотрудника', 'Сотрудник', 'ID трека', 'Начало (Europe/Moscow)']);
      for (const kind of reportKinds) {
        const [english, russian] = [await workbookOf(files.en.get(`${kind}.xlsx`)!), await workbookOf(files.ru.get(`${kind}.xlsx`)!)];
        assert.equal(english.name, en.reports.titles[kind]);
        assert.equal(russian.name, ru.reports.titles[kind]);
        const [enRows, ruRows] = [cells(english), cells(russian)];
        assert.deepEqual(enRows[0], headersIn('en', kind));
        assert.deepEqual(ruRows[0], headersIn('ru', kind), kind);
        assert.equal(ruRows.at(-1)![1], 'Итого');
        assert.equal(enRows.at(-1)![1], 'Total');
        // The data and the totals: the same cells, the same numbers.
        assert.deepEqual(ruRows.slice(1, -1), enRows.slice(1, -1), kind);
        assert.deepEqual(ruRows.at(-1)!.slice(2), enRows.at(-1)!.slice(2), `${kind} totals`);
      }
      assert.ok(cells(trips).length > 3, 'the day has trips');
      assert.equal(cells(trips)[1]![1], 'Самосвал 7', 'names stay as entered');
    });

    it('CSV: Russian headers (durations in seconds say so), the same lines after them', () => {
      for (const kind of reportKinds) {
        const [english, russian] = [parseCsv(files.en.get(`${kind}.csv`)!.toString('utf8')), parseCsv(files.ru.get(`${kind}.csv`)!.toString('utf8'))];
        assert.equal(russian[0]!.length, english[0]!.length, kind);
        assert.deepEqual(russian.slice(1), english.slice(1), kind);
        assert.equal(russian[0]![0], 'ID сотрудника');
      }
      const stops = parseCsv(files.ru.get('stops.csv')!.toString('utf8'))[0]!;
      assert.deepEqual(stops, ['ID сотрудника', 'Сотрудник', 'Начало', 'Окончание', 'Длительность, с', 'Холостой ход, с', 'Адрес', 'Широта', 'Долгота']);
      assert.equal(parseCsv(files.en.get('stops.csv')!.toString('utf8'))[0]![4], 'Duration, s');
    });

    it('JSON reports keep their field names in Russian', async () => {
      const json = await server.api.get(`/v6/api/reports/trips?${PERIOD}`);
      assert.equal(json.status, 200, json.text);
      assert.ok('maxSpeed' in json.body.data[0].records[0] && 'startDate' in json.body.data[0].records[0]);
    });

    it('the scheduled report e-mail is Russian, in Moscow time, with a Russian workbook', async () => {
      const created = await server.api.post('/v6/api/reports/schedules', { name: 'Неделя парка', report: 'summary', recipients: ['park@example.test'], frequency: 'weekly', weekday: 1, time: '08:00' });
      assert.equal(created.status, 201, created.text);
      await server.services.delivery.worker.start(pino({ level: 'silent' }));
      server.setNow(Date.parse('2026-05-25T08:00:20+03:00'));
      await server.services.reports.scheduler.tick();
      await until('the e-mail', () => smtp.mails.length === 1);
      const [mail] = smtp.mails;
      assert.equal(subjectOf(mail!.raw), 'Неделя парка: Сводка за 18.05.2026 – 24.05.2026');
      assert.equal(
        textOf(mail!.raw).replace(/\r\n/g, '\n').trim(),
        [
          'Отчёт «Сводка» по расписанию «Неделя парка» за 18.05.2026 – 24.05.2026 (Москва) — во вложении, файл Excel.',
          'По всем сотрудникам.',
          'Отправлено Lokator по расписанию (еженедельно в 08:00); следующая отправка: 01.06.2026, 08:00 (Москва).',
        ].join('\n'),
      );
      const [file] = attachmentsOf(mail!.raw);
      const sheet = await workbookOf(file!.content);
      assert.equal(sheet.name, 'Сводка');
      assert.deepEqual(cells(sheet)[0], headersIn('ru', 'summary'));
      assert.equal(cells(sheet).length, 1 + 7 + 1, 'header, seven days, totals');
    });
  });
}
