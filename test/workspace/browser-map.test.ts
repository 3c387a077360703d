import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { GROUPS, ZONES, bounds, square } from '../geozones/geozone-fixtures.js';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

/**
 * A zone where it is about midday now (Etc/GMT-5 is UTC+5): "today" in the account's zone then
 * holds fixes of the last hours, whenever the suite runs, so the states do not flip at midnight.
 */
function middayZone(): string {
  const offsetHours = ((12 - new Date().getUTCHours() + 36) % 24) - 12;
  return offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
}
const TIME_ZONE = middayZone();
const EMPLOYEE_GROUPS = '/v6/api/subscriberManagement/subscriberGroups';
const STATISTICS = '/v6/api/globalPositioningManagement/statistics';

/** The colours of the four states (map.css), as the browser computes them. */
const COLOURS = { moving: 'rgb(30, 142, 62)', stopped: 'rgb(31, 95, 191)', offline: 'rgb(197, 34, 31)', noData: 'rgb(128, 134, 139)' };

/** Intl separates a number from its unit with a no-break space; the assertions read plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** How many employees the map shows in its view: single markers plus the counts of the clusters. */
const shown = (page: Page) =>
  page.evaluate<{ singles: number; clusters: number; total: number }>(`(() => {
    const singles = document.querySelectorAll('.employee-marker').length;
    const clustered = [...document.querySelectorAll('.employee-cluster .cluster-count')].reduce((sum, count) => sum + Number(count.textContent), 0);
    return { singles, clusters: document.querySelectorAll('.employee-cluster').length, total: singles + clustered };
  })()`);
/** A style property of an element, as the browser computes it. */
const computed = (locator: Locator, property: string) =>
  locator.evaluate((element, name) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(element)[name], property);
/** An element's own inline style property. */
const inline = (locator: Locator, property: string) => locator.evaluate((element, name) => (element as unknown as { style: Record<string, string> }).style[name], property);

async function centreOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is on the page');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Whether the map is centred on the locator's element (drawn, not in a cluster), to a few pixels. */
async function centredOn(page: Page, locator: Locator): Promise<boolean> {
  const box = (await locator.count()) === 0 ? null : await locator.boundingBox();
  if (!box) return false;
  const b = await centreOf(page.getByRole('region', { name: /Live map/ }));
  return Math.hypot(box.x + box.width / 2 - b.x, box.y + box.height / 2 - b.y) < 3;
}

/** The day in the account's zone, `YYYY-MM-DD`. */
const todayThere = () => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, dateStyle: 'short' }).format(new Date());

