import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { GROUPS, ZONES, bounds, square } from '../geozones/geozone-fixtures.js';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';

const TIME_ZONE = 'Asia/Yekaterinburg';

/** Polls `check` until it returns true (the page updates on its own, from the live stream). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function centreOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is on the page');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

describe('workspace in the browser: the live map', needsBrowser, () => {
  let workspace: Workspace;
  let anna: number;
  let boris: number;
  /** Navigations of the page after it first showed the map: live updates must need none. */
  const navigations: string[] = [];

  before(async () => {
    workspace = await openWorkspace({ timeZone: TIME_ZONE });
    const { api } = workspace.server;
    const group = await api.post(GROUPS, { name: 'Depots' });
    assert.equal(group.status, 201);
    const zone = await api.post(ZONES, {
      name: 'North depot',
      color: 0xd03030,
      zoneGroupID: group.body.zoneGroupID,
      bounds: bounds(square(60.59, 56.83, 0.01)),
    });
    assert.equal(zone.status, 201);
    anna = await createEmployee(api, { name: 'Anna Smirnova' });
    boris = await createEmployee(api, { name: 'Boris Orlov' });
    const at = new Date(Date.now() - 60_000).toISOString();
    const fixes = await api.post(LOCATIONS, [
      { subscriberID: anna, locationDate: at, latitude: 56.835, longitude: 60.595, velocity: 12 },
      { subscriberID: boris, locationDate: at, latitude: 56.86, longitude: 60.65, velocity: 0 },
    ]);
    assert.ok(fixes.status < 300, fixes.text);
  });
  after(() => workspace?.close());

  test('shows every employee in the list and as a marker, and the live stream moves a marker without a reload', async () => {
    const { page } = workspace;
    // Signed in before the data existed: a fresh load reads it (a change of hash alone would not).
    await page.goto('/#/map');
    await page.reload();
    const list = page.getByRole('complementary', { name: 'Employees' });
    const annaRow = list.getByRole('button', { name: /Anna Smirnova/ });
    const borisRow = list.getByRole('button', { name: /Boris Orlov/ });
    await annaRow.waitFor();
    await borisRow.waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    await page.evaluate('window.stillHere = true');

    const markers = page.locator('.employee-marker');
    await until(async () => (await markers.count()) === 2, 'both markers are drawn');
    const annaMarker = page.getByRole('button', { name: 'Anna Smirnova', exact: true });
    assert.equal(await annaMarker.textContent(), 'AS', 'the marker shows the initials');
    assert.match((await annaRow.textContent()) ?? '', /12 km\/h/);
    const online = (await workspace.server.api.get(`/v6/api/subscriberManagement/subscribers/${anna}`)).body.isOnline;
    assert.match((await annaRow.textContent()) ?? '', online ? /Online/ : /Offline/);
    await workspace.screenshot('map-desktop');

    const before = await centreOf(annaMarker);
    const now = new Date(Date.now() - 5_000);
    const moved = await workspace.server.api.post(LOCATIONS, [
      { subscriberID: anna, locationDate: now.toISOString(), latitude: 56.85, longitude: 60.62, velocity: 42 },
    ]);
    assert.ok(moved.status < 300, moved.text);
    await until(async () => ((await annaRow.textContent()) ?? '').includes('42 km/h'), 'the list shows the new speed');
    await until(async () => {
      const after = await centreOf(annaMarker);
      return Math.hypot(after.x - before.x, after.y - before.y) > 20;
    }, 'the marker moves');
    const after = await centreOf(annaMarker);
    assert.ok(after.x > before.x && after.y < before.y, 'north-east of where it was');

    // The tooltip (shown on keyboard focus) has the name, the time in the account's zone and the speed.
    await annaMarker.focus();
    const tooltip = page.locator('.leaflet-tooltip').filter({ hasText: 'Anna Smirnova' });
    await tooltip.waitFor();
    // The English workspace writes times as en-GB does, on a 24-hour clock.
    const time = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(now);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, dateStyle: 'short' });
    // A fix of today shows its time alone; seconds before midnight there, it would show the date too.
    if (day.format(now) === day.format(new Date())) assert.match((await tooltip.textContent()) ?? '', new RegExp(`${time}.*42 km/h`));
    else assert.match((await tooltip.textContent()) ?? '', /42 km\/h/);

    assert.deepEqual(navigations, [], 'no navigation');
    assert.equal(await page.evaluate('window.stillHere'), true, 'the same document');
  });

  test('draws the zone in its group layer, which the layers control hides and shows', async () => {
    const { page } = workspace;
    const zonePaths = page.locator('.leaflet-overlay-pane path');
    await until(async () => (await zonePaths.count()) === 1, 'the zone is drawn');
    assert.equal(await zonePaths.first().getAttribute('stroke'), '#d03030');
    const depots = page.getByRole('checkbox', { name: 'Depots' });
    assert.equal(await depots.isChecked(), true);
    await depots.uncheck();
    await until(async () => (await zonePaths.count()) === 0, 'the group is hidden');
    await depots.check();
    await until(async () => (await zonePaths.count()) === 1, 'the group is shown again');
  });

  test('a list entry centres the map on its employee; the filter narrows the list', async () => {
    const { page } = workspace;
    const list = page.getByRole('complementary', { name: 'Employees' });
    const map = page.getByRole('region', { name: /Live map/ });
    const borisRow = list.getByRole('button', { name: /Boris Orlov/ });
    const borisMarker = page.getByRole('button', { name: 'Boris Orlov', exact: true });
    const far = async () => {
      const [a, b] = [await centreOf(borisMarker), await centreOf(map)];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    assert.ok((await far()) > 20, 'Boris is not in the middle before');
    await borisRow.click();
    await until(async () => (await far()) < 3, 'the map is centred on Boris');
    assert.equal(await borisRow.getAttribute('aria-current'), 'true');

    // Keyboard: the filter, then Enter on the one row left.
    await page.getByLabel('Find employee').fill('smirn');
    await until(async () => (await list.getByRole('button').count()) === 1, 'the filter leaves one employee');
    const annaRow = list.getByRole('button', { name: /Anna Smirnova/ });
    await annaRow.focus();
    await page.keyboard.press('Enter');
    const annaMarker = page.getByRole('button', { name: 'Anna Smirnova', exact: true });
    await until(async () => {
      const [a, b] = [await centreOf(annaMarker), await centreOf(map)];
      return Math.hypot(a.x - b.x, a.y - b.y) < 3;
    }, 'the map is centred on Anna');
    await page.getByLabel('Find employee').fill('');
    await until(async () => (await list.getByRole('button').count()) === 2, 'the filter is cleared');
    assert.deepEqual(navigations, [], 'no navigation');
  });

  test('a dropped stream shows Reconnecting…, comes back by itself and catches up', async () => {
    const { page } = workspace;
    const status = page.getByRole('status');
    await status.filter({ hasText: 'Live' }).waitFor();
    // Every open connection is cut, the live stream's with them; the browser retries after 3 s.
    workspace.server.app.server.closeAllConnections();
    await status.filter({ hasText: 'Reconnecting…' }).waitFor();
    const missed = await workspace.server.api.post(LOCATIONS, [
      { subscriberID: boris, locationDate: new Date().toISOString(), latitude: 56.861, longitude: 60.651, velocity: 7 },
    ]);
    assert.ok(missed.status < 300, missed.text);
    await status.filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
    const borisRow = page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Boris Orlov/ });
    await until(async () => ((await borisRow.textContent()) ?? '').includes('7 km/h'), 'the fix sent while away is shown');
    assert.deepEqual(navigations, [], 'no navigation');
  });

  test('on a 375 px screen the list goes below the map', async () => {
    const { page } = workspace;
    await page.setViewportSize({ width: 375, height: 800 });
    const map = await page.getByRole('region', { name: /Live map/ }).boundingBox();
    const list = await page.getByRole('complementary', { name: 'Employees' }).boundingBox();
    assert.ok(map && list);
    assert.ok(list.y >= map.y + map.height, 'the list starts below the map');
    assert.ok(map.width <= 375 && list.width <= 375, 'nothing wider than the screen');
    assert.ok(await page.evaluate('document.documentElement.scrollWidth <= 375'), 'no sideways scrolling');
    await workspace.screenshot('map-phone');
    assert.deepEqual(workspace.pageErrors, []);
  });
});

