import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { Receiver, testLog } from '../delivery/delivery-fixtures.js';
import type { Page } from 'playwright-core';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

const DELIVERIES = '/v6/api/eventManagement/deliveries';
const RULES = '/v6/api/eventManagement/events';
const SECRET = '/v6/api/eventManagement/signingSecret';

/** The focused element's accessible text, or one of its attributes (page code as strings: the tests' TypeScript has no DOM types). */
const focused = (page: Page, attribute?: string) =>
  page.evaluate<string | null>(attribute ? `document.activeElement?.getAttribute(${JSON.stringify(attribute)}) ?? null` : 'document.activeElement?.textContent ?? null');

/**
 * The Deliveries and Settings tabs against real deliveries: an event rule made through the API
 * posts employee changes to a receiver on loopback, the delivery worker sends them, and a
 * receiver that answers 503 makes a delivery fail after its (short) retries.
 */
describe('workspace in the browser: deliveries and the signing secret', needsBrowser, () => {
  let workspace: Workspace;
  let receiver: Receiver;
  let answer = 503;

  before(async () => {
    // The server's own worker, with a short retry schedule.
    workspace = await openWorkspace({ delivery: { retryScheduleMs: [50], timeoutMs: 2000 } });
    receiver = await new Receiver(() => ({ status: answer })).start();
    await workspace.server.services.delivery.worker.start(testLog());
  });
  after(async () => {
    await workspace?.server.services.delivery.worker.stop();
    await receiver?.close();
    await workspace?.close();
  });

  const deliveriesOf = async (query: string) => {
    const response = await workspace.server.api.get(`${DELIVERIES}?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.data as any[];
  };
  const settled = async () => (await deliveriesOf('status=pending')).length === 0;

  test('a failed delivery is found by its status, shows its attempts, and a resend delivers it with the same webhook-id', async () => {
    const { page, server } = workspace;
    const rule = await server.api.post(RULES, { name: 'Employee feed', kind: 'employeeChanges', sendToApi: true, apiUrl: `${receiver.url}/hook` });
    assert.equal(rule.status, 201, rule.text);
    await createEmployee(server.api, { name: 'Courier One' });
    await until('the delivery to fail', async () => (await deliveriesOf('status=failed')).length === 1);
    const failed = (await deliveriesOf('status=failed'))[0];
    assert.deepEqual(failed.attempts.map((a: any) => a.statusCode), [503, 503]);
    const id = failed.deliveryID as number;

    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByLabel('Status').selectOption('failed');
    const resendButton = page.getByRole('button', { name: `Resend delivery ${id}`, exact: true });
    const row = page.getByRole('row').filter({ has: resendButton });
    await row.waitFor();
    assert.equal(await page.getByRole('button', { name: /^Resend delivery/ }).count(), 1, 'only the failed delivery is listed');
    const cells = await row.getByRole('cell').allInnerTexts();
    assert.match(cells[0]!, /Employee feed/);
    assert.match(cells[0]!, new RegExp(`#${id} · All employee changes · Courier One$`), 'what it carried, in words: the change and the employee');
    assert.equal(cells[1], 'webhook');
    assert.equal(cells[2], `${receiver.url}/hook`);
    assert.equal(cells[3], 'failed');
    assert.equal(cells[5], '503', 'the last status code (the error `HTTP 503` is not repeated)');

    // The attempts open and close by keyboard.
    const toggle = row.getByRole('button', { name: `2 attempts of delivery ${id}` });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const attempts = page.getByRole('table', { name: `Attempts of delivery ${id}, oldest first` });
    await attempts.waitFor();
    const attemptRows = attempts.getByRole('row');
    assert.equal(await attemptRows.count(), 3, 'a header and two attempts');
    for (let i = 1; i <= 2; i++) {
      const [time, code, duration, error] = await attemptRows.nth(i).getByRole('cell').allInnerTexts();
      assert.match(time!, /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}:\d{2}$/, 'the day and time with seconds, as en-GB writes them');
      assert.equal(code, '503');
      assert.match(duration!, /^\d{1,3}(,\d{3})* ms$/, 'a whole number of milliseconds, grouped as English writes it');
      assert.equal(error, 'HTTP 503');
    }
    await page.getByText(failed.messageID).waitFor();
    await workspace.screenshot('deliveries-failed');

    // The receiver is back: a resend by keyboard delivers, and the row shows it in place.
    answer = 200;
    await resendButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: `Delivery ${id} resent: delivered (200).` }).waitFor();
    assert.equal((await row.getByRole('cell').allInnerTexts())[3], 'delivered');
    assert.equal(await attempts.getByRole('row').count(), 4, 'the new attempt is listed under the earlier ones');
    assert.equal(await focused(page), `Resend delivery ${id}`, 'focus stays on the button');

    const [after] = await deliveriesOf(`eventID=${rule.body.eventID}`);
    assert.equal(after.deliveryID, id);
    assert.equal(after.status, 'delivered');
    assert.deepEqual(after.attempts.map((a: any) => a.statusCode), [503, 503, 200]);
    const ids = receiver.at('/hook').map((r) => r.headers['webhook-id']);
    assert.deepEqual(ids, [failed.messageID, failed.messageID, failed.messageID], 'every attempt and the resend carry the same webhook-id');
    await workspace.screenshot('deliveries-resent');

    // On a phone the table scrolls inside its box; the page itself does not.
    await page.setViewportSize({ width: 375, height: 800 });
    const widths = await page.evaluate<{ page: number; inner: number; box: number }>(`(() => {
      const scroller = document.querySelector('.table-scroll');
      return { page: document.documentElement.scrollWidth, inner: scroller.scrollWidth, box: scroller.clientWidth };
    })()`);
    assert.ok(widths.page <= 375, `the page is ${widths.page} px wide`);
    assert.ok(widths.inner > widths.box, 'the table scrolls horizontally inside .table-scroll');
    await workspace.screenshot('deliveries-375px');
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(workspace.pageErrors, []);
  });

  test('Refresh reloads the list and More pages through it', async () => {
    const { page, server } = workspace;
    for (let i = 0; i < 50; i++) await createEmployee(server.api, { name: `Courier ${i + 2}` });
    await until('the new deliveries', settled);
    const total = (await deliveriesOf('')).length;
    assert.equal(total, 51);

    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.getByRole('button', { name: /^Resend delivery/ });
    await until('the first page', async () => (await rows.count()) === 50);
    const oldest = (await deliveriesOf('count=1&offset=50'))[0];
    await page.getByRole('button', { name: 'More', exact: true }).focus();
    await page.keyboard.press('Enter');
    await until('the second page', async () => (await rows.count()) === total);
    // Focus moves to the first row of the new page (the More button is gone).
    await until('focus on the new page', async () => (await focused(page, 'aria-controls')) === `delivery-${oldest.deliveryID}-attempts`);
    assert.equal(await page.getByRole('button', { name: 'More', exact: true }).count(), 0, 'no More after the last page');

    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deliveries match these filters.').waitFor();
    assert.deepEqual(workspace.pageErrors, []);
  });

  test('Settings show the account and the signing secret; Rotate asks first, then shows the new secret, and both sign', async () => {
    const { page, server } = workspace;
    const before = (await server.api.get(SECRET)).body.secret as string;
    assert.match(before, /^whsec_/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });

    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    const accountForm = page.getByRole('form', { name: 'Account' });
    await until('the account', async () => (await accountForm.getByLabel('Name', { exact: true }).inputValue()) === 'Test account');
    assert.equal(await accountForm.getByLabel('Time zone', { exact: true }).inputValue(), 'UTC');
    const account = page.getByRole('definition');
    // The signed-in user's role, then the account's SMS, then who is signed in.
    assert.deepEqual(await account.allInnerTexts(), ['Admin', 'Off: event rules cannot send SMS (the operator turns it on)', 'coordinator']);
    const field = page.getByLabel('Signing secret', { exact: true });
    await until('the secret', async () => (await field.inputValue()) !== '');
    assert.equal(await field.inputValue(), before);
    assert.equal(await field.getAttribute('readonly'), '');

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'copied to the clipboard' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), before);

    // The confirmation is a modal dialog: it takes focus, and Escape leaves everything as it was.
    const rotate = page.getByRole('button', { name: 'Rotate secret' });
    await rotate.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /For 24 hours both secrets sign/);
    assert.equal(await focused(page), 'Cancel');
    await workspace.screenshot('settings-rotate-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await focused(page), 'Rotate secret', 'focus returns to Rotate secret');
    assert.equal((await server.api.get(SECRET)).body.secret, before, 'Escape does not rotate');

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'Rotate now');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'A new signing secret is shown' }).waitFor();
    const shown = await field.inputValue();
    const current = (await server.api.get(SECRET)).body.secret as string;
    assert.notEqual(shown, before);
    assert.equal(shown, current);
    assert.equal(await focused(page), 'Rotate secret', 'focus returns to Rotate secret');
    await workspace.screenshot('settings');

    // The worker rereads the keys at most a second after it last read them (signing-secrets.ts).
    await new Promise((r) => setTimeout(r, 1100));
    const seen = receiver.received.length;
    await createEmployee(server.api, { name: 'Courier after rotation' });
    await until('the call after the rotation', () => receiver.received.length > seen);
    const call = receiver.received[seen]!;
    assert.equal(String(call.headers['webhook-signature']).split(' ').length, 2, 'two v1 signatures');
    for (const secret of [before, shown]) assert.ok(new Webhook(secret).verify(call.body, call.headers as Record<string, string>));
    assert.deepEqual(workspace.pageErrors, []);
  });
});
