import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { setStatus, TASKS } from '../tasks/task-fixtures.js';
import { until } from '../helpers/wait.js';

const MAP_OBJECTS = '/v6/api/mapObjectManagement/mapObjects';

// The tests' TypeScript has no DOM: what runs in the page is typed as loosely as it needs.
declare const document: { querySelector(selector: string): any };

/**
 * Clicks the page's map `dx`, `dy` pixels from its centre, and answers the coordinate that pixel
 * is, through the page's own Leaflet map (on the map's container) and its arithmetic for clicks.
 */
async function clickMap(page: Page, dx: number, dy: number): Promise<{ lat: number; lng: number }> {
  const map = page.locator('.map').first();
  const box = await map.boundingBox();
  assert.ok(box, 'the map is on the page');
  const [x, y] = [Math.round(box.x + box.width / 2 + dx), Math.round(box.y + box.height / 2 + dy)];
  const point = await page.evaluate(([px, py]) => {
    const element = document.querySelector('.map');
    const rect = element.getBoundingClientRect();
    const { lat, lng } = element.leafletMap.containerPointToLatLng([px - rect.left - element.clientLeft, py - rect.top - element.clientTop]).wrap();
    return { lat, lng };
  }, [x, y] as const);
  await page.mouse.click(x, y);
  return point;
}

const near = (a: number, b: number) => Math.abs(a - b) < 2e-5;

/**
 * map objects placed by a click; a task created on the map, assigned, its assignee's
 * estimated arrival shown, its status changed by the employee's phone and the change seen in the
 * list and the task's history.
 */
