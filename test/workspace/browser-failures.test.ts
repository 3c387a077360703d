// Failures that show: every page whose data fails to load says so with a Retry that loads it, a
// page whose code fails to load (a release replaced while the tab was open, a server restarting)
// loads itself again instead of staying blank, and the workspace's own start does the same.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const SERVER_ERROR = { status: 500, contentType: 'application/json', body: '{"status":500,"code":0,"description":"Internal Server Error","message":"the store is down"}' };

/** Answers every read of the v6 API with a 500 while `failing.on`; everything else goes through. */
async function failReads(page: Page): Promise<{ on: boolean }> {
  const failing = { on: true };
  await page.route('**/v6/api/**', (route: Route) => (failing.on && route.request().method() === 'GET' ? route.fulfill(SERVER_ERROR) : route.fallback()));
  return failing;
}

/** Presses Retry on every failure shown until none is left; true when none is. */
async function retryAll(page: Page, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const retry = page.getByRole('alert').getByRole('button', { name: 'Retry' });
  while (Date.now() < deadline) {
    if ((await retry.count()) === 0) return true;
    await retry.first().click().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (await retry.count()) === 0;
}

for (const dialect of dialects) {
  describe(`workspace in the browser: a failed load shows with Retry on every page (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let ivan = 0;
    const today = new Date().toISOString().slice(0, 10);

    before(async () => {
      workspace = await openWorkspace({ dialect });
      const { api } = workspace.server;
      ivan = await createEmployee(api, { name: 'Ivan Petrov' });
      assert.equal((await api.post(LOCATIONS, [{ subscriberID: ivan, locationDate: new Date().toISOString(), latitude: 55.75, longitude: 37.6, velocity: 20 }])).status, 201);
    });
    after(() => workspace?.close());

    const pages = () => [
      { path: 'map', loaded: 'Ivan Petrov' },
      { path: 'employees', loaded: 'Ivan Petrov' },
      { path: `employees/${ivan}`, loaded: null },
      { path: 'tasks', loaded: null },
      { path: 'objects', loaded: null },
      { path: 'events', loaded: null },
      { path: 'zones', loaded: null },
      { path: `tracks/${ivan}/${today}`, loaded: null },
      { path: 'reports', loaded: null },
      { path: 'deliveries', loaded: null },
      { path: 'settings', loaded: null },
    ];

    test('each page says what failed, with a Retry that loads it once the server answers', async () => {
      const { page } = workspace;
      const failing = await failReads(page);
      const problems: string[] = [];
      for (const view of pages()) {
        failing.on = true;
        await page.goto(`/#/${view.path}`);
        await page.reload();
        const retry = page.getByRole('alert').getByRole('button', { name: 'Retry' });
        try {
          await retry.first().waitFor({ timeout: 15_000 });
        } catch {
          problems.push(`#/${view.path}: no failure with Retry shown`);
          continue;
        }
        failing.on = false;
        if (!(await retryAll(page))) problems.push(`#/${view.path}: a failure stayed after Retry`);
        if (view.loaded) await page.getByText(view.loaded).first().waitFor();
      }
      await page.unroute('**/v6/api/**');
      assert.deepEqual(problems, []);
    });

    test('a report that fails to load is shown again by Retry', async () => {
      const { page } = workspace;
      await page.goto('/#/reports');
      const failing = await failReads(page);
      failing.on = false;
      await page.reload();
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      failing.on = true;
      await page.getByRole('form', { name: 'Choose a report' }).getByRole('button', { name: /^Show/ }).click();
      const failure = page.getByRole('alert').filter({ hasText: 'The report could not be made' });
      await failure.waitFor();
      failing.on = false;
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('table', { name: /^Summary from / }).waitFor();
      await page.unroute('**/v6/api/**');
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}

describe('workspace in the browser: code that fails to load', needsBrowser, () => {
  let workspace: Workspace;
  before(async () => {
    workspace = await openWorkspace();
  });
  after(() => workspace?.close());

  test('a page whose styles are gone (a new release since the tab opened) loads itself again, once, and opens', async () => {
    const { page } = workspace;
    await page.goto('/#/map');
    await page.reload();
    await page.getByRole('heading', { name: 'Map', level: 1 }).waitFor();
    let asked = 0;
    // The first request for the Tracks page's styles fails as an old release's file would; the reload gets it.
    await page.route('**/assets/tracks-*.css', (route) => (++asked === 1 ? route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' }) : route.fallback()));
    await page.evaluate('window.beforeTheReload = true');
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Tracks' }).click();
    await page.getByRole('heading', { name: 'Tracks', level: 1 }).waitFor();
    assert.equal(await page.evaluate('window.beforeTheReload'), undefined, 'a new document: the page reloaded');
    assert.ok(asked >= 2, 'the styles were asked for again');
    await page.unroute('**/assets/tracks-*.css');
  });

  test('failing again at once (the server down), the page says so with Retry, which loads it', async () => {
    const { page } = workspace;
    await page.goto('/#/map');
    await page.getByRole('heading', { name: 'Map', level: 1 }).waitFor();
    let failing = true;
    await page.route('**/assets/reports-*.css', (route) => (failing ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'restarting' }) : route.fallback()));
    // The reload of the test before was under a minute ago: this tab does not reload itself again.
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Reports' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
    await failure.waitFor();
    failing = false;
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.unroute('**/assets/reports-*.css');
  });

  test('a tab opened while the server restarts says so and loads itself again, not staying blank', async () => {
    const { page } = workspace;
    let asked = 0;
    // The workspace's entry script (web/vite.config.ts names it `workspace`), refused once as by a restarting server.
    await page.route('**/assets/workspace-*.js', (route) => (++asked === 1 ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'restarting' }) : route.fallback()));
    await page.goto('/#/map');
    // The same address with another hash loads no document: a reload does.
    await page.reload();
    await page.getByText('The server is unreachable or restarting: the page will load again in a few seconds.').waitFor();
    await page.getByRole('heading', { name: 'Map', level: 1 }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('#reload-note').isVisible(), false, 'the note is gone with the reload');
    await page.unroute('**/assets/workspace-*.js');
  });
});
