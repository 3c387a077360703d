import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { postLive, RULES, Trip } from '../signals/signal-api.js';

/** A tone and a notification are made by the page: the page's Notification is wrapped to count them (page code as a string: no DOM types here). */
const RECORD_NOTIFICATIONS = `
  window.__notifications = [];
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__notifications.push(title); }
  };
`;
const notifications = (page: Page) => page.evaluate<string[]>('window.__notifications ?? []');

/** Where the last trip ended: a trip posted after it starts later (an earlier fix would be a late one, replayed without signals). */
let lastFixMs = 0;

/** Drives over 60 km/h for half a minute, ending a little before now: live fixes, as a tracker sends them. */
async function speed(workspace: Workspace, subscriberID: number): Promise<void> {
  const trip = new Trip(subscriberID, Math.max(Date.now() - 120_000, lastFixMs)).park(20).drive(30, 72).park(20);
  lastFixMs = trip.timeMs;
  await postLive(workspace.server.api, trip.fixes);
}

/**
 * Alerts in the browser: a speeding fix posted by a tracker appears under the header's bell, with
 * the employee and the place, counted as unhandled, announced by a notification; "Mark handled"
 * clears the count and says who; the sound and notification switches are kept across a reload.
 * In English, then in Russian, on each store.
 */
for (const dialect of dialects) {
  describe(`workspace in the browser: alerts (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let truck: number;
    lastFixMs = 0;

    before(async () => {
      workspace = await openWorkspace({ dialect, timeZone: 'Europe/Moscow' });
      const { page, server } = workspace;
      await page.context().grantPermissions(['notifications'], { origin: server.baseUrl });
      await page.context().addInitScript(RECORD_NOTIFICATIONS);
      truck = await createEmployee(server.api, { name: 'Truck 12' });
      const rule = await server.api.post(RULES, { name: 'Over 60', kind: 1, subscriberIDs: [truck], parameters: { speedLimit: 60 } });
      assert.equal(rule.status, 201, rule.text);
      await page.reload();
      await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
    });
    after(() => workspace?.close());

    test('English: the switches persist; a speeding alert appears, is counted, notified, and handled by whom', async () => {
      const { page } = workspace;
      await page.getByRole('button', { name: 'Alerts: none unhandled' }).click();
      const panel = page.getByRole('region', { name: 'Recent alerts' });
      await panel.getByText('No alerts yet.').waitFor();
      assert.equal(await panel.getByLabel('Sound').isChecked(), true, 'sound is on at first');
      assert.equal(await panel.getByLabel('Browser notifications').isChecked(), false);
      await panel.getByLabel('Browser notifications').check();
      await panel.getByLabel('Sound').uncheck();
      await page.reload();
      await page.getByRole('button', { name: 'Alerts: none unhandled' }).click();
      assert.equal(await panel.getByLabel('Browser notifications').isChecked(), true, 'kept across a reload');
      assert.equal(await panel.getByLabel('Sound').isChecked(), false);
      await panel.getByLabel('Sound').check();

      await speed(workspace, truck);
      const item = panel.locator('.alert-item').filter({ hasText: 'Truck 12' });
      await item.waitFor({ timeout: 10_000 });
      assert.match((await item.textContent()) ?? '', /Speeding: 72 km\/h/);
      assert.match((await item.locator('.alert-where').textContent()) ?? '', /^55\.\d{5}, 37\.\d{5}$/);
      assert.match((await item.locator('time').textContent()) ?? '', /just now|min/);
      await page.getByRole('button', { name: 'Alerts: 1 unhandled' }).waitFor();
      assert.deepEqual(await notifications(page), ['Lokator: Speeding: 72 km/h']);
      assert.equal(await item.getByRole('link', { name: 'Show Truck 12 on the map' }).getAttribute('href'), `#/map/${truck}`);

      await item.getByRole('button', { name: 'Mark alert “Speeding: 72 km/h” handled' }).click();
      await item.getByText(/Handled by coordinator, /).waitFor();
      await page.getByRole('button', { name: 'Alerts: none unhandled' }).waitFor();
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('Russian: the alert in Russian words, "Отработано" with who; the Alerts tab lists and filters them', async () => {
      const { page } = workspace;
      await page.getByLabel('Language').selectOption('ru');
      const bell = page.getByRole('button', { name: 'Оповещения: новых нет' });
      await bell.waitFor();
      await bell.click();
      const panel = page.getByRole('region', { name: 'Последние оповещения' });
      await panel.getByText(/Отработал coordinator/).waitFor();

      await speed(workspace, truck);
      const item = panel.locator('.alert-item.open').filter({ hasText: 'Truck 12' });
      await item.waitFor({ timeout: 10_000 });
      assert.match((await item.textContent()) ?? '', /Превышение скорости: 72 км\/ч/);
      await page.getByRole('button', { name: 'Оповещения: 1 новое' }).waitFor();
      assert.equal((await notifications(page)).at(-1), 'Локатор: Превышение скорости: 72 км/ч');
      await item.getByRole('button', { name: 'Отметить оповещение «Превышение скорости: 72 км/ч» отработанным' }).click();
      await page.getByRole('button', { name: 'Оповещения: новых нет' }).waitFor();

      await page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Оповещения' }).click();
      await page.getByRole('heading', { name: 'Оповещения', exact: true }).waitFor();
      const rows = page.locator('.alerts-table tbody tr');
      await page.getByRole('status').filter({ hasText: 'Показано 2 оповещения' }).waitFor();
      assert.equal(await rows.count(), 2);
      assert.match((await rows.first().textContent()) ?? '', /Truck 12.*Превышение скорости.*Over 60.*Отработал coordinator/);
      await page.getByLabel('Тип').selectOption('2');
      await page.getByText('Таких оповещений нет.').waitFor();
      await page.getByLabel('Тип').selectOption('1');
      await page.getByRole('status').filter({ hasText: 'Показано 2 оповещения' }).waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Выгрузить в CSV' }).click();
      const csv = await (await download).createReadStream();
      let text = '';
      for await (const chunk of csv) text += String(chunk);
      const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n');
      assert.equal(lines.length, 3);
      assert.match(lines[0]!, /^Когда,Сотрудник,Тип,Что,Где,Правило,Отработано$/);
      assert.match(lines[1]!, /Truck 12,Превышение скорости,Превышение скорости: 72 км\/ч/);
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
