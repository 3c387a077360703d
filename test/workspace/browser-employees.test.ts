import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { renderSVG } from 'uqr';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { startOsmAnd, type OsmAndListener } from '../helpers/osmand.js';
import { freePort } from '../helpers/process.js';
import { createEmployee, SUBSCRIBERS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { until } from '../helpers/wait.js';

const GROUPS = '/v6/api/subscriberManagement/subscriberGroups';

/**
 * a coordinator sets up an employee with a phone in the workspace (the key shown once,
 * with Traccar Client's settings as text and QR code), the phone reports over the OsmAnd port and
 * the employee appears on the live map; groups are made, assigned and used as a filter.
 */
for (const dialect of dialects) {
  describe(`workspace in the browser: employees (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let osmand: OsmAndListener;

    before(async () => {
      // The OsmAnd listener's port is the one the workspace tells phones: known before the server starts.
      const port = await freePort();
      workspace = await openWorkspace({ dialect, config: { OSMAND_PORT: port, TELTONIKA_PORT: 5027 } });
      osmand = await startOsmAnd(workspace.server.services, undefined, { port });
      await createEmployee(workspace.server.api, { name: 'Boris Tracker' });
    });
    after(async () => {
      await osmand?.close();
      await workspace?.close();
    });

    test('an employee added with a generated key, its QR code shown once, reports from a phone and appears live on the map', async () => {
      const { page } = workspace;
      await page.goto('/#/employees');
      await page.getByRole('heading', { name: 'Employees', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New employee' }).click();
      await page.getByLabel('Name').fill('Anna Phone');
      await page.getByLabel('Phone', { exact: true }).fill('+7 900 000-00-01');
      assert.equal(await page.getByRole('radio', { name: 'Phone with Traccar Client' }).isChecked(), true);
      assert.equal(await page.getByRole('radio', { name: 'Generate a key' }).isChecked(), true);
      await page.getByRole('button', { name: 'Add employee' }).click();

      const settings = page.getByRole('region', { name: /Connection settings for Anna Phone/ }).or(page.locator('section.connection-settings'));
      await settings.first().waitFor();
      const deviceKey = ((await page.locator('.device-key').textContent()) ?? '').trim();
      assert.match(deviceKey, /^[a-z2-9]{12}$/);
      const serverUrl = `http://127.0.0.1:${osmand.port}`;
      assert.equal(((await page.getByText(serverUrl, { exact: true }).textContent()) ?? '').trim(), serverUrl);
      // The QR code is Traccar Client's configuration URL: the server, and the key as `id`.
      const qr = page.getByRole('img', { name: /QR code .* Traccar Client/ });
      const drawn = await qr.locator('svg path').getAttribute('d');
      const expected = /\bd="([^"]+)"/.exec(renderSVG(`${serverUrl}?id=${deviceKey}`))?.[1];
      assert.ok(drawn === expected, 'the QR code encodes the server URL with the key as id');
      // The other opens the employee's app at this server, the key in the fragment.
      const appQr = page.getByRole('img', { name: /QR code that opens the employee’s app/ });
      const appDrawn = await appQr.locator('svg path').getAttribute('d');
      const appExpected = /\bd="([^"]+)"/.exec(renderSVG(`${workspace.server.baseUrl}/m/#key=${deviceKey}`))?.[1];
      assert.ok(appDrawn === appExpected, "the app's QR code encodes /m/#key=<key> at this server");
      await workspace.screenshot(`employee-connection-${dialect}`);

      // Reads never show the key again: only its last four characters.
      const stored = await workspace.server.api.get(`${SUBSCRIBERS}?withCustomTemplateItems=false`);
      const anna = stored.body.find((e: any) => e.name === 'Anna Phone');
      assert.equal(anna.deviceKeyHint, `…${deviceKey.slice(-4)}`);
      await page.getByRole('button', { name: 'Done' }).click();
      const row = page.locator(`tr[data-subscriber-id="${anna.subscriberID}"]`);
      await row.waitFor();
      assert.doesNotMatch((await row.textContent()) ?? '', new RegExp(deviceKey));

      // The phone, as Traccar Client sends a fix (speed in knots).
      await page.getByRole('link', { name: 'Map', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      const now = Math.floor(Date.now() / 1000);
      const sent = await osmand.send('POST', `/?id=${deviceKey}&lat=55.7558&lon=37.6173&timestamp=${now}&speed=10&bearing=90`);
      assert.equal(sent.status, 200, sent.text);
      const marker = page.getByRole('button', { name: 'Anna Phone', exact: true });
      await marker.waitFor({ timeout: 30_000 });
      const listRow = page.getByRole('complementary', { name: 'Employees' }).getByRole('button', { name: /Anna Phone/ });
      await until('the list shows the phone’s speed (10 knots)', async () => /19 km\/h/.test((await listRow.textContent()) ?? ''));
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a tracker’s connection settings name its protocol, port and IMEI', async () => {
      const { page } = workspace;
      await page.goto('/#/employees/new');
      await page.getByLabel('Name').fill('Truck 7');
      await page.getByRole('radio', { name: 'Vehicle tracker' }).check();
      await page.getByLabel('Protocol', { exact: true }).selectOption({ label: 'Teltonika' });
      await page.getByRole('textbox', { name: 'IMEI' }).fill('356307042441013');
      await page.getByText('Vehicle settings').click();
      await page.getByLabel('Speed limit (km/h)').fill('80');
      await page.getByLabel('Filling of at least (litres)').fill('15');
      const fuel = page.getByRole('group', { name: 'Fuel level (litres)' });
      await fuel.getByRole('combobox', { name: 'Fuel level (litres)' }).selectOption('input');
      await fuel.getByRole('textbox', { name: 'Input' }).fill('io84');
      await fuel.getByRole('spinbutton', { name: 'Scale' }).fill('0.1');
      await page.getByRole('button', { name: 'Add employee' }).click();
      await page.locator('section.connection-settings').waitFor();
      const text = (await page.locator('section.connection-settings').textContent()) ?? '';
      assert.match(text, /Teltonika/);
      assert.match(text, /127\.0\.0\.1:5027/);
      assert.match(text, /356307042441013/);
      const truck = (await workspace.server.api.get(`${SUBSCRIBERS}?withCustomTemplateItems=false`)).body.find((e: any) => e.name === 'Truck 7');
      assert.equal(truck.vehicleSettings.speedLimit, 80);
      assert.equal(truck.vehicleSettings.fuelFillThreshold, 15);
      assert.deepEqual(truck.vehicleSettings.readingMap, { fuelLevel: { input: 'io84', scale: 0.1 } });
      assert.deepEqual([truck.deviceProtocol, truck.hasDevicePassword], ['teltonika', false], 'the key is heard on the Teltonika port only');
      await page.getByRole('button', { name: 'Done' }).click();
    });

    test('a group is made, an employee put in it, and the list filtered by it; a deactivated employee leaves the list', async () => {
      const { page } = workspace;
      await page.goto('/#/employees');
      const groups = page.getByRole('region', { name: 'Employee groups' });
      await groups.getByLabel('New group name').fill('Couriers');
      await groups.getByRole('button', { name: 'Create group' }).click();
      await groups.getByText(/Couriers/).waitFor();
      const created = (await workspace.server.api.get(GROUPS)).body.find((g: any) => g.name === 'Couriers');
      assert.ok(created, 'the group exists on the server');

      await page.getByRole('link', { name: 'Anna Phone' }).click();
      await page.getByRole('heading', { name: 'Employee: Anna Phone' }).waitFor();
      await page.getByLabel('Group').selectOption({ label: 'Couriers' });
      await page.getByRole('button', { name: 'Save employee' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Anna Phone”.' }).first().waitFor();
      await page.getByRole('link', { name: 'Back to employees' }).click();

      const table = page.locator('table.cards tbody tr');
      await until('all three employees are listed', async () => (await table.count()) === 3);
      await page.getByRole('search', { name: 'Filter employees' }).getByLabel('Group').selectOption({ label: 'Couriers' });
      await until('the group filter leaves one', async () => (await table.count()) === 1);
      assert.match((await table.first().textContent()) ?? '', /Anna Phone.*Couriers/);
      assert.match((await groups.textContent()) ?? '', /Couriers \(1 employee\)/);

      await page.getByRole('search', { name: 'Filter employees' }).getByLabel('Group').selectOption({ label: 'All groups' });
      await page.getByRole('link', { name: 'Boris Tracker' }).click();
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByRole('button', { name: 'Reactivate' }).waitFor();
      await page.getByRole('link', { name: 'Back to employees' }).click();
      await until('the deactivated employee is left out', async () => (await table.count()) === 2);
      await page.getByLabel('Show deactivated').check();
      await until('shown again on request', async () => (await table.count()) === 3);
      await workspace.screenshot(`employees-${dialect}`);
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a Wialon IPS tracker gets a short id and a device password, which is never shown and can be removed', async () => {
      const { page } = workspace;
      await page.goto('/#/employees/new');
      await page.getByLabel('Name').fill('Van 2002');
      await page.getByRole('radio', { name: 'Vehicle tracker' }).check();
      await page.getByLabel('Protocol', { exact: true }).selectOption({ label: 'Wialon IPS' });
      await page.getByRole('textbox', { name: 'IMEI' }).fill('2002');
      await page.getByLabel('Device password').fill('van-2002-pass');
      await page.getByRole('button', { name: 'Add employee' }).click();
      await page.locator('section.connection-settings').waitFor();
      const employees = workspace.server.services.employees;
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', 'van-2002-pass')).outcome, 'accepted');
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', null)).outcome, 'password-required');
      await page.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('link', { name: 'Van 2002' }).click();
      await page.getByRole('heading', { name: 'Employee: Van 2002' }).waitFor();
      assert.equal(await page.getByLabel('Protocol', { exact: true }).inputValue(), 'wialonIps');
      assert.equal(await page.getByLabel('Device password').inputValue(), '', 'the password is never shown');
      await page.getByText('A password is set').waitFor();
      await page.getByLabel('Remove the password').check();
      await page.getByRole('button', { name: 'Save employee' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Van 2002”.' }).first().waitFor();
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', null)).outcome, 'accepted');
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('the search finds an employee by every word typed, in any order, Cyrillic in any case', async () => {
      await createEmployee(workspace.server.api, { name: 'Иван Петрович Сидоров', phone: '+7 911 555-12-34' });
      await createEmployee(workspace.server.api, { name: 'Пётр Иванов' });
      const { page } = workspace;
      await page.goto('/#/employees');
      await page.reload();
      const table = page.locator('table.cards tbody tr');
      const search = page.getByRole('search', { name: 'Filter employees' }).getByLabel('Find employee');
      const names = async () => (await table.allTextContents()).map((row) => (row.match(/Иван Петрович Сидоров|Пётр Иванов|Anna Phone|Boris Tracker/) ?? [''])[0]);
      await search.fill('СИДОРОВ иван');
      await until('both words, in any order and case, find one', async () => JSON.stringify(await names()) === JSON.stringify(['Иван Петрович Сидоров']));
      await search.fill('иван');
      await until('a word inside a longer one finds both', async () => (await names()).sort().join() === ['Иван Петрович Сидоров', 'Пётр Иванов'].sort().join());
      await search.fill('сидоров 555');
      await until('a word of the name and one of the phone', async () => (await names()).join() === 'Иван Петрович Сидоров');
      await search.fill('петр');
      await until('е is not ё: Пётр is not found by петр', async () => (await names()).join() === 'Иван Петрович Сидоров');
      await search.fill('');
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
