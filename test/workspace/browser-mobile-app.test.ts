import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath, needsBrowser, SCREENSHOTS } from '../helpers/browser.js';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TASKS } from '../tasks/task-fixtures.js';

// The tests' TypeScript has no DOM: what runs in the page is typed as loosely as it needs.
declare const document: any;
declare const navigator: any;

const TEMPLATES = '/v6/api/customFieldsManagement/customFields';
const FORMS = '/v6/api/formManagement/forms';
const PHONE = { width: 360, height: 740 };
const HOME = { latitude: 56.8389, longitude: 60.6057 };

async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The width and height a JPEG's first frame header (SOF0/SOF2) names. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  assert.equal(bytes.readUInt16BE(0), 0xffd8, 'a JPEG starts with SOI');
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes.readUInt16BE(at);
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xffc0 || marker === 0xffc2) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  assert.fail('no frame header in the JPEG');
}

/** A camera-sized PNG (wider than the app's 1600 px), drawn by the browser itself. */
async function cameraPicture(page: Page, width = 2400, height = 1200): Promise<Buffer> {
  const dataUrl: string = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext('2d');
      context.fillStyle = '#3a7';
      context.fillRect(0, 0, w, h);
      context.fillStyle = '#fff';
      context.fillRect(w / 4, h / 4, w / 2, h / 2);
      return canvas.toDataURL('image/png');
    },
    [width, height] as const,
  );
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

