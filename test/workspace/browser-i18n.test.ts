// Every page of the workspace in Russian and in English: a Russian browser gets the Russian
// workspace with no English left on any page, the first sign-in asks for the account's zone
// (proposing the browser's) and language, and times are shown in the zone chosen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { bounds, GROUPS, MAP_OBJECTS, square, ZONES } from '../geozones/geozone-fixtures.js';
import { needsBrowser, openWorkspace, COORDINATOR, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TASKS } from '../tasks/task-fixtures.js';
import { foreignText, readPage } from './workspace-text.js';

const ACCOUNT = '/v6/api/accountManagement/account';

/** Every tab, with the Russian and English names of its link and the views reached by address. */
const PAGES = [
  { path: 'map', ru: 'Карта', en: 'Map' },
  { path: 'employees', ru: 'Сотрудники', en: 'Employees' },
  { path: 'employees/new', ru: 'Сотрудники', en: 'Employees' },
  { path: 'tasks', ru: 'Задачи', en: 'Tasks' },
  { path: 'objects', ru: 'Объекты', en: 'Map objects' },
  { path: 'events', ru: 'Уведомления', en: 'Events' },
  { path: 'events/new', ru: 'Уведомления', en: 'Events' },
  { path: 'zones', ru: 'Геозоны', en: 'Zones' },
  { path: 'tracks', ru: 'Треки', en: 'Tracks' },
  { path: 'reports', ru: 'Отчёты', en: 'Reports' },
  { path: 'deliveries', ru: 'Отправки', en: 'Deliveries' },
  { path: 'settings', ru: 'Настройки', en: 'Settings' },
];

/** The page's texts but those naming the account's users and tokens (data, in whatever script they were typed). */
async function ofTheWorkspace(page: Page): Promise<string[]> {
  return (await readPage(page)).filter((text) => !/\b(coordinator|admin@\d+|First token)\b/.test(text));
}

