// Report schedules: the CRUD routes in the v6 conventions, the occurrences in the account's zone, and
// the weekly e-mail arriving at a real SMTP server on loopback with its XLSX, sent once however many
// schedulers (servers, restarts) find it due.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { attachmentsOf, startSmtp } from '../helpers/smtp.js';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { nextOccurrence, reportedPeriod } from '../../src/reports/schedule-clock.js';
import { ReportScheduler } from '../../src/reports/report-scheduler.js';
import type { Database } from '../../src/store/database.js';
import { assertRefusedUnchanged } from '../helpers/bad-input.js';
import { Client, createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects, freshDatabase } from '../helpers/stores.js';
import { DAY_VEHICLE, generateDay } from '../positioning/day-generator.js';
import { until } from '../helpers/wait.js';

const SCHEDULES = '/v6/api/reports/schedules';
const TIME_ZONE = 'Asia/Kolkata';

describe('report schedule occurrences (account zone)', () => {
  it('weekly on Monday 08:00 in Kolkata: the next Monday, reporting the seven days before', () => {
    const timing = { frequency: 'weekly' as const, weekday: 1, monthDay: null, time: '08:00' };
    const sunday = Date.parse('2026-05-24T12:00:00+05:30');
    const next = nextOccurrence(timing, TIME_ZONE, sunday);
    assert.equal(next, Date.parse('2026-05-25T08:00:00+05:30'));
    assert.equal(nextOccurrence(timing, TIME_ZONE, next), Date.parse('2026-06-01T08:00:00+05:30'), 'strictly after');
    assert.deepEqual(reportedPeriod(timing, TIME_ZONE, next), { fromMs: Date.parse('2026-05-18T00:00:00+05:30'), toMs: Date.parse('2026-05-25T00:00:00+05:30') });
  });

  it('monthly on the 3rd: the calendar month before; daily across a daylight-saving change keeps the wall-clock time', () => {
    const monthly = { frequency: 'monthly' as const, weekday: null, monthDay: 3, time: '06:30' };
    const at = nextOccurrence(monthly, 'Europe/Berlin', Date.parse('2026-03-10T00:00:00Z'));
    assert.equal(at, Date.parse('2026-04-03T06:30:00+02:00'));
    assert.deepEqual(reportedPeriod(monthly, 'Europe/Berlin', at), { fromMs: Date.parse('2026-03-01T00:00:00+01:00'), toMs: Date.parse('2026-04-01T00:00:00+02:00') });
    const daily = { frequency: 'daily' as const, weekday: null, monthDay: null, time: '07:00' };
    assert.equal(nextOccurrence(daily, 'Europe/Berlin', Date.parse('2026-03-28T07:00:00+01:00')), Date.parse('2026-03-29T07:00:00+02:00'));
    assert.deepEqual(reportedPeriod(daily, 'Europe/Berlin', Date.parse('2026-03-30T07:00:00+02:00')), {
      fromMs: Date.parse('2026-03-29T00:00:00+01:00'),
      toMs: Date.parse('2026-03-30T00:00:00+02:00'),
    });
  });
});