interface Phone {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

for (const dialect of dialects) {
  describe(`the employee's app at /m/ on a phone (${dialect})`, needsBrowser, () => {
    let server: TestServer;
    let browser: Browser;
    let ivan: number;
    let templateID: number;
    const phones: Phone[] = [];
    const key = 'ivan-phone-key-1';

    async function openPhone(locale: string): Promise<Phone> {
      const context = await browser.newContext({
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        locale,
        baseURL: server.baseUrl,
        permissions: ['geolocation'],
        geolocation: { ...HOME, accuracy: 12 },
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const phone = { context, page, errors };
      phones.push(phone);
      return phone;
    }

    async function createTask(title: string, startHour: number, extra: Record<string, unknown> = {}): Promise<number> {
      const day = new Date();
      const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), startHour));
      const body = {
        title,
        subscriberID: ivan,
        startDate: start.toISOString(),
        deadline: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
        address: 'Lenina 5, Yekaterinburg',
        latitude: HOME.latitude + startHour / 1000,
        longitude: HOME.longitude,
        clientName: 'Anna Volkova',
        clientPhone: '+7 (916) 123-45-67',
        description: 'Two boxes, one fragile',
        customFieldsFormTemplateID: templateID,
        ...extra,
      };
      const created = await server.api.post(TASKS, body);
      assert.equal(created.status, 201, created.text);
      return created.body.taskID;
    }

    const task = async (taskID: number) => (await server.api.get(`${TASKS}/${taskID}`)).body;
    const history = async (taskID: number): Promise<any[]> => (await server.api.get(`${TASKS}/${taskID}/history`)).body;
    const form = async (taskID: number) => (await server.api.get(`${FORMS}?taskIDs=${taskID}`)).body[0];

    before(async () => {
      server = await startServer(dialect, { timeZone: 'UTC', config: { MAP_TILE_URL: 'none' } });
      ivan = await createEmployee(server.api, { name: 'Ivan Petrov', deviceKey: key });
      const template = await server.api.post(TEMPLATES, {
        name: 'Delivery report',
        customFieldFormItems: [
          { externalID: 'payment', name: 'Payment', type: 'select', isRequired: true, values: ['cash', 'card'] },
          { externalID: 'boxes', name: 'Boxes', type: 'integer' },
          { externalID: 'signed', name: 'Signed', type: 'boolean' },
          { externalID: 'photo', name: 'Photo of the door', type: 'picture' },
        ],
      });
      assert.equal(template.status, 201, template.text);
      templateID = template.body.customFieldsFormTemplateID;
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
      });
      mkdirSync(SCREENSHOTS, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test('signs in by the link, shows whose it is and the coordinator’s task, and changes its status', async () => {
      const first = await createTask('Deliver order 5531', 8, { commentPolicy: 1 });
      const { page, errors } = await openPhone('en-US');
      await page.goto(`/m/#key=${key}`);
      await page.getByText('Ivan Petrov').waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the key is taken out of the address bar');
      const row = page.getByRole('button', { name: /Deliver order 5531/ });
      await row.waitFor();
      assert.ok(await page.getByRole('region', { name: 'Map of my tasks' }).isVisible());
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(overflow <= PHONE.width, `the page fits 360 px (scroll width ${overflow})`);
      await page.screenshot({ path: join(SCREENSHOTS, `mobile-tasks-${dialect}.png`), fullPage: true });

      await row.click();
      await page.getByRole('heading', { name: 'Deliver order 5531' }).waitFor();
      assert.equal(await page.getByRole('link', { name: '+7 (916) 123-45-67' }).getAttribute('href'), 'tel:+79161234567');
      assert.match((await page.getByRole('link', { name: 'Lenina 5, Yekaterinburg' }).getAttribute('href')) ?? '', /^geo:56\.84\d*,60\.6057/);

      await page.getByRole('button', { name: 'On the way' }).click();
      await until(async () => (await task(first)).status === 1, 'the server has the task on the way');
      const change = (await history(first)).find((entry) => entry.newValues.status === 1);
      assert.equal(change.subscriberID, ivan, 'the change is the employee’s');

      // Done needs a comment here (commentPolicy 1): the app asks for it before anything is sent.
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('alert').filter({ hasText: 'This status needs a comment.' }).waitFor();
      assert.equal((await task(first)).status, 1);
      await page.getByLabel('Comment').fill('Handed over in person');
      await page.getByRole('button', { name: 'Done' }).click();
      await until(async () => (await task(first)).status === 3, 'the server has the task done');
      assert.equal((await task(first)).statusComment, 'Handed over in person');
      await page.screenshot({ path: join(SCREENSHOTS, `mobile-task-${dialect}.png`), fullPage: true });
      assert.deepEqual(errors, []);
    });

    test('fills the form with a picture from the camera, made small on the phone', async () => {
      const taskID = await createTask('Pick up a parcel', 10);
      const { page, errors } = phones[0]!;
      await page.getByRole('button', { name: '← Tasks' }).click();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('button', { name: /Pick up a parcel/ }).click();
      await page.getByRole('heading', { name: 'Form' }).waitFor();

      await page.getByLabel('Boxes').fill('two');
      await page.getByRole('button', { name: 'Save form' }).click();
      await page.getByText('Some fields need correcting.').waitFor();
      assert.ok(await page.getByText('Required.').isVisible(), 'the required choice is asked for');
      assert.ok(await page.getByText('A whole number.').isVisible());

      await page.getByLabel('Payment').selectOption('card');
      await page.getByLabel('Boxes').fill('2');
      await page.getByLabel('Signed').selectOption('true');
      await page.getByLabel('Photo of the door').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: await cameraPicture(page) });
      await page.getByRole('img', { name: 'The picture taken' }).waitFor();
      await page.getByRole('button', { name: 'Save form' }).click();
      await page.getByText('Form saved.').waitFor();

      const filled = await until(async () => {
        const answer = await form(taskID);
        return answer?.items.find((item: any) => item.externalID === 'photo')?.pictures?.length ? answer : null;
      }, 'the form with its picture is on the server');
      const values = Object.fromEntries(filled.customFieldFormItems.map((item: any) => [item.externalID, item.value]));
      assert.equal(values.payment, 'card');
      assert.equal(values.boxes, '2');
      assert.equal(values.signed, 'true');
      const [picture] = filled.items.find((item: any) => item.externalID === 'photo').pictures;
      assert.equal(picture.contentType, 'image/jpeg');
      const download = await fetch(picture.url, { headers: { authorization: `Bearer ${server.token}` } });
      assert.equal(download.status, 200);
      const size = jpegSize(Buffer.from(await download.arrayBuffer()));
      assert.deepEqual(size, { width: 1600, height: 800 }, 'the longest side is 1600 px');
      assert.deepEqual(errors, []);
    });

    test('works offline: a status change and a form with a picture are sent once, at the time they were made', async () => {
      const taskID = await createTask('Deliver to the warehouse', 12);
      const { page, context, errors } = phones[0]!;
      await page.getByRole('button', { name: '← Tasks' }).click();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('button', { name: /Deliver to the warehouse/ }).click();
      await page.getByRole('heading', { name: 'Deliver to the warehouse' }).waitFor();
      // The service worker is in charge of the app by now: it opens without a network too.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));

      await context.setOffline(true);
      const actedFrom = Date.now();
      await page.getByRole('button', { name: 'Arrived' }).click();
      await page.getByLabel('Payment').selectOption('cash');
      await page.getByLabel('Photo of the door').setInputFiles({ name: 'dock.png', mimeType: 'image/png', buffer: await cameraPicture(page, 800, 600) });
      await page.getByRole('img', { name: 'The picture taken' }).waitFor();
      await page.getByRole('button', { name: 'Save form' }).click();
      await page.getByText('2 changes waiting to be sent').waitFor();
      const actedTo = Date.now();
      assert.equal((await task(taskID)).status, 0, 'nothing reached the server');

      // Reopened without a network, the app comes from the service worker and the task list from the phone.
      await page.reload();
      await page.getByRole('button', { name: /Deliver to the warehouse/ }).waitFor();
      await page.getByText('2 changes waiting to be sent').waitFor();

      // The server's clock runs an hour ahead: what it keeps is the phone's time, not the time of sending.
      const sentAfter = Date.now() + 3_600_000;
      server.setNow(sentAfter);
      await context.setOffline(false);
      await until(async () => !(await page.getByText(/waiting to be sent/).isVisible()), 'the phone has sent everything');

      const stored = await task(taskID);
      assert.equal(stored.status, 4);
      const changedAt = Date.parse(stored.lastStatusChangeDate);
      assert.ok(changedAt >= actedFrom - 1000 && changedAt <= actedTo + 1000, `the status changed at the employee’s time (${stored.lastStatusChangeDate})`);
      assert.ok(changedAt < sentAfter);
      const changes = await history(taskID);
      assert.equal(changes.filter((entry) => entry.newValues.status === 4).length, 1, 'one status change');
      assert.equal(changes.filter((entry) => 'customFieldFormItems' in entry.newValues).length, 1, 'one form change');
      const filled = await form(taskID);
      const photo = filled.items.find((item: any) => item.externalID === 'photo');
      assert.equal(photo.pictures.length, 1, 'one picture');
      assert.equal(filled.items.find((item: any) => item.externalID === 'payment').value, 'cash');
      server.setNow(Date.now());
      assert.deepEqual(errors, []);
    });

    test('sends the phone’s position while open, with its accuracy, and the employee is online', async () => {
      const latest = await until(async () => {
        const answer = await server.api.get(`${SUBSCRIBERS}/lastLocations?subscriberIDs=${ivan}`);
        return answer.status === 200 && answer.body.length > 0 ? answer.body[0] : null;
      }, 'a fix from the app arrived');
      assert.ok(Math.abs(latest.latitude - HOME.latitude) < 1e-6 && Math.abs(latest.longitude - HOME.longitude) < 1e-6);
      // The accuracy is kept with the fix (the API does not answer it): read from the store.
      const row = await server.database.db.selectFrom('locations').select('accuracy_m').where('account_id', '=', server.account.id).where('id', '=', latest.locationID).executeTakeFirstOrThrow();
      assert.equal(row.accuracy_m, 12);
      const employee = (await server.api.get(`${SUBSCRIBERS}/${ivan}`)).body;
      assert.equal(employee.isOnline, true);
    });

    test('signs out on request and forgets the key', async () => {
      const { page, errors } = phones[0]!;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You signed out.').waitFor();
      assert.equal(await page.evaluate(() => document.defaultView.localStorage.getItem('lokator.deviceKey')), null);
      await page.reload();
      await page.getByText('Open the link from the QR code').waitFor();
      assert.deepEqual(errors, []);
    });

    test('in Russian, and a replaced key signs the app out with a message', async () => {
      const { page, errors } = await openPhone('ru-RU');
      await page.goto(`/m/#key=${key}`);
      await page.getByRole('heading', { name: 'Мои задачи' }).waitFor();
      await page.getByRole('button', { name: /Pick up a parcel/ }).click();
      await page.getByRole('heading', { name: 'Анкета' }).waitFor();
      assert.ok(await page.getByRole('button', { name: 'В пути' }).isVisible());
      await page.getByRole('button', { name: '← Задачи' }).click();
      await page.getByRole('button', { name: 'Местоположение при закрытом приложении' }).click();
      await page.getByText(key, { exact: true }).waitFor();

      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${ivan}`, { deviceKey: 'ivan-phone-key-2' })).status, 200);
      await page.reload();
      await page.getByRole('alert').filter({ hasText: 'Ключ этого телефона заменён или отозван' }).waitFor();
      assert.equal(await page.evaluate(() => document.defaultView.localStorage.getItem('lokator.deviceKey')), null, 'the key is forgotten');
      await page.screenshot({ path: join(SCREENSHOTS, `mobile-signed-out-ru-${dialect}.png`), fullPage: true });
      assert.deepEqual(errors, []);
    });
  });
}