for (const dialect of dialects) {
  describe(`workspace in the browser: the fleet map (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    const ids = { anna: 0, boris: 0, clara: 0, dmitri: 0, eva: 0 };
    /** Navigations of the page after it first showed the map: live updates must need none. */
    const navigations: string[] = [];

    before(async () => {
      workspace = await openWorkspace({ dialect, timeZone: TIME_ZONE });
      const { api } = workspace.server;
      const group = await api.post(GROUPS, { name: 'Depots' });
      assert.equal(group.status, 201);
      const zone = await api.post(ZONES, { name: 'North depot', color: 0xd03030, zoneGroupID: group.body.zoneGroupID, bounds: bounds(square(60.59, 56.83, 0.01)) });
      assert.equal(zone.status, 201);
      const drivers = await api.post(EMPLOYEE_GROUPS, { name: 'Drivers' });
      assert.equal(drivers.status, 201, drivers.text);
      ids.anna = await createEmployee(api, { name: 'Anna Smirnova', subscriberGroupID: drivers.body.subscriberGroupID });
      ids.boris = await createEmployee(api, { name: 'Boris Orlov' });
      ids.clara = await createEmployee(api, { name: 'Clara Weiss' });
      ids.dmitri = await createEmployee(api, { name: 'Dmitri Volkov' });
      ids.eva = await createEmployee(api, { name: 'Eva Lind' });
      const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
      const fixes = await api.post(LOCATIONS, [
        // Anna drives east inside the depot's zone, with a fuel level; Boris stands; both report now.
        { subscriberID: ids.anna, locationDate: minutesAgo(2), latitude: 56.833, longitude: 60.59, velocity: 30, angle: 90, fuelLevel: 40 },
        { subscriberID: ids.anna, locationDate: minutesAgo(1), latitude: 56.835, longitude: 60.595, velocity: 12, angle: 90, fuelLevel: 39.5 },
        { subscriberID: ids.boris, locationDate: minutesAgo(1), latitude: 56.86, longitude: 60.65, velocity: 0 },
        // Clara's last fix is of today but older than the online timeout (10 min) when it arrives: offline.
        { subscriberID: ids.clara, locationDate: minutesAgo(40), latitude: 56.81, longitude: 60.55, velocity: 20 },
        // Dmitri's is of two days ago: no data today. Eva has none at all.
        { subscriberID: ids.dmitri, locationDate: new Date(Date.now() - 2 * 86_400_000).toISOString(), latitude: 56.8, longitude: 60.7, velocity: 0 },
      ]);
      assert.ok(fixes.status < 300, fixes.text);
    });
    after(() => workspace?.close());

    test('markers in the colours of their states, named, the moving one with its course; a legend and a scale bar', async () => {
      const { page } = workspace;
      // Signed in before the data existed: a fresh load reads it (a change of hash alone would not).
      await page.goto('/#/map');
      await page.reload();
      const list = page.getByRole('complementary', { name: 'Employees' });
      await list.getByRole('button', { name: /Anna Smirnova/ }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations.push(frame.url());
      });
      await page.evaluate('window.stillHere = true');

      const markers = page.locator('.employee-marker');
      await until('the four employees with a position are drawn', async () => (await markers.count()) === 4);
      const expected = { anna: 'moving', boris: 'stopped', clara: 'offline', dmitri: 'noData' } as const;
      for (const [who, state] of Object.entries(expected)) {
        const marker = page.locator(`.employee-marker[data-subscriber-id="${ids[who as keyof typeof ids]}"]`);
        assert.equal(await marker.getAttribute('data-state'), state, `${who} is ${state}`);
        assert.equal(await computed(marker, 'backgroundColor'), COLOURS[state], `${who}'s colour`);
      }
      // The label is the whole name, which is also the marker's name for a screen reader.
      const annaMarker = page.getByRole('button', { name: 'Anna Smirnova', exact: true });
      assert.equal(await annaMarker.textContent(), 'Anna Smirnova');
      const course = annaMarker.locator('.course');
      assert.equal(await course.isVisible(), true, 'the moving marker shows its course');
      assert.equal(await inline(course, 'transform'), 'rotate(90deg)');
      assert.equal(await page.getByRole('button', { name: 'Boris Orlov', exact: true }).locator('.course').isVisible(), false, 'a standing one does not');

      const legend = page.getByRole('list', { name: 'Employees by state' });
      const counts = await legend.getByRole('button').allTextContents();
      assert.deepEqual(counts, ['Moving1', 'Stopped1', 'Offline1', 'No data today2']);
      assert.match((await page.locator('.leaflet-control-scale-line').textContent()) ?? '', /^\d+ (m|km)$/);
      assert.match((await list.getByRole('button', { name: /Eva Lind/ }).textContent()) ?? '', /No data today.*No position yet/);
      await workspace.screenshot(`map-desktop-${dialect}`);

      const before = await centreOf(annaMarker);
      const now = new Date(Date.now() - 5_000);
      const moved = await workspace.server.api.post(LOCATIONS, [{ subscriberID: ids.anna, locationDate: now.toISOString(), latitude: 56.85, longitude: 60.62, velocity: 42, angle: 45 }]);
      assert.ok(moved.status < 300, moved.text);
      const annaRow = list.getByRole('button', { name: /Anna Smirnova/ });
      await until('the list shows the new speed', async () => ((await annaRow.textContent()) ?? '').includes('42 km/h'));
      // While the clusters take in the moved marker, its element is briefly off the page.
      await until('the marker moves', async () => {
        const box = await annaMarker.boundingBox();
        return box !== null && Math.hypot(box.x + box.width / 2 - before.x, box.y + box.height / 2 - before.y) > 20;
      });
      const after = await centreOf(annaMarker);
      assert.ok(after.x > before.x && after.y < before.y, 'north-east of where it was');
      assert.equal(await inline(annaMarker.locator('.course'), 'transform'), 'rotate(45deg)');

      // The tooltip (shown on keyboard focus) has the name, the state, the time in the account's zone and the speed.
      await annaMarker.focus();
      const tooltip = page.locator('.leaflet-tooltip').filter({ hasText: 'Anna Smirnova' });
      await tooltip.waitFor();
      const time = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(now);
      assert.match((await tooltip.textContent()) ?? '', new RegExp(`Moving.*${time}.*42 km/h`));

      assert.deepEqual(navigations, [], 'no navigation');
      assert.equal(await page.evaluate('window.stillHere'), true, 'the same document');
    });

    test('draws the zone in its group layer, which the layers control hides and shows', async () => {
      const { page } = workspace;
      const zonePaths = page.locator('.leaflet-overlay-pane path');
      await until('the zone is drawn', async () => (await zonePaths.count()) === 1);
      assert.equal(await zonePaths.first().getAttribute('stroke'), '#d03030');
      const depots = page.getByRole('checkbox', { name: 'Depots' });
      await depots.uncheck();
      await until('the group is hidden', async () => (await zonePaths.count()) === 0);
      await depots.check();
      await until('the group is shown again', async () => (await zonePaths.count()) === 1);
    });

    test('a row centres the map and opens the card; search, group and state narrow the list and the map alike', async () => {
      const { page } = workspace;
      const list = page.getByRole('complementary', { name: 'Employees' });
      const rows = list.locator('.employee-row');
      /** Whether the list has `count` rows and the map, fitted to whom it shows, `onMap` employees. */
      const narrowedTo = async (count: number, onMap: number) => {
        if ((await rows.count()) !== count) return false;
        await page.getByRole('button', { name: 'Show all' }).click();
        return (await shown(page)).total === onMap;
      };
      const borisRow = list.getByRole('button', { name: /Boris Orlov/ });
      const borisMarker = page.getByRole('button', { name: 'Boris Orlov', exact: true });
      assert.equal(await centredOn(page, borisMarker), false, 'Boris is not in the middle before');
      await borisRow.click();
      await until('the map is centred on Boris', () => centredOn(page, borisMarker));
      assert.equal(await borisRow.getAttribute('aria-current'), 'true');
      await page.getByRole('region', { name: 'Boris Orlov' }).waitFor();

      // Keyboard: the search, then Enter on the one row left; the map keeps only that marker.
      await page.getByLabel('Find employee').fill('smirn');
      await until('the search leaves one employee', () => narrowedTo(1, 1));
      await list.getByRole('button', { name: /Anna Smirnova/ }).focus();
      await page.keyboard.press('Enter');
      await until('the map is centred on Anna', () => centredOn(page, page.getByRole('button', { name: 'Anna Smirnova', exact: true })));
      await page.getByLabel('Find employee').fill('');

      await list.getByLabel('Group').selectOption({ label: 'Drivers' });
      await until('the group leaves Anna', () => narrowedTo(1, 1));
      await list.getByLabel('Group').selectOption('');

      await list.getByLabel('State').selectOption({ label: 'Offline (1)' });
      await until('the state leaves one employee', () => narrowedTo(1, 1));
      assert.match((await rows.textContent()) ?? '', /Clara Weiss/);
      const offline = page.getByRole('list', { name: 'Employees by state' }).getByRole('button', { name: /Offline/ });
      assert.equal(await offline.getAttribute('aria-pressed'), 'true', 'the legend shows the state chosen');
      await offline.click();
      await until('pressed again, the legend shows everyone', () => narrowedTo(5, 4));
      await page.getByRole('list', { name: 'Employees by state' }).getByRole('button', { name: /No data today/ }).click();
      await until('the legend narrows to those without data today', async () => (await rows.count()) === 2);
      assert.equal(await list.getByLabel('State').inputValue(), 'noData');
      await list.getByLabel('State').selectOption('');
      await until('everyone again', async () => (await rows.count()) === 5);
      assert.deepEqual(navigations, [], 'no navigation');
    });

    test('a marker opens the card: state, last data, address, speed and course, distance and fuel, and the actions', async () => {
      const { page, server } = workspace;
      // Centred on her by her row, the card closed, then her marker chosen.
      await page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Anna Smirnova/ }).click();
      const card = page.getByRole('region', { name: 'Anna Smirnova' });
      await card.getByRole('button', { name: 'Close' }).click();
      await card.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Anna Smirnova', exact: true }).click();
      await card.waitFor();
      const fact = (name: string) => card.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]');
      const text = async (locator: Locator) => plain((await locator.textContent()) ?? '');
      assert.match((await card.locator('.card-state').textContent()) ?? '', /Moving.*Drivers/);
      assert.match((await fact('Last data').textContent()) ?? '', /^(just now|\d+ min ago) · \d\d:\d\d:\d\d$/);
      // Her latest fix is outside the zone (she drove out of it): coordinates; the first card showed it while she was inside.
      await until('the address is read', async () => !((await fact('Address').textContent()) ?? '').includes('Finding'));
      assert.match(await text(fact('Address')), /^56\.850*, 60\.620*$/);
      assert.equal(await text(fact('Speed')), '42 km/h · ↑ heading NE (45°)');
      // Distance and fuel as the statistics route has them for today.
      const day = todayThere();
      const statistics = await server.api.get(`${STATISTICS}?subscriberIDs=${ids.anna}&interval=1&dateFrom=${day}T00:00:00&dateTo=${day}T23:59:59.999`);
      const record = statistics.body.data[0]?.statistics.at(-1) ?? { mileage: 0, endFuelLevel: null };
      await until('the distance is read', async () => (await text(fact('Distance today'))) !== '…');
      assert.equal(await text(fact('Distance today')), `${record.mileage.toFixed(1)} km`);
      if (record.endFuelLevel === null) assert.equal(await fact('Fuel').count(), 0, 'no fuel row without a fuel level');
      else assert.equal(await text(fact('Fuel')), `${record.endFuelLevel.toFixed(1)} l`);

      assert.equal(await card.getByRole('link', { name: 'Today’s track' }).getAttribute('href'), `#/tracks/${ids.anna}/${day}`);
      assert.equal(await card.getByRole('link', { name: 'Tasks' }).getAttribute('href'), `#/tasks/${ids.anna}`);
      assert.equal(await card.getByRole('link', { name: 'Settings' }).getAttribute('href'), `#/employees/${ids.anna}`);
      await card.getByRole('button', { name: 'Locate now' }).click();
      // An employee whose fixes came through the API has no phone to ask: the server says which.
      const said = card.getByRole('status');
      await until('the answer to "locate now" is shown', async () => /Located|offline|cannot be asked|switched off/.test((await said.textContent()) ?? ''));
      const requests = await server.api.get(`/v6/api/subscriberManagement/subscriberRequests?subscriberIDs=${ids.anna}`);
      assert.equal(requests.body.length, 1, 'one request was made');

      // The card follows her as she drives on (read again at most every 15 s).
      await server.api.post(LOCATIONS, [{ subscriberID: ids.anna, locationDate: new Date().toISOString(), latitude: 56.851, longitude: 60.621, velocity: 20, angle: 45 }]);
      await until('the address follows her', async () => /^56\.8510*, 60\.6210*$/.test(await text(fact('Address'))), 40_000);

      // In a zone, the address is the zone's name: Boris stands in one made around him.
      const yard = await server.api.post(ZONES, { name: 'Boris yard', bounds: bounds(square(60.645, 56.855, 0.01)) });
      assert.equal(yard.status, 201, yard.text);
      await page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Boris Orlov/ }).click();
      const boris = page.getByRole('region', { name: 'Boris Orlov' });
      const borisAddress = boris.locator('dt', { hasText: 'Address' }).locator('xpath=following-sibling::dd[1]');
      await until('the zone names where Boris stands', async () => (await borisAddress.textContent()) === 'Boris yard');
      await page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Anna Smirnova/ }).click();
      await card.waitFor();

      await card.getByRole('link', { name: 'Today’s track' }).click();
      await page.getByRole('heading', { name: 'Tracks', level: 1 }).waitFor();
      await until('Tracks shows Anna', async () => (await page.getByLabel('Employee').inputValue()) === String(ids.anna));
      await page.goto(`/#/tasks/${ids.anna}`);
      await until('Tasks shows Anna’s', async () => (await page.getByLabel('Employee').inputValue()) === String(ids.anna));
      await page.goto('/#/map');
      await page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Eva Lind/ }).click();
      const eva = page.getByRole('region', { name: 'Eva Lind' });
      assert.match((await eva.textContent()) ?? '', /No data today.*No position yet/);
      await eva.getByRole('button', { name: 'Close' }).click();
      await eva.waitFor({ state: 'detached' });
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a load that fails says so with Retry, and Retry loads it', async () => {
      const { page } = workspace;
      let failing = true;
      const fail = (route: import('playwright-core').Route) => (failing ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"status":500,"code":0,"description":"Internal Server Error","message":"boom"}' }) : route.fallback());
      await page.route('**/v6/api/subscriberManagement/subscribers?*', fail);
      await page.route('**/v6/api/zoneManagement/zones?*', fail);
      await page.goto('/#/map');
      await page.reload();
      const employeesAlert = page.getByRole('alert').filter({ hasText: 'Employees could not be loaded' });
      const zonesAlert = page.getByRole('alert').filter({ hasText: 'Zones could not be loaded' });
      await employeesAlert.waitFor();
      await zonesAlert.waitFor();
      failing = false;
      await employeesAlert.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Anna Smirnova/ }).waitFor();
      await employeesAlert.waitFor({ state: 'detached' });
      await zonesAlert.getByRole('button', { name: 'Retry' }).click();
      await zonesAlert.waitFor({ state: 'detached' });
      await until('the zones are drawn after Retry', async () => (await page.locator('.leaflet-overlay-pane path').count()) === 2);
      await page.unroute('**/v6/api/subscriberManagement/subscribers?*');
      await page.unroute('**/v6/api/zoneManagement/zones?*');
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a cut stream shows Reconnecting…, comes back by itself and catches up', async () => {
      const { page, server } = workspace;
      const status = page.getByRole('status').filter({ hasText: /^(Live|Reconnecting…|Connecting…)$/ });
      await status.filter({ hasText: 'Live' }).waitFor();
      // Every open connection is cut, the live stream's with them.
      server.app.server.closeAllConnections();
      await status.filter({ hasText: 'Reconnecting…' }).waitFor();
      const missed = await server.api.post(LOCATIONS, [{ subscriberID: ids.boris, locationDate: new Date().toISOString(), latitude: 56.861, longitude: 60.651, velocity: 7 }]);
      assert.ok(missed.status < 300, missed.text);
      await status.filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
      const borisRow = page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Boris Orlov/ });
      await until('the fix sent while away is shown', async () => ((await borisRow.textContent()) ?? '').includes('7 km/h'));
    });

    test('a stream the server refuses is tried again later and later, and is Live once it answers', async () => {
      const { page, server } = workspace;
      const status = page.getByRole('status').filter({ hasText: /^(Live|Reconnecting…|Connecting…)$/ });
      await status.filter({ hasText: 'Live' }).waitFor();
      const tries: number[] = [];
      await page.route('**/workspace/api/live', (route) => {
        tries.push(Date.now());
        return route.fulfill({ status: 503, contentType: 'text/plain', body: 'restarting' });
      });
      server.app.server.closeAllConnections();
      await until('four tries', async () => tries.length >= 4, 40_000);
      assert.equal(await status.textContent(), 'Reconnecting…', 'not Live while refused');
      const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
      // About 1 s, 2 s, 4 s (±20 %): each wait longer than the one before.
      assert.ok(gaps[2]! > gaps[0]! * 1.5, `the waits grow: ${gaps.join(', ')} ms`);
      await page.unroute('**/workspace/api/live');
      await status.filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
      assert.deepEqual(workspace.pageErrors, []);
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
      await workspace.screenshot(`map-phone-${dialect}`);
      await page.setViewportSize({ width: 1280, height: 900 });
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}

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
    await until('the tiles were asked for', async () => (await tiles.count()) > 0);
    // A failed tile shows a transparent pixel, not the browser's broken-image box.
    await until('every failed tile is blank', async () => (await page.locator('.leaflet-tile').evaluateAll((all) => all.every((img) => (img as unknown as { src: string }).src.startsWith('data:')))));
    assert.deepEqual(workspace.pageErrors, []);
  });
});

