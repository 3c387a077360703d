// The Reports tab in the browser: a week's summary chosen, shown, sorted and downloaded as XLSX; a
// weekly schedule made in the form; its e-mail arriving at a real SMTP server on loopback with the
// workbook attached when the server's clock reaches Monday 08:00 in the account's zone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { attachmentsOf, startSmtp } from '../helpers/smtp.js';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { DAY_VEHICLE, generateDay } from '../positioning/day-generator.js';
import { until } from '../helpers/wait.js';

const TIME_ZONE = 'Asia/Kolkata';

describe('workspace: reports', needsBrowser, () => {
  let workspace: Workspace;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let truckMileage = 0;

  before(async () => {
    smtp = await startSmtp();
    workspace = await openWorkspace({
      timeZone: TIME_ZONE,
      now: Date.parse('2026-05-24T10:00:00+05:30'),
      delivery: { smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Lokator <lokator@example.test>' }, retryScheduleMs: [50, 100], timeoutMs: 5000 },
    });
    const { api } = workspace.server;
    const truck = await createEmployee(api, { name: 'Truck 7', vehicleSettings: DAY_VEHICLE });
    await createEmployee(api, { name: 'Idle van' });
    const day = generateDay({ seed: 99, dayStartMs: Date.parse('2026-05-20T00:00:00+05:30') });
    for (let i = 0; i < day.fixes.length; i += 1000) {
      const r = await api.post(LOCATIONS, day.fixes.slice(i, i + 1000).map((f) => ({ subscriberID: truck, ...f.body })));
      assert.equal(r.status, 201, r.text);
    }
    const summary = await api.get(`/v6/api/reports/summary?subscriberIDs=${truck}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59`);
    truckMileage = summary.body.data[0].records[0].mileage;
  });
  after(async () => {
    await workspace?.server.services.delivery.worker.stop();
    await workspace?.close();
    await smtp.close();
  });

  test('a week’s summary is chosen, shown, sorted and downloaded', async () => {
    const { page } = workspace;
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Choose a report' });
    await form.getByLabel('Report').selectOption('summary');
    await form.getByLabel('Employees').selectOption({ label: 'All employees' });
    await form.getByLabel('From').fill('2026-05-18');
    await form.getByLabel('To').fill('2026-05-24');
    await form.getByRole('button', { name: 'Show summary' }).press('Enter');
    await page.getByRole('status').filter({ hasText: 'Summary, 18 May 2026 to 24 May 2026: 14 rows' }).waitFor();

    const table = page.getByRole('table', { name: /Summary from 18 May 2026/ });
    const mileage = table.getByRole('columnheader', { name: 'Mileage, km' });
    // Sorted by keyboard: the header's button, twice, highest first.
    await mileage.getByRole('button').focus();
    await page.keyboard.press('Enter');
    assert.equal(await mileage.getAttribute('aria-sort'), 'ascending');
    await page.keyboard.press('Enter');
    assert.equal(await mileage.getAttribute('aria-sort'), 'descending');
    const first = table.getByRole('row').nth(1);
    assert.equal(await first.getByRole('cell').nth(0).textContent(), 'Truck 7');
    assert.equal(await first.getByRole('cell').nth(1).textContent(), '2026-05-20');
    assert.equal(await first.getByRole('cell').nth(2).textContent(), truckMileage.toFixed(1));
    await page.getByRole('figure', { name: 'Distance and fuel per day' }).getByText(`${truckMileage.toFixed(1)} km`).first().waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download Summary as Excel (XLSX)' }).click()]);
    assert.equal(download.suggestedFilename(), 'summary-2026-05-18-2026-05-24.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    assert.equal(sheet.name, 'Summary');
    const truckRows = sheet.getRows(2, sheet.rowCount - 1)!.filter((row) => row.getCell(2).value === 'Truck 7' && (row.getCell(3).value as Date).toISOString().startsWith('2026-05-20'));
    assert.equal(truckRows[0]!.getCell(4).value, truckMileage);
    await workspace.screenshot('reports-summary');
  });

  test('a weekly schedule made in the form e-mails the summary with its workbook on Monday 08:00', async () => {
    const { page, server } = workspace;
    await page.getByRole('button', { name: 'E-mail a report on a schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name').fill('Fleet week');
    await form.getByLabel('Report').selectOption('summary');
    await form.getByLabel('How often').selectOption('weekly');
    await form.getByLabel('Day of the week').selectOption({ label: 'Monday' });
    await form.getByLabel(/^Time/).fill('08:00');
    await form.getByLabel('Recipients').fill('fleet@example.test, boss@example.test');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Schedule “Fleet week” saved.').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Fleet week' }).filter({ hasText: 'next 25 May 2026, 08:00' }).waitFor();
    await workspace.screenshot('reports-schedule');

    await server.services.delivery.worker.start(pino({ level: 'silent' }));
    server.setNow(Date.parse('2026-05-25T08:00:30+05:30'));
    await server.services.reports.scheduler.tick();
    await until('the two e-mails', () => smtp.mails.length >= 2);
    assert.deepEqual(smtp.mails.flatMap((m) => m.to).sort(), ['boss@example.test', 'fleet@example.test']);
    const mail = smtp.mails[0]!;
    assert.match(mail.raw, /Subject: Fleet week: Summary 2026-05-18 to 2026-05-24/);
    const [attachment] = attachmentsOf(mail.raw);
    assert.ok(attachment, 'an attachment');
    assert.equal(attachment.filename, 'summary-2026-05-18-2026-05-24.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(attachment.content as unknown as ArrayBuffer);
    assert.equal(workbook.worksheets[0]!.name, 'Summary');
    assert.equal(workbook.worksheets[0]!.rowCount, 1 + 14 + 1, 'two employees × seven days, header and totals');
    assert.deepEqual(workspace.pageErrors, []);
  });
});