for (const dialect of dialects) {
  describe(`report schedules (${dialect})`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    let services: Services;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let api: Client;
    let other: Client;
    let now = Date.parse('2026-05-24T10:00:00+05:30');
    const clock = () => now;

    before(async () => {
      smtp = await startSmtp();
      ({ database, drop } = await freshDatabase(dialect));
      services = createServices(database, clock, {
        allowPrivateAddresses: true,
        delivery: { smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Lokator <lokator@example.test>' }, retryScheduleMs: [50, 100], timeoutMs: 5000 },
      });
      app = await buildApp({ database, services, clock, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 16 * 1024 * 1024 } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const first = await services.accounts.createAccount({ name: 'Fleet', timeZone: TIME_ZONE });
      const second = await services.accounts.createAccount({ name: 'Stranger', timeZone: 'UTC' });
      api = new Client(baseUrl, first.token);
      other = new Client(baseUrl, second.token);
    });
    after(async () => {
      await services.delivery.worker.stop();
      await app.close();
      await drop();
      await smtp.close();
    });

    const weekly = { name: 'Fleet week', report: 'summary', recipients: ['fleet@example.test', 'boss@example.test'], frequency: 'weekly', weekday: 1, time: '08:00' };

    it('creates, reads, changes and deletes a schedule; the next send is in the account’s zone', async () => {
      const created = await api.post(SCHEDULES, { ...weekly, name: 'Draft' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('location'), `${SCHEDULES}/${created.body.reportScheduleID}`);
      assert.equal(created.body.nextSendDate, '2026-05-25T08:00:00+05:30');
      assert.deepEqual(created.body.subscriberIDs, []);
      const id = created.body.reportScheduleID;
      assert.equal((await api.patch(`${SCHEDULES}/${id}`, { frequency: 'monthly', monthDay: 3, time: '06:30' })).status, 204);
      const patched = await api.get(`${SCHEDULES}/${id}`);
      assert.equal(patched.body.nextSendDate, '2026-06-03T06:30:00+05:30');
      assert.equal(patched.body.name, 'Draft');
      assert.equal((await api.put(`${SCHEDULES}/${id}`, { ...weekly, name: 'Off', enabled: false })).status, 204);
      assert.equal((await api.get(`${SCHEDULES}/${id}`)).body.nextSendDate, null);
      assert.equal((await other.get(`${SCHEDULES}/${id}`)).status, 404, 'another account’s schedule is 404');
      assert.equal((await other.delete(`${SCHEDULES}/${id}`)).status, 404);
      assert.equal((await api.delete(`${SCHEDULES}/${id}`)).status, 204);
      const gone = await api.get(`${SCHEDULES}/${id}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 1023);
    });

    it('refuses bad schedules with the envelope and changes nothing', async () => {
      const cases: [Record<string, unknown>, number][] = [
        [{ ...weekly, weekday: undefined }, 52],
        [{ ...weekly, frequency: 'monthly' }, 52],
        [{ ...weekly, time: '24:00' }, 2],
        [{ ...weekly, recipients: [] }, 2],
        [{ ...weekly, recipients: ['not an address'] }, 2],
        [{ ...weekly, report: 'everything' }, 2],
        [{ ...weekly, name: undefined }, 52],
      ];
      for (const [body, code] of cases) {
        await assertRefusedUnchanged(() => api.get(SCHEDULES).then((r) => r.body), () => api.post(SCHEDULES, body), { code }, JSON.stringify(body));
      }
    });

    it('e-mails the weekly summary once, with its XLSX, however many schedulers find it due', async () => {
      const truck = await createEmployee(api, { name: 'Truck 7', vehicleSettings: DAY_VEHICLE });
      const day = generateDay({ seed: 4242, dayStartMs: Date.parse('2026-05-20T00:00:00+05:30') });
      for (let i = 0; i < day.fixes.length; i += 1000) {
        const r = await api.post(LOCATIONS, day.fixes.slice(i, i + 1000).map((f) => ({ subscriberID: truck, ...f.body })));
        assert.equal(r.status, 201, r.text);
      }
      const created = await api.post(SCHEDULES, weekly);
      assert.equal(created.status, 201, created.text);
      await services.delivery.worker.start(pino({ level: 'silent' }));

      const servers = [services.reports.scheduler, new ReportScheduler({ database, accounts: services.accounts, outbox: services.delivery.outbox, clock })];
      await Promise.all(servers.map((s) => s.tick()));
      assert.equal(smtp.mails.length, 0, 'not due before Monday 08:00');

      now = Date.parse('2026-05-25T08:00:20+05:30');
      // Two servers at once, then one of them again (a restart): one claim.
      await Promise.all(servers.map((s) => s.tick()));
      await servers[1]!.tick();
      await until('two e-mails', () => smtp.mails.length >= 2);
      const deliveries = await api.get('/v6/api/eventManagement/deliveries');
      assert.equal(deliveries.body.data.filter((d: any) => d.channel === 'email').length, 2, 'one e-mail per recipient, not doubled');
      assert.deepEqual(smtp.mails.flatMap((m) => m.to).sort(), ['boss@example.test', 'fleet@example.test']);

      const mail = smtp.mails[0]!;
      assert.match(mail.raw, /Subject: Fleet week: Summary 2026-05-18 to 2026-05-24\r\n/);
      const [file] = attachmentsOf(mail.raw);
      assert.ok(file, 'the e-mail has an attachment');
      assert.equal(file.filename, 'summary-2026-05-18-2026-05-24.xlsx');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.content as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      assert.equal(sheet.name, 'Summary');
      assert.equal(sheet.rowCount, 1 + 7 + 1, 'header, seven days, totals');
      const json = await api.get(`/v6/api/reports/summary?subscriberIDs=${truck}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59`);
      const wednesday = json.body.data[0].records[0];
      const row = sheet.getRow(1 + 3);
      assert.equal((row.getCell(3).value as Date).toISOString().slice(0, 10), '2026-05-20');
      assert.equal(row.getCell(4).value, wednesday.mileage);
      assert.ok(wednesday.mileage > 50, 'the day drove');

      const schedule = await api.get(`${SCHEDULES}/${created.body.reportScheduleID}`);
      assert.equal(schedule.body.nextSendDate, '2026-06-01T08:00:00+05:30');
      await servers[0]!.tick();
      assert.equal(smtp.mails.length, 2, 'nothing more until next Monday');
    });
  });
}
