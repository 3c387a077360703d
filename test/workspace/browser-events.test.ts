import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { Receiver, testLog } from '../delivery/delivery-fixtures.js';
import { dialects } from '../helpers/stores.js';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee } from '../helpers/server.js';
import { postLive, Trip } from '../signals/signal-api.js';
import { until } from '../helpers/wait.js';

const RULES = '/v6/api/eventManagement/events';
const KIND_WORDS = [
  'Speed exceeded',
  'Zone entry/exit',
  'Stops',
  'Power off',
  'Waste loading',
  'Sensor control',
  'Trip end',
  'Estimated arrival',
  'All task changes',
  'All employee changes',
];
const WEEKDAY_WORDS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * The accessible name of the element with the keyboard focus, roughly as a screen reader says it.
 * (A string for the page to run: this file is typed without the DOM's globals.)
 */
const focusedName = (page: Page) =>
  page.evaluate<string>(`(() => {
    const element = document.activeElement;
    if (!element) return '';
    const label = element.labels && element.labels[0] ? element.labels[0].textContent : null;
    return (element.getAttribute('aria-label') ?? label ?? element.textContent ?? '').trim();
  })()`);

/** Presses Tab until the control named `name` has the focus, as a keyboard user would. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached “${name}”`);
}

async function assertDescribedBy(field: Locator, message: Locator): Promise<void> {
  const id = await message.getAttribute('id');
  assert.ok(id, 'the message has an id');
  assert.ok((await field.getAttribute('aria-describedby'))?.split(' ').includes(id), `aria-describedby names ${id}`);
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
}

async function assertNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, viewport } = await page.evaluate<{ scroll: number; viewport: number }>('({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth })');
  assert.ok(scroll <= viewport, `the page is ${scroll} px wide in a ${viewport} px viewport`);
}

// The workspace over each store: the rules and zones it saves are read back and used by the server.
for (const dialect of dialects) {
  describe(`workspace in the browser: the Events tab (interface 6.1) on ${dialect}`, needsBrowser, () => {
    let workspace: Workspace;
    let receiver: Receiver;
    let car: number;
    let van: number;
    before(async () => {
      workspace = await openWorkspace({ dialect });
      receiver = await new Receiver().start();
      await workspace.server.services.delivery.worker.start(testLog());
      car = await createEmployee(workspace.server.api, { name: 'Truck 7', externalSubscriberID: 'truck-7' });
      van = await createEmployee(workspace.server.api, { name: 'Van 2' });
    });
    after(async () => {
      await workspace?.server.services.delivery.worker.stop();
      await receiver?.close();
      await workspace?.close();
    });

    test('a speed rule made in the form is saved with its fields, fires to the customer address, and is edited, switched off and deleted', async () => {
      const { page, server } = workspace;
      const hook = `${receiver.url}/hook`;
      const now = Date.now();
      // A window around now that may pass midnight, and a weekday off that is neither today nor yesterday.
      const hour = Math.floor(now / 3_600_000) * 3_600_000;
      const [timeFrom, timeTo] = [hhmm(hour - 3 * 3_600_000), hhmm(hour + 3 * 3_600_000)];
      const dayOff = ((new Date(now).getUTCDay() + 6 + 2) % 7) + 1;
      const weekdays = [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== dayOff);

      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Events' }).click();
      await page.getByRole('heading', { name: 'Events' }).waitFor();
      await page.getByText('No events yet').waitFor();
      await page.getByRole('button', { name: 'New event' }).click();
      await page.getByRole('heading', { name: 'New event' }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/events/new');

      // 1: the kind in words, the name (no backslash), the employees.
      const kinds = page.getByRole('group', { name: 'Kind' });
      assert.deepEqual(await kinds.locator('label').allInnerTexts(), KIND_WORDS);
      await kinds.getByRole('radio', { name: 'Speed exceeded' }).check();
      const name = page.getByRole('textbox', { name: 'Name', exact: true });
      await name.fill('Speeding\\ring road');
      const backslash = page.getByText('The name must not contain the backslash character');
      await backslash.waitFor();
      await assertDescribedBy(name, backslash);
      await name.fill('Speeding on the ring road');
      await backslash.waitFor({ state: 'detached' });
      assert.equal(await name.getAttribute('aria-invalid'), null);

      const employees = page.getByRole('group', { name: 'Employees' });
      await employees.getByText('None checked: the event applies to all employees').waitFor();
      assert.deepEqual(await employees.locator('label').allInnerTexts(), ['Truck 7', 'Van 2']);
      await employees.getByRole('checkbox', { name: 'Truck 7' }).check();
      await employees.getByText('1 checked').waitFor();

      // 2: the kind's parameters. The speed limit is required: the form names it, in words.
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('#rule-parameters-speedLimit-error').filter({ hasText: 'Enter speed limit, km/h.' }).waitFor();
      await page.getByLabel('Speed limit, km/h').fill('60');
      assert.equal(await page.getByLabel('Minimum duration, s').inputValue(), '');

      // 3: validity, weekdays, daily window, channels.
      const unlimited = page.getByRole('checkbox', { name: 'Unlimited' });
      assert.ok(await unlimited.isChecked(), 'unlimited by default');
      assert.equal(await page.getByLabel('Valid from').count(), 0);
      await unlimited.uncheck();
      assert.equal(await page.getByLabel('Valid from').getAttribute('type'), 'datetime-local');
      assert.equal(await page.getByLabel('Valid to').getAttribute('type'), 'datetime-local');
      await unlimited.check();
      await page.getByLabel('Valid from').waitFor({ state: 'detached' });

      const days = page.getByRole('group', { name: 'Weekdays' });
      assert.deepEqual(await days.locator('label').allInnerTexts(), WEEKDAY_WORDS);
      for (const box of await days.getByRole('checkbox').all()) assert.ok(await box.isChecked(), 'every weekday by default');
      await days.getByRole('checkbox', { name: WEEKDAY_WORDS[dayOff - 1]! }).uncheck();

      const from = page.getByLabel('From', { exact: true });
      const to = page.getByLabel('To', { exact: true });
      assert.deepEqual([await from.inputValue(), await to.inputValue()], ['00:00', '23:59']);
      await from.fill(timeFrom);
      await to.fill(timeTo);
      await page.getByLabel('E-mail addresses').fill('dispatch@example.com');
      assert.equal(await page.getByLabel('SMS phones').count(), 0, 'no SMS phones without the SMS option');
      await page.getByText('the account has no SMS option').waitFor();
      await page.getByLabel('Messenger users (bot)').waitFor();
      await page.getByLabel('Messenger users (second channel)').waitFor();

      await page.getByRole('checkbox', { name: 'Send to API' }).check();
      const address = page.getByLabel('Send to a URL');
      // The server's refusal is shown at its field.
      await address.fill('ftp://example.com/hook');
      await page.getByRole('button', { name: 'Done' }).click();
      const refused = page.locator('#rule-apiUrl-error');
      await refused.waitFor();
      assert.match(await refused.innerText(), /https URL/);
      await assertDescribedBy(address, refused);
      await page.getByRole('alert').filter({ hasText: 'The event was not saved.' }).waitFor();
      assert.match(await focusedName(page), /^The event was not saved\..*Send to a URL: Must be an https URL\.$/, 'the summary has the focus');
      assert.equal((await server.api.get(RULES)).body.length, 0);

      await address.fill(hook);
      await workspace.screenshot('events-form');
      await page.getByRole('button', { name: 'Done' }).click();

      // 4: back in the list, which shows the rule.
      await page.getByRole('status').filter({ hasText: 'Saved “Speeding on the ring road”.' }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/events');
      const row = page.getByRole('row').filter({ hasText: 'Speeding on the ring road' });
      await row.waitFor();
      assert.deepEqual(await row.getByRole('cell').allInnerTexts().then((cells) => cells.slice(0, 5)), [
        'Speeding on the ring road',
        'Speed exceeded',
        'Truck 7',
        'API, 1 e-mail',
        'Yes',
      ]);
      await workspace.screenshot('events-list');

      const saved = (await server.api.get(RULES)).body as any[];
      assert.equal(saved.length, 1);
      const eventID = saved[0].eventID as number;
      const expected = {
        eventID,
        name: 'Speeding on the ring road',
        kind: 1,
        subscriberIDs: [car],
        parameters: { speedLimit: 60 },
        validFrom: null,
        validTo: null,
        weekdays,
        timeFrom,
        timeTo,
        emails: ['dispatch@example.com'],
        smsPhones: [],
        messengerUserIDs: [],
        messenger2UserIDs: [],
        sendToApi: true,
        apiUrl: hook,
        batch: false,
        enabled: true,
        alertWorkspace: true,
      };
      assert.deepEqual(saved[0], expected);

      // The rule at work: the van (not chosen) and the truck go over the limit; only the truck's signal comes.
      const start = Math.floor((now - 3 * 60_000) / 1000) * 1000;
      await postLive(server.api, new Trip(van, start).drive(60, 90).fixes);
      await postLive(server.api, new Trip(car, start).drive(60, 90).fixes);
      await until('the speed signal at the customer address', () => receiver.at('/hook').length > 0, 15_000);
      const signal = JSON.parse(receiver.at('/hook')[0]!.body) as Record<string, unknown>;
      assert.equal(receiver.at('/hook')[0]!.headers['content-type'], 'application/json');
      assert.deepEqual([signal.signalTypeID, signal.subscriberID, signal.subscriberExternalID, signal.eventID, signal.velocity], [1, car, 'truck-7', eventID, 90]);
      const outbox = await server.database.db.selectFrom('deliveries').select(['channel', 'target']).where('event_rule_id', '=', eventID).orderBy('id').execute();
      assert.deepEqual(
        outbox.map((d) => [d.channel, d.target]),
        [
          ['webhook', hook],
          ['email', 'dispatch@example.com'],
        ],
        'one signal, to the address and the e-mail; none for the van',
      );

      // Edit: the form shows what was saved; a new name and limit are saved, the rest stays.
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit event' }).waitFor();
      assert.equal(new URL(page.url()).hash, `#/events/${eventID}`);
      await until('the rule in the form', async () => (await name.count()) === 1 && (await name.inputValue()) === expected.name);
      assert.ok(await kinds.getByRole('radio', { name: 'Speed exceeded' }).isChecked());
      assert.ok(await employees.getByRole('checkbox', { name: 'Truck 7' }).isChecked());
      assert.ok(!(await employees.getByRole('checkbox', { name: 'Van 2' }).isChecked()));
      assert.equal(await page.getByLabel('Speed limit, km/h').inputValue(), '60');
      assert.ok(await unlimited.isChecked());
      assert.ok(!(await days.getByRole('checkbox', { name: WEEKDAY_WORDS[dayOff - 1]! }).isChecked()));
      // The form shows the end of the day, which the API writes 00:00, as 23:59 (timeTo is 00:00 from 21:00 to 22:00 UTC).
      assert.deepEqual([await from.inputValue(), await to.inputValue()], [timeFrom, timeTo === '00:00' ? '23:59' : timeTo]);
      assert.equal(await page.getByLabel('E-mail addresses').inputValue(), 'dispatch@example.com');
      assert.ok(await page.getByRole('checkbox', { name: 'Send to API' }).isChecked());
      assert.equal(await address.inputValue(), hook);
      await name.fill('Speeding, edited');
      await page.getByLabel('Speed limit, km/h').fill('80');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Speeding, edited”.' }).waitFor();
      const edited = (await server.api.get(`${RULES}/${eventID}`)).body;
      assert.deepEqual(edited, { ...expected, name: 'Speeding, edited', parameters: { speedLimit: 80 } });

      // Switch off: the button says what it would do next and keeps the focus.
      const editedRow = page.getByRole('row').filter({ hasText: 'Speeding, edited' });
      await editedRow.getByRole('button', { name: 'Switch off' }).click();
      await editedRow.getByRole('button', { name: 'Switch on' }).waitFor();
      await page.getByRole('status').filter({ hasText: '“Speeding, edited” switched off.' }).waitFor();
      assert.equal(await focusedName(page), 'Switch on');
      assert.equal((await editedRow.getByRole('cell').allInnerTexts())[4], 'No');
      assert.equal((await server.api.get(`${RULES}/${eventID}`)).body.enabled, false);

      // Delete, by keyboard: Escape takes the question back; Yes, delete deletes.
      await editedRow.getByRole('button', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      const question = page.getByRole('group', { name: 'Delete “Speeding, edited”?' });
      await question.waitFor();
      assert.equal(await focusedName(page), 'Cancel', 'the safe answer has the focus');
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      assert.equal(await focusedName(page), 'Delete');
      assert.equal((await server.api.get(RULES)).body.length, 1);
      await page.keyboard.press('Enter');
      await question.waitFor();
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focusedName(page), 'Yes, delete');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: '“Speeding, edited” deleted.' }).waitFor();
      await editedRow.waitFor({ state: 'detached' });
      assert.equal((await server.api.get(`${RULES}/${eventID}`)).status, 404);
      assert.deepEqual((await server.api.get(RULES)).body, []);
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('at phone width, by keyboard only: a stop rule for all employees', async () => {
      const { page, server } = workspace;
      await page.setViewportSize({ width: 375, height: 800 });
      try {
        await page.goto('/#/events');
        await page.getByRole('heading', { name: 'Events' }).waitFor();
        await tabTo(page, 'New event');
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { name: 'New event' }).waitFor();
        await page.getByRole('group', { name: 'Employees' }).waitFor();

        await tabTo(page, 'Speed exceeded');
        // Arrow keys move through the kinds, as in any radio group.
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        assert.equal(await focusedName(page), 'Stops');
        assert.ok(await page.getByRole('radio', { name: 'Stops' }).isChecked());
        await tabTo(page, 'Name');
        await page.keyboard.type('Long stops');
        await tabTo(page, 'Minimum stop, minutes');
        await page.keyboard.type('15');
        await tabTo(page, 'E-mail addresses');
        await page.keyboard.type('a@example.com, b@example.com');
        await assertNoSidewaysScroll(page);
        await workspace.screenshot('events-form-phone');
        await tabTo(page, 'Done');
        await page.keyboard.press('Enter');

        await page.getByRole('status').filter({ hasText: 'Saved “Long stops”.' }).waitFor();
        await page.getByRole('row').filter({ hasText: 'Long stops' }).waitFor();
        await assertNoSidewaysScroll(page);
        await workspace.screenshot('events-list-phone');
        const [rule] = (await server.api.get(RULES)).body as any[];
        assert.deepEqual(
          [rule.name, rule.kind, rule.subscriberIDs, rule.parameters, rule.emails, rule.weekdays],
          ['Long stops', 3, [], { minStopMinutes: 15 }, ['a@example.com', 'b@example.com'], [1, 2, 3, 4, 5, 6, 7]],
        );
        // The form's 00:00 to 23:59 is the whole day: the server's 00:00-00:00.
        assert.deepEqual([rule.timeFrom, rule.timeTo, rule.validFrom, rule.validTo], ['00:00', '00:00', null, null]);
        assert.equal((await server.api.delete(`${RULES}/${rule.eventID}`)).status, 204);
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('a refusal of the name by the server (400 code 2) shows at the name', async () => {
      const { page } = workspace;
      await page.goto('/#/events/new');
      await page.getByRole('radio', { name: 'Trip end' }).check();
      const name = page.getByRole('textbox', { name: 'Name', exact: true });
      await name.fill('Trips');
      // The form refuses a backslash itself, so the server's answer is played here for the same refusal.
      await page.route(`**${RULES}`, (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            status: 400,
            code: 2,
            description: 'Bad request',
            message: 'name: must not contain the backslash character',
            validationErrors: { name: 'must not contain the backslash character' },
          }),
        }),
      );
      try {
        await page.getByRole('button', { name: 'Done' }).click();
        const message = page.locator('#rule-name-error');
        await message.waitFor();
        assert.equal(await message.innerText(), 'Must not contain the backslash character.');
        await assertDescribedBy(name, message);
        // The summary's entry takes the keyboard to the field.
        await page.getByRole('alert').getByRole('button', { name: /^Name:/ }).click();
        assert.equal(await focusedName(page), 'Name');
      } finally {
        await page.unroute(`**${RULES}`);
      }
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('zone and sensor parameters, a validity period and messenger users are saved as chosen', async () => {
      const { page, server } = workspace;
      const square = [
        { latitude: 55.7, longitude: 37.5 },
        { latitude: 55.7, longitude: 37.6 },
        { latitude: 55.8, longitude: 37.6 },
      ];
      const depots = (await server.api.post('/v6/api/zoneManagement/zoneGroups', { name: 'Depots' })).body.zoneGroupID as number;
      const north = (await server.api.post('/v6/api/zoneManagement/zones', { name: 'North gate', bounds: square })).body.zoneID as number;
      await server.api.post('/v6/api/zoneManagement/zones', { name: 'South gate', bounds: square, zoneGroupID: depots });

      await page.goto('/#/events/new');
      await page.getByRole('radio', { name: 'Zone entry/exit' }).check();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Gates');
      const zones = page.getByRole('group', { name: 'Zones', exact: true });
      await zones.waitFor();
      assert.deepEqual(await zones.locator('label').allInnerTexts(), ['North gate', 'South gate']);
      // Nothing chosen: the form says so at the zones before anything is sent.
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('#rule-parameters-zoneIDs-error').filter({ hasText: 'Choose at least one zone or zone group.' }).waitFor();
      await workspace.screenshot('events-form-errors');
      await zones.getByRole('checkbox', { name: 'North gate' }).check();
      await page.getByRole('group', { name: 'Zone groups' }).getByRole('checkbox', { name: 'Depots' }).check();
      await page.getByRole('radio', { name: 'On entry', exact: true }).check();
      await page.getByRole('checkbox', { name: 'Unlimited' }).uncheck();
      await page.getByLabel('Valid from').fill('2026-06-01T08:00');
      await page.getByLabel('Valid to').fill('2026-12-31T18:30');
      await page.getByLabel('Messenger users (bot)').fill('3');
      await page.getByLabel('Messenger users (second channel)').fill('44, 45');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Gates”.' }).waitFor();

      await page.getByRole('button', { name: 'New event' }).click();
      await page.getByRole('radio', { name: 'Sensor control' }).check();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Too warm');
      await page.getByLabel('Sensor', { exact: true }).fill('2');
      await page.getByLabel('Minimum', { exact: true }).fill('8');
      await page.getByLabel('Maximum', { exact: true }).fill('-5');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('#rule-parameters-min-error').filter({ hasText: 'The minimum must not be above the maximum.' }).waitFor();
      await page.getByLabel('Minimum', { exact: true }).fill('-5');
      await page.getByLabel('Maximum', { exact: true }).fill('8');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Too warm”.' }).waitFor();

      const rules = (await server.api.get(RULES)).body as any[];
      const gates = rules.find((r) => r.name === 'Gates');
      assert.deepEqual(
        [gates.kind, gates.parameters, gates.validFrom, gates.validTo, gates.messengerUserIDs, gates.messenger2UserIDs],
        [2, { zoneIDs: [north], zoneGroupIDs: [depots], on: 'entry' }, '2026-06-01T08:00:00+00:00', '2026-12-31T18:30:00+00:00', [3], [44, 45]],
      );
      const warm = rules.find((r) => r.name === 'Too warm');
      assert.deepEqual([warm.kind, warm.parameters], [10, { sensorID: 2, min: -5, max: 8 }]);
      const gatesRow = page.getByRole('row').filter({ hasText: 'Gates' });
      await gatesRow.waitFor();
      assert.equal((await gatesRow.getByRole('cell').allInnerTexts())[3], '1 bot user, 2 second-channel users');
      for (const rule of rules) assert.equal((await server.api.delete(`${RULES}/${rule.eventID}`)).status, 204);
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('SMS phones are offered only with the SMS option', async () => {
      const { page, server } = workspace;
      await page.goto('/#/events/new');
      await page.getByRole('heading', { name: 'New event' }).waitFor();
      await page.getByText('the account has no SMS option').waitFor();
      assert.equal(await page.getByLabel('SMS phones').count(), 0);

      await server.database.db.updateTable('accounts').set({ sms_enabled: 1 }).where('id', '=', server.account.id).execute();
      await page.reload();
      await page.getByRole('heading', { name: 'New event' }).waitFor();
      await page.getByRole('radio', { name: 'Power off' }).check();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Power cut');
      await page.getByLabel('SMS phones').fill('+7 900 123-45-67');
      assert.equal(await page.getByText('the account has no SMS option').count(), 0);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “Power cut”.' }).waitFor();
      assert.deepEqual(
        ((await server.api.get(RULES)).body as any[]).map((r) => [r.name, r.kind, r.smsPhones]),
        [['Power cut', 7, ['+79001234567']]],
      );

      // The option taken away: editing the rule says its phones go at Done, rather than dropping them unseen.
      await server.database.db.updateTable('accounts').set({ sms_enabled: 0 }).where('id', '=', server.account.id).execute();
      await page.reload();
      await page.getByRole('row').filter({ hasText: 'Power cut' }).getByRole('button', { name: 'Edit' }).click();
      await page.getByText('This event’s SMS phones (+79001234567) are dropped when you press Done.').waitFor();
      assert.equal(await page.getByLabel('SMS phones').count(), 0);
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
