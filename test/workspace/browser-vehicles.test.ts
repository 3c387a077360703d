import assert from 'node:assert/strict';
import { renderSVG } from 'uqr';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { COORDINATOR, needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { freePort } from '../helpers/process.js';
import { createEmployee, LOCATIONS, SUBSCRIBERS } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

// Functions given to page.evaluate run in the page; the tests compile without DOM types, so this names what they use.
declare const document: { querySelector(selector: string): any };
declare const navigator: { clipboard: { readText(): Promise<string> } };

const TASKS = '/v6/api/taskManagement/tasks';

/** Polls `check` until it holds (the page updates on its own: live stream, reloads). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A Nominatim stand-in whose `/search` finds one place for any text. */
async function startGeocoder(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    const url = new URL(request.url ?? '/', 'http://geocoder');
    response.end(url.pathname === '/search' ? JSON.stringify([{ display_name: 'Red Square, Moscow', lat: '55.7539', lon: '37.6208' }]) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A dispatcher adds a vehicle with a Wialon IPS tracker: it reopens as a vehicle with its plate,
 * model, tracker and protocol, and its connection settings (server, port, IMEI) are on its page
 * every time, with copy and print; without PUBLIC_URL a loopback address is warned about (en, ru),
 * with it its host is used. The Zones and Tasks maps show the vehicles and find addresses
 * through GEOCODER_URL; a task made for tomorrow leaves the Tasks page on its day.
 */
for (const dialect of dialects) {
  describe(`workspace in the browser: vehicles (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let geocoder: Awaited<ReturnType<typeof startGeocoder>>;
    let truck = 0;

    before(async () => {
      geocoder = await startGeocoder();
      truck = await freePort();
      workspace = await openWorkspace({
        dialect,
        config: { WIALON_IPS_PORT: truck, OSMAND_PORT: await freePort() },
        services: { geocoder: { url: geocoder.url, timeoutMs: 2_000 } },
      });
    });
    after(async () => {
      await workspace?.close();
      await new Promise((resolve) => geocoder?.server.close(resolve));
    });

    test('a vehicle with a Wialon IPS tracker reopens as one, its connection settings shown each time, with a warning for a loopback address', async () => {
      const { page } = workspace;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/#/employees');
      await page.getByRole('button', { name: 'New vehicle' }).click();
      await page.getByRole('heading', { name: 'New vehicle', level: 1 }).waitFor();
      assert.equal(await page.getByRole('radio', { name: 'Vehicle', exact: true }).isChecked(), true);
      assert.equal(await page.getByRole('radio', { name: 'Vehicle tracker' }).isChecked(), true, 'a vehicle reports with a tracker');
      await page.getByLabel('Name (as dispatchers call it)').fill('Truck 12');
      await page.getByLabel('Registration plate').fill('А123ВС 777');
      await page.getByLabel('Make and model').fill('GAZelle Next');
      await page.getByLabel('Protocol', { exact: true }).selectOption({ label: 'Wialon IPS' });
      await page.getByRole('textbox', { name: 'IMEI' }).fill('860000000000012');
      await page.getByLabel('Device password').fill('truck-12-pass');
      await page.getByRole('button', { name: 'Add employee' }).click();
      const once = page.locator('section.connection-settings');
      await once.waitFor();
      assert.match((await once.textContent()) ?? '', new RegExp(`127\\.0\\.0\\.1:${truck}`));
      await once.getByRole('note').filter({ hasText: 'Phones and trackers cannot reach “127.0.0.1”' }).waitFor();
      await page.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('link', { name: 'Truck 12' }).click();
      await page.getByRole('heading', { name: 'Employee: Truck 12' }).waitFor();
      await page.getByRole('radio', { name: 'Vehicle', exact: true, checked: true }).waitFor();
      assert.equal(await page.getByLabel('Registration plate').inputValue(), 'А123ВС 777');
      assert.equal(await page.getByLabel('Make and model').inputValue(), 'GAZelle Next');
      assert.equal(await page.getByRole('radio', { name: 'Vehicle tracker' }).isChecked(), true, 'not “Phone with Traccar Client”');
      assert.equal(await page.getByLabel('Protocol', { exact: true }).inputValue(), 'wialonIps');

      const settings = page.getByRole('region', { name: 'Connection settings' });
      const text = (await settings.textContent()) ?? '';
      assert.match(text, /Wialon IPS/);
      assert.match(text, new RegExp(`127\\.0\\.0\\.1:${truck}`));
      assert.match(text, /…0012/);
      assert.match(text, /Device passwordset/);
      assert.doesNotMatch(text, /truck-12-pass/, 'the device password is never shown');
      assert.match(text, /Last connectionnot yet/);
      await settings.getByRole('note').filter({ hasText: 'PUBLIC_URL' }).waitFor();
      await settings.getByRole('button', { name: 'Copy settings' }).click();
      await settings.getByRole('status').filter({ hasText: 'Settings copied.' }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(copied, new RegExp(`Server: 127\\.0\\.0\\.1:${truck}`));
      assert.match(copied, /IMEI \(device key\): …0012/);
      await settings.getByRole('button', { name: 'Print' }).waitFor();
      await workspace.screenshot(`vehicle-connection-${dialect}`);
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('the Zones map shows the vehicles where they are, and a task for tomorrow leaves the Tasks page on today', async () => {
      const { page } = workspace;
      const van = await createEmployee(workspace.server.api, { name: 'Van 3', kind: 'vehicle', vehiclePlate: 'Е001КХ 77' });
      const now = new Date().toISOString().slice(0, 19);
      assert.equal((await workspace.server.api.post(LOCATIONS, [{ subscriberID: van, locationDate: `${now}Z`, latitude: 55.75, longitude: 37.62, velocity: 30 }])).status, 201);
      await page.goto('/#/zones');
      await page.getByRole('heading', { name: 'Zones', level: 1 }).waitFor();
      const marker = page.locator(`.zones-map .employee-marker[data-subscriber-id="${van}"]`);
      await marker.waitFor();
      assert.match((await marker.textContent()) ?? '', /Van 3/);
      assert.match((await page.locator('.zones-map .leaflet-control-scale').textContent()) ?? '', /\d+ (m|km)/, 'a scale bar');

      // The address search, through the geocoder: the map moves to the place found and marks it.
      const search = page.getByRole('search', { name: 'Find an address on the map' });
      await search.getByRole('searchbox').fill('Red Square');
      await search.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('button', { name: 'Red Square, Moscow' }).click();
      await page.locator('.zones-map path.found-place').waitFor();
      await until(
        async () => {
          const centre = await page.evaluate(() => document.querySelector('.zones-map .map').leafletMap.getCenter());
          return Math.abs(centre.lat - 55.7539) < 1e-3 && Math.abs(centre.lng - 37.6208) < 1e-3;
        },
        'the map is centred on the place found',
      );

      await page.goto('/#/tasks');
      await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
      await page.locator(`.map-column .employee-marker[data-subscriber-id="${van}"]`).waitFor();
      const day = await page.getByRole('textbox', { name: 'Day', exact: true }).inputValue();
      const tomorrow = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      await page.getByRole('button', { name: 'New task' }).click();
      const form = page.getByRole('region', { name: 'New task' });
      await form.getByLabel('Title').fill('Tomorrow’s delivery');
      await form.getByLabel('Start').fill(`${tomorrow}T10:00`);
      await form.getByLabel('Latitude').fill('55.76');
      await form.getByLabel('Longitude').fill('37.63');
      await form.getByRole('button', { name: 'Create task' }).click();
      await page.getByRole('status').filter({ hasText: 'Task “Tomorrow’s delivery” created for' }).waitFor();
      assert.equal(await page.getByRole('textbox', { name: 'Day', exact: true }).inputValue(), day, 'the page stays on the day it showed');
      const tasks = (await workspace.server.api.get(`${TASKS}?dateFrom=${tomorrow}T00:00:00&dateTo=${tomorrow}T23:59:59`)).body;
      assert.deepEqual(
        tasks.map((t: any) => t.title),
        ['Tomorrow’s delivery'],
      );
      assert.equal((await workspace.server.api.get(`${SUBSCRIBERS}/${van}`)).body.kind, 'vehicle');
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}

/** The Russian workspace: the warning about a loopback address in Russian, the search hidden without GEOCODER_URL. */
for (const dialect of dialects) {
  describe(`workspace in the browser: connection settings in Russian (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    before(async () => {
      workspace = await openWorkspace({ dialect, locale: 'ru-RU', config: { WIALON_IPS_PORT: await freePort() } });
      await createEmployee(workspace.server.api, { name: 'Газель 5', kind: 'vehicle', vehiclePlate: 'О555ОО 77', deviceKey: '2005', deviceProtocol: 'wialonIps' });
    });
    after(() => workspace?.close());

    test('a vehicle’s page warns in Russian that devices cannot reach 127.0.0.1, and the maps have no address search', async () => {
      const { page } = workspace;
      await page.goto('/');
      await page.getByLabel('Логин').fill(COORDINATOR.login);
      await page.getByLabel('Пароль').fill(COORDINATOR.password);
      await page.getByRole('button', { name: 'Войти' }).click();
      await page.getByRole('navigation').first().waitFor();
      await page.goto('/#/employees');
      await page.getByRole('link', { name: 'Газель 5' }).click();
      // The form fills in once the employee is read: wait for it, then read it.
      await page.getByRole('radio', { name: 'Автомобиль', exact: true, checked: true }).waitFor();
      assert.equal(await page.getByLabel('Госномер').inputValue(), 'О555ОО 77');
      const settings = page.getByRole('region', { name: 'Настройки подключения' });
      await settings.getByRole('note').filter({ hasText: 'Телефоны и трекеры не смогут подключиться к «127.0.0.1»' }).waitFor();
      await settings.getByRole('button', { name: 'Скопировать настройки' }).waitFor();
      await settings.getByRole('button', { name: 'Распечатать' }).waitFor();
      await page.goto('/#/zones');
      await page.locator('.zones-map .map').waitFor();
      assert.equal(await page.getByRole('search', { name: 'Найти адрес на карте' }).count(), 0);
      assert.deepEqual(workspace.pageErrors, []);
    });
  });

  describe(`workspace in the browser: PUBLIC_URL (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;
    let osmandPort = 0;
    before(async () => {
      osmandPort = await freePort();
      workspace = await openWorkspace({ dialect, config: { OSMAND_PORT: osmandPort, PUBLIC_URL: 'https://track.example.com' } });
    });
    after(() => workspace?.close());

    test('a phone’s settings and QR code name PUBLIC_URL’s host, with no warning', async () => {
      const { page } = workspace;
      await page.goto('/#/employees/new');
      await page.getByLabel('Name').fill('Anna Phone');
      await page.getByRole('button', { name: 'Add employee' }).click();
      const settings = page.locator('section.connection-settings');
      await settings.waitFor();
      assert.equal(((await settings.locator('.server-url').textContent()) ?? '').trim(), `http://track.example.com:${osmandPort}`);
      assert.equal(await settings.getByRole('note').count(), 0, 'no warning');
      await settings.getByRole('img', { name: /QR code .* Traccar Client/ }).waitFor();
      const appQr = settings.getByRole('img', { name: /employee’s app/ });
      const appExpected = /\bd="([^"]+)"/.exec(renderSVG(`https://track.example.com/m/#key=${encodeURIComponent(((await settings.locator('.device-key').textContent()) ?? '').trim())}`))?.[1];
      assert.equal(await appQr.locator('svg path').getAttribute('d'), appExpected, "the app's QR code opens PUBLIC_URL's /m/");
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('link', { name: 'Anna Phone' }).click();
      const again = page.getByRole('region', { name: 'Connection settings' });
      assert.match((await again.textContent()) ?? '', new RegExp(`http://track\\.example\\.com:${osmandPort}`), 'shown again on the employee’s page');
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