describe('workspace in the browser: a big fleet on the map, clustered', needsBrowser, () => {
  let workspace: Workspace;
  const FLEET = 500;
  before(async () => {
    workspace = await openWorkspace({ timeZone: TIME_ZONE });
    const { api } = workspace.server;
    const ids: number[] = [];
    // The API takes 16 requests of one user at a time.
    for (let i = 0; i < FLEET; i += 16) {
      ids.push(...(await Promise.all(Array.from({ length: Math.min(16, FLEET - i) }, (_, j) => createEmployee(api, { name: `Driver ${String(i + j + 1).padStart(3, '0')}` })))));
    }
    const at = new Date(Date.now() - 60_000).toISOString();
    const fixes = await api.post(LOCATIONS, ids.map((subscriberID, i) => ({ subscriberID, locationDate: at, latitude: 55.7 + (i % 25) * 0.004, longitude: 37.5 + Math.floor(i / 25) * 0.006, velocity: 30, angle: (i * 37) % 360 })));
    assert.equal(fixes.status, 201, fixes.text);
  });
  after(() => workspace?.close());

  test('500 employees gather into clusters that count them all; a cluster opens by zooming; the list finds one and opens its card', async () => {
    const { page } = workspace;
    await page.goto('/#/map');
    await page.reload();
    const list = page.getByRole('complementary', { name: 'Employees' });
    await list.getByText(`${FLEET} employees (the first 200 listed: find one by name)`).waitFor();
    await until('every employee is on the map, in a cluster or alone', async () => (await shown(page)).total === FLEET);
    const first = await shown(page);
    assert.ok(first.clusters > 0 && first.clusters < 60, `a few clusters, not ${first.clusters}`);
    assert.ok(first.singles < 50, `few single markers drawn: ${first.singles}`);
    // A cluster says how many it holds and in which states.
    const cluster = page.locator('.employee-cluster').first();
    assert.match((await cluster.textContent()) ?? '', /^(\d+)\d+ employees: Moving \d+$/);
    await workspace.screenshot('map-clustered');

    const zoom = () => page.evaluate<number>(`document.querySelector('.map').leafletMap.getZoom()`);
    const before = await zoom();
    await cluster.click();
    await until('the cluster zooms in', async () => (await zoom()) > before);

    await page.getByLabel('Find employee').fill('Driver 317');
    await list.getByRole('button', { name: /Driver 317/ }).click();
    await page.getByRole('region', { name: 'Driver 317' }).waitFor();
    await page.locator('.leaflet-tooltip').filter({ hasText: 'Driver 317' }).waitFor();
    const marker = page.getByRole('button', { name: 'Driver 317', exact: true });
    assert.equal(await marker.isVisible(), true, 'out of its cluster');
    assert.match((await page.locator('.leaflet-tooltip').textContent()) ?? '', /30 km\/h/);
    assert.deepEqual(workspace.pageErrors, []);
  });
});
