import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * employee groups appear in the workspace. The Map tab's employee list shows each
 * employee's group and filters by one, with a labelled select like the rest of the page.
 */

const GROUPS = '/v6/api/subscriberManagement/subscriberGroups';

for (const dialect of dialects) {
  describe(`workspace in the browser: employee groups (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;

    before(async () => {
      workspace = await openWorkspace({ dialect });
      const { api } = workspace.server;
      const drivers = await api.post(GROUPS, { name: 'Drivers' });
      const fitters = await api.post(GROUPS, { name: 'Fitters' });
      assert.equal(drivers.status, 201, drivers.text);
      assert.equal(fitters.status, 201, fitters.text);
      await createEmployee(api, { name: 'Anna Driver', subscriberGroupID: drivers.body.subscriberGroupID });
      await createEmployee(api, { name: 'Boris Driver', subscriberGroupID: drivers.body.subscriberGroupID });
      await createEmployee(api, { name: 'Fyodor Fitter', subscriberGroupID: fitters.body.subscriberGroupID });
      await createEmployee(api, { name: 'Nina Ungrouped' });
    });
    after(() => workspace?.close());

    test("filters the employee list by a group and names each employee's group", async () => {
      const { page } = workspace;
      await page.goto('/#/map');
      await page.reload();
      const list = page.getByRole('complementary', { name: 'Employees' });
      const rows = list.getByRole('listitem');
      await list.getByRole('button', { name: /Nina Ungrouped/ }).waitFor();
      assert.equal(await rows.count(), 4);
      assert.match((await list.getByRole('button', { name: /Fyodor Fitter/ }).textContent()) ?? '', /Fitters/);

      const select = list.getByRole('combobox', { name: 'Group' });
      await select.selectOption({ label: 'Drivers' });
      await list.getByText('2 of 4 employees').waitFor();
      assert.deepEqual(await rows.locator('.employee-name').allTextContents(), ['Anna Driver', 'Boris Driver']);

      await select.selectOption({ label: 'All groups' });
      await list.getByText('4 employees').waitFor();
      await workspace.screenshot(`map-groups-${dialect}`);
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