describe('workspace in the browser: the map without its tile server', needsBrowser, () => {
  let workspace: Workspace;
  before(async () => {
    // Nothing listens on port 9 of loopback: every tile fails, as offline.
    workspace = await openWorkspace({ config: { MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' } });
  });
  after(() => workspace?.close());

  test('tiles that fail leave a plain background, no broken images, and the page says so', async () => {
    const { page } = workspace;
    await page.goto('/#/map');
    await page.getByRole('status').filter({ hasText: 'Map tiles could not be loaded: a plain background is shown.' }).waitFor();
    const tiles = page.locator('.leaflet-tile');
    await until(async () => (await tiles.count()) > 0, 'the tiles were asked for');
    // A failed tile shows a transparent pixel, not the browser's broken-image box.
    await until(async () => (await page.locator('.leaflet-tile').evaluateAll((all) => all.every((img) => (img as unknown as { src: string }).src.startsWith('data:')))), 'every failed tile is blank');
    assert.deepEqual(workspace.pageErrors, []);
  });
});

describe('workspace in the browser: a big fleet on the live map', needsBrowser, () => {
  let workspace: Workspace;
  const FLEET = 320;
  before(async () => {
    workspace = await openWorkspace();
    const { api } = workspace.server;
    const ids: number[] = [];
    // The API takes 16 requests of one user at a time.
    for (let i = 0; i < FLEET; i += 16) {
      ids.push(...(await Promise.all(Array.from({ length: Math.min(16, FLEET - i) }, (_, j) => createEmployee(api, { name: `Driver ${String(i + j + 1).padStart(3, '0')}` })))));
    }
    const at = new Date(Date.now() - 60_000).toISOString();
    const fixes = await api.post(LOCATIONS, ids.map((subscriberID, i) => ({ subscriberID, locationDate: at, latitude: 55.7 + (i % 20) * 0.005, longitude: 37.5 + Math.floor(i / 20) * 0.008, velocity: 30, angle: (i * 37) % 360 })));
    assert.equal(fixes.status, 201, fixes.text);
  });
  after(() => workspace?.close());

  test('more than 300 employees are drawn on a canvas; the list still finds one and opens its tooltip', async () => {
    const { page } = workspace;
    await page.goto('/#/map');
    await page.reload();
    const list = page.getByRole('complementary', { name: 'Employees' });
    await list.getByText(`${FLEET} employees (the first 200 listed: find one by name)`).waitFor();
    await until(async () => (await page.locator('.leaflet-overlay-pane canvas').count()) === 1, 'the fleet is drawn on a canvas');
    assert.equal(await page.locator('.employee-marker').count(), 0, 'no DOM marker per employee');
    await page.getByLabel('Find employee').fill('Driver 317');
    await list.getByRole('button', { name: /Driver 317/ }).click();
    await page.locator('.leaflet-tooltip').filter({ hasText: 'Driver 317' }).waitFor();
    assert.match((await page.locator('.leaflet-tooltip').textContent()) ?? '', /30 km\/h/);
    assert.deepEqual(workspace.pageErrors, []);
  });
});
