import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { ADMIN_TOKEN } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/** The page's document, as the predicate below sees it in the browser. */
declare const document: { querySelector(selector: string): { value: string } | null };

/**
 * a coordinator sees and sets in Settings how long the account's positions are kept,
 * as the operator does with PATCH /admin/v1/accounts/{id}.
 */

const RETENTION = '/v6/api/accountManagement/retention';

for (const dialect of dialects) {
  describe(`workspace in the browser: data retention in Settings (${dialect})`, needsBrowser, () => {
    let workspace: Workspace;

    before(async () => {
      workspace = await openWorkspace({ dialect });
    });
    after(() => workspace?.close());

    test('shows the server default, refuses a day count that is not one, and saves 90 days', async () => {
      const { page, server } = workspace;
      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Settings' }).click();
      const form = page.getByRole('form', { name: 'Data retention' });
      const asServer = form.getByRole('radio', { name: 'As the server does (for ever)' });
      await asServer.waitFor();
      assert.ok(await asServer.isChecked(), 'no setting of its own: the server default, which keeps everything');
      assert.ok(await form.getByLabel('Days', { exact: true }).isDisabled());

      await form.getByRole('radio', { name: 'For a number of days' }).check();
      await form.getByLabel('Days', { exact: true }).fill('0');
      await form.getByRole('button', { name: 'Save retention' }).click();
      await page.locator('#retention-days-error').filter({ hasText: 'whole number of days from 1' }).waitFor();
      assert.equal((await server.api.get(RETENTION)).body.retentionDays, null, 'nothing saved');

      await form.getByLabel('Days', { exact: true }).fill('90');
      await form.getByRole('button', { name: 'Save retention' }).click();
      await form.getByRole('status').filter({ hasText: 'Positions are kept for 90 days; tracks, vehicle events and statistics for 360 days.' }).waitFor();
      assert.equal((await server.api.get(RETENTION)).body.retentionDays, 90);
      await workspace.screenshot('settings-retention-saved');

      // The operator's setting shows after a reload, and "For ever" saves 0.
      const patched = await server.api.withToken(ADMIN_TOKEN).patch(`/admin/v1/accounts/${server.account.id}`, { retentionDays: 30 });
      assert.equal(patched.status, 200);
      await page.reload();
      await form.getByLabel('Days', { exact: true }).waitFor();
      // A function, not a string: the workspace's CSP refuses eval, which a string predicate needs once it is polled.
      await page.waitForFunction(() => document.querySelector('#retention-days')?.value === '30');
      await form.getByRole('radio', { name: 'For ever', exact: true }).check();
      await form.getByRole('button', { name: 'Save retention' }).click();
      await form.getByRole('status').filter({ hasText: 'Positions are kept for ever' }).waitFor();
      assert.equal((await server.api.get(RETENTION)).body.retentionDays, 0);
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}
