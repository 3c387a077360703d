import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';

const TABS = ['Map', 'Employees', 'Tasks', 'Map objects', 'Events', 'Zones', 'Tracks', 'Reports', 'Deliveries', 'Settings'];

/**
 * Runs in the page: every visible control without an accessible name (aria-label, aria-labelledby,
 * a <label>, its text, title or alt), as a short description.
 */
const UNNAMED_CONTROLS = `(() => {
  const controls = document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=checkbox], [role=tab]');
  const textOf = (ids) => ids.split(/\\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  const unnamed = [];
  for (const el of controls) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const name = [
      el.getAttribute('aria-label'),
      el.getAttribute('aria-labelledby') && textOf(el.getAttribute('aria-labelledby')),
      ...Array.from(el.labels ?? []).map((l) => l.textContent),
      el.tagName === 'INPUT' ? '' : el.textContent,
      el.getAttribute('title'),
      el.getAttribute('alt'),
      el.querySelector?.('img[alt]')?.getAttribute('alt'),
    ].find((text) => text && text.trim());
    if (!name) unnamed.push(el.outerHTML.slice(0, 160));
  }
  return unnamed;
})()`;

/** Runs in the page: how much wider than the window the page is (0 when nothing scrolls sideways). */
const SIDEWAYS_OVERFLOW = 'document.documentElement.scrollWidth - window.innerWidth';

describe('workspace accessibility: names, keyboard, phone width', needsBrowser, () => {
  let workspace: Workspace;
  before(async () => {
    workspace = await openWorkspace({ viewport: { width: 375, height: 740 } });
    const employeeID = await createEmployee(workspace.server.api, { name: 'Olga Smirnova' });
    await workspace.server.api.post(LOCATIONS, [{ subscriberID: employeeID, locationDate: new Date().toISOString().slice(0, 19), latitude: 55.75, longitude: 37.62 }]);
  });
  after(() => workspace?.close());

  for (const tab of TABS) {
    test(`${tab}: every control has an accessible name and the page fits 375 px`, async () => {
      const { page } = workspace;
      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      assert.deepEqual(await page.evaluate(UNNAMED_CONTROLS), [], `${tab}: controls without a name`);
      assert.ok((await page.evaluate<number>(SIDEWAYS_OVERFLOW)) <= 0, `${tab}: the page scrolls sideways at 375 px`);
      await workspace.screenshot(`phone-${tab.toLowerCase().replace(' ', '-')}`);
    });
  }

  // The forms of the fleet's tabs, open, with every part unfolded.
  const FORMS: [string, string, (page: Workspace['page']) => Promise<void>][] = [
    ['employee form', '/#/employees/new', async (page) => {
      await page.getByText('Vehicle settings').click();
      await page.getByRole('button', { name: 'Add sensor limit' }).click();
      await page.getByRole('button', { name: 'Add sensor input' }).click();
      await page.getByRole('radio', { name: 'Vehicle tracker' }).check();
    }],
    ['task form', '/#/tasks', async (page) => {
      await page.getByRole('button', { name: 'New task' }).click();
      await page.getByText('Client and details').click();
    }],
    ['map object form', '/#/objects', (page) => page.getByRole('button', { name: 'Add map object' }).click()],
  ];
  for (const [name, path, open] of FORMS) {
    test(`the ${name}: every control has an accessible name and the page fits 375 px`, async () => {
      const { page } = workspace;
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await open(page);
      await page.waitForLoadState('networkidle').catch(() => {});
      assert.deepEqual(await page.evaluate(UNNAMED_CONTROLS), [], `${name}: controls without a name`);
      assert.ok((await page.evaluate<number>(SIDEWAYS_OVERFLOW)) <= 0, `${name}: the page scrolls sideways at 375 px`);
      await workspace.screenshot(`phone-${name.replaceAll(' ', '-')}`);
    });
  }

  test('the skip link comes first, the tabs follow it, and it moves focus to the page', async () => {
    const { page } = workspace;
    await page.goto('about:blank');
    await page.goto('/#/settings');
    await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
    const firstTabbable = `document.querySelector('a[href], button, input, select, textarea, [tabindex="0"]').textContent.trim()`;
    assert.equal(await page.evaluate(firstTabbable), 'Skip to content');
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent.trim()'), 'Map');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Employees', level: 1 }).waitFor();
    assert.equal(await page.evaluate('location.hash'), '#/employees');
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate('document.activeElement.id'), 'main');
    assert.equal(await page.evaluate('location.hash'), '#/employees');
    assert.deepEqual(workspace.pageErrors, []);
  });
});