for (const dialect of dialects) {
  describe(`workspace in the browser: map objects and tasks (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let anna: number;

    before(async () => {
      workspace = await openWorkspace({ dialect, timeZone: 'Asia/Yekaterinburg' });
      const { api } = workspace.server;
      anna = await createEmployee(api, { name: 'Anna Courier', deviceKey: 'anna-courier-phone' });
      const fix = await api.post(LOCATIONS, [{ subscriberID: anna, locationDate: new Date(Date.now() - 60_000).toISOString(), latitude: 55.7, longitude: 37.55, velocity: 40 }]);
      assert.equal(fix.status, 201, fix.text);
    });
    after(() => workspace?.close());

    test('a map object is added by clicking the map, listed, edited and shown on the live map', async () => {
      const { page } = workspace;
      await page.goto('/#/objects');
      await page.getByRole('heading', { name: 'Map objects', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add map object' }).click();
      const form = page.getByRole('region', { name: 'New map object' });
      await form.getByLabel('Name').fill('North depot');
      const clicked = await clickMap(page, 40, -30);
      await until('the click fills the point in', async () => (await form.getByLabel('Latitude').inputValue()) !== '');
      await form.getByLabel('Address').fill('Lenina 1');
      await form.getByRole('button', { name: 'Add map object' }).click();
      await page.getByRole('status').filter({ hasText: 'Map object “North depot” added.' }).waitFor();

      const [stored] = (await workspace.server.api.get(MAP_OBJECTS)).body;
      assert.equal(stored.name, 'North depot');
      assert.equal(stored.address, 'Lenina 1');
      assert.ok(near(stored.latitude, clicked.lat) && near(stored.longitude, clicked.lng), `stored at ${stored.latitude}, ${stored.longitude}, clicked ${clicked.lat}, ${clicked.lng}`);
      const list = page.getByRole('region', { name: /^Objects/ });
      await list.getByRole('button', { name: /North depot/ }).waitFor();

      const edit = page.getByRole('region', { name: 'Map object: North depot' });
      await edit.getByLabel('Comment').fill('Gate 3');
      await edit.getByRole('button', { name: 'Save map object' }).click();
      await until('the comment is saved', async () => (await workspace.server.api.get(`${MAP_OBJECTS}/${stored.mapObjectID}`)).body.comment === 'Gate 3');
      await workspace.screenshot(`map-objects-${dialect}`);

      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Map', exact: true }).click();
      const shown = page.getByRole('checkbox', { name: 'Map objects' });
      await shown.waitFor();
      assert.equal(await shown.isChecked(), true, 'the live map shows the map objects as a layer');
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a task is created on the map, assigned, its arrival estimated, and its status changed by the phone shows in the list and history', async () => {
      const { page } = workspace;
      await page.goto('/#/tasks');
      await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New task' }).click();
      const form = page.getByRole('region', { name: 'New task' });
      await form.getByLabel('Title').fill('Deliver pallets');
      const clicked = await clickMap(page, -20, 25);
      await until('the click fills the point in', async () => (await form.getByLabel('Latitude').inputValue()) !== '');
      await form.getByRole('button', { name: 'Create task' }).click();
      const panel = page.getByRole('region', { name: 'Task: Deliver pallets' });
      await panel.waitFor();
      const [task] = (await workspace.server.api.get(TASKS)).body;
      assert.equal(task.title, 'Deliver pallets');
      assert.ok(near(task.latitude, clicked.lat) && near(task.longitude, clicked.lng), 'the task is where the map was clicked');
      assert.equal(task.subscriberID, null);

      await panel.getByLabel('Assign to').selectOption({ label: 'Anna Courier' });
      await panel.getByRole('button', { name: 'Assign' }).click();
      await until('the task is assigned', async () => (await workspace.server.api.get(`${TASKS}/${task.taskID}`)).body.subscriberID === anna);
      // The estimate of signal 24, from Anna's fix: on the panel and on the map.
      await until('the panel shows the estimated arrival', async () => /\d\d:\d\d \(\d+ (min|h)/.test((await panel.locator('.eta').textContent()) ?? ''));
      // .last(): a redrawn estimate's old tooltip may still be fading out beside the new one.
      await page.locator('.eta-tooltip').filter({ hasText: 'Anna Courier: arrives' }).last().waitFor();
      const row = page.locator(`[data-task-id="${task.taskID}"]`);
      assert.match((await row.textContent()) ?? '', /New.*Anna Courier · arrives \d\d:\d\d/);
      await workspace.screenshot(`tasks-${dialect}`);

      // Anna's phone marks it done.
      const done = await setStatus(workspace.server.api, 'anna-courier-phone', task.taskID, { status: 3, comment: 'Signed by the client' });
      assert.equal(done.status, 200, done.text);
      await until('the list shows the new status', async () => /Done/.test((await row.textContent()) ?? ''));
      const history = panel.getByRole('region', { name: 'History' });
      await until('the history shows the phone’s change', async () => /status: New → Done.*by Anna Courier \(phone\)/.test((await history.textContent()) ?? ''));
      assert.match((await history.textContent()) ?? '', /assignee: nobody → Anna Courier.*by you/);
      assert.match((await panel.textContent()) ?? '', /Signed by the client/);

      // A task at a map object takes its address and point.
      await page.getByRole('button', { name: 'New task' }).click();
      const second = page.getByRole('region', { name: 'New task' });
      await second.getByLabel('Title').fill('Pick up returns');
      await second.getByLabel('At map object').selectOption({ label: 'North depot, Lenina 1' });
      assert.equal(await second.getByLabel('Address').inputValue(), 'Lenina 1');
      await second.getByRole('button', { name: 'Create task' }).click();
      await page.getByRole('region', { name: 'Task: Pick up returns' }).waitFor();
      const [depot] = (await workspace.server.api.get(MAP_OBJECTS)).body;
      const returns = (await workspace.server.api.get(TASKS)).body.find((t: any) => t.title === 'Pick up returns');
      assert.deepEqual([returns.mapObjectID, returns.address, returns.latitude, returns.longitude], [depot.mapObjectID, 'Lenina 1', depot.latitude, depot.longitude]);

      // The status filter narrows the list.
      await page.getByRole('search', { name: 'Filter tasks' }).getByLabel('Status').selectOption({ label: 'New' });
      await until('a done task is not among the new ones', async () => (await row.count()) === 0);
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