/** Opens each view and collects what is not in `language`; the page's loading notes are waited out. */
async function pagesInOtherWords(page: Page, language: 'ru' | 'en'): Promise<string[]> {
  const problems: string[] = [];
  for (const view of PAGES) {
    await page.goto(`/#/${view.path}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const loading = language === 'ru' ? /Загрузка/ : /Loading/;
    await page.getByText(loading).first().waitFor({ state: 'hidden' }).catch(() => {});
    await page.waitForLoadState('networkidle');
    problems.push(...foreignText(await ofTheWorkspace(page), language).map((problem) => `#/${view.path}: ${problem}`));
    if (view.path === 'map') {
      // The card of an employee, opened from the list, with its address and today's figures read.
      await page.locator('.employee-row').first().click();
      await page.locator('.employee-card').waitFor();
      await page.waitForLoadState('networkidle');
      await page.locator('.card-address').filter({ hasNotText: language === 'ru' ? /Определяем/ : /Finding/ }).waitFor();
      problems.push(...foreignText(await readPage(page), language).map((problem) => `#/map, the card: ${problem}`));
    }
  }
  return problems;
}

for (const dialect of dialects) {
  describe(`workspace in the browser: Russian and English (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    /** A fix two days ago at 06:39 UTC: 09:39 in Moscow. */
    const fixAt = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000 + (6 * 60 + 39) * 60_000);

    before(async () => {
      workspace = await openWorkspace({ dialect, locale: 'ru-RU', browserTimeZone: 'Europe/Moscow', firstSignIn: true });
      const { api } = workspace.server;
      const group = await api.post(GROUPS, { name: 'Склады' });
      await api.post(ZONES, { name: 'Склад на Лесной', zoneGroupID: group.body.zoneGroupID, bounds: bounds(square(37.6, 55.75, 0.01)) });
      const ivan = await createEmployee(api, { name: 'Иван Петров' });
      assert.equal((await api.post(LOCATIONS, [{ subscriberID: ivan, locationDate: fixAt.toISOString(), latitude: 55.75, longitude: 37.6, velocity: 42.46 }])).status, 201);
      await api.post(TASKS, { title: 'Доставка заказа 17', subscriberID: ivan, startDate: fixAt.toISOString() });
      await api.post(MAP_OBJECTS, { name: 'Офис на Тверской', latitude: 55.76, longitude: 37.61 });
    });
    after(() => workspace?.close());

    test('a Russian browser signs in in Russian and is asked for the zone (its own proposed) and the language', async () => {
      const { page, server } = workspace;
      await page.goto('/');
      await page.getByLabel('Логин').fill(COORDINATOR.login);
      await page.getByLabel('Пароль').fill(COORDINATOR.password);
      await page.getByRole('button', { name: 'Войти' }).click();
      const setup = page.getByRole('form', { name: 'Часовой пояс и язык аккаунта' });
      await setup.waitFor();
      assert.equal(await setup.getByLabel('Часовой пояс').inputValue(), 'Europe/Moscow', 'the browser’s zone is proposed');
      assert.equal(await setup.getByLabel('Язык аккаунта (отчёты, письма)').inputValue(), 'ru');
      await setup.getByRole('button', { name: 'Сохранить' }).click();
      await setup.waitFor({ state: 'detached' });
      const account = (await server.api.get(ACCOUNT)).body;
      assert.deepEqual([account.timeZone, account.locale, account.settingsConfirmed], ['Europe/Moscow', 'ru', true]);
      await page.locator('header .zone').filter({ hasText: 'Время: Москва' }).waitFor();
      await page.reload();
      await page.getByRole('navigation', { name: 'Разделы' }).waitFor();
      assert.equal(await page.getByRole('form', { name: 'Часовой пояс и язык аккаунта' }).count(), 0, 'asked once');
    });

    test('a position is dated in Moscow time, its speed in whole km/h', async () => {
      const { page } = workspace;
      await page.goto('/#/map');
      const row = page.locator('.employee-row').filter({ hasText: 'Иван Петров' });
      await row.waitFor();
      const when = row.locator('time');
      assert.match((await when.textContent()) ?? '', /09:39/);
      assert.match((await when.getAttribute('title')) ?? '', /09:39:00.*Москва/);
      assert.match((await row.textContent()) ?? '', /42 км\/ч/);
      assert.match((await row.textContent()) ?? '', /Нет данных за сегодня/, 'a fix of two days ago: no data today');
      await row.click();
      const card = page.getByRole('region', { name: 'Иван Петров' });
      assert.match((await card.textContent()) ?? '', /Последние данные\d+ \S+ назад · /);
    });

    test('every page is in Russian: no English, no raw key, no unfilled placeholder', async () => {
      assert.deepEqual(await pagesInOtherWords(workspace.page, 'ru'), []);
      await workspace.screenshot('i18n-settings-ru');
    });

    test('a report shown in Russian, with Russian words around it and a CSV that Russian Excel opens', async () => {
      const { page } = workspace;
      const day = fixAt.toISOString().slice(0, 10);
      await page.goto('/#/reports');
      const form = page.getByRole('form', { name: 'Выбор отчёта' });
      await form.getByLabel('Отчёт').selectOption('summary');
      await form.getByLabel('С', { exact: true }).fill(day);
      await form.getByLabel('По', { exact: true }).fill(day);
      await form.getByRole('button', { name: 'Показать: Сводка' }).press('Enter');
      await page.getByRole('table', { name: /^Сводка с / }).waitFor();
      assert.deepEqual(foreignText(await readPage(page), 'ru'), []);
      const link = page.getByRole('link', { name: 'Скачать «Сводка» в CSV' });
      assert.match((await link.getAttribute('href')) ?? '', /csvDialect=excel-ru/);
      // The bytes the download gets, through the page's own session.
      const bytes = await page.evaluate(async (href) => Array.from(new Uint8Array(await (await fetch(href)).arrayBuffer()).slice(0, 400)), (await link.getAttribute('href'))!);
      const text = Buffer.from(bytes).toString('utf8');
      assert.deepEqual(bytes.slice(0, 3), [0xef, 0xbb, 0xbf], 'UTF-8 with a byte-order mark');
      assert.match(text, /^\uFEFFID сотрудника;Сотрудник;/);
      assert.match(text, /Иван Петров/);
    });

    test('the header switches to English, remembered in this browser; an English browser gets English', async () => {
      const { page, browser, server } = workspace;
      await page.getByRole('combobox', { name: 'Язык', exact: true }).selectOption('en');
      await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
      await page.reload();
      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Employees' }).waitFor();
      await page.locator('header .zone').filter({ hasText: 'Times in Moscow Standard Time' }).waitFor();
      await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('ru');
      await page.getByRole('navigation', { name: 'Разделы' }).waitFor();

      const context = await browser.newContext({ locale: 'en-US', baseURL: server.baseUrl, viewport: { width: 1280, height: 900 } });
      try {
        const english = await context.newPage();
        await english.goto('/');
        await english.getByLabel('Login').fill(COORDINATOR.login);
        await english.getByLabel('Password').fill(COORDINATOR.password);
        await english.getByRole('button', { name: 'Sign in' }).click();
        await english.getByRole('navigation', { name: 'Workspace' }).waitFor();
        assert.deepEqual(await pagesInOtherWords(english, 'en'), []);
      } finally {
        await context.close();
      }
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
