import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { en } from '../../web/src/i18n/en.js';
import { ru } from '../../web/src/i18n/ru.js';
import { COORDINATOR, needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { foreignText, readPage } from './workspace-text.js';

/**
 * Settings → Users and API tokens, in English and in Russian: an admin adds a dispatcher limited to
 * one group and a viewer; issues a token that works from outside the browser and stops working
 * once revoked; the viewer signs in with the temporary password, must choose their own, and then
 * sees no control that changes anything.
 */

const GROUPS = '/v6/api/subscriberManagement/subscriberGroups';
const SUBSCRIBERS = '/v6/api/subscriberManagement/subscribers';
const TEMPORARY = 'a temporary password of the admin';
const OWN = 'the viewer’s own long password';

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

for (const dialect of dialects) {
  for (const language of ['en', 'ru'] as const) {
    const words = language === 'en' ? en : ru;
    // Data in the page's language, so that the page reads as one language; logins are Latin anywhere.
    const group = language === 'en' ? 'North' : 'Север';
    const tokenName = language === 'en' ? 'Warehouse' : 'Склад';
    const read = async (page: Workspace['page']) => (await readPage(page)).filter((text) => !/coordinator|admin@\d+|anna|vera|First token/.test(text));
    describe(`workspace in the browser: users and tokens (${dialect}, ${language})`, needsBrowser, () => {
      let workspace: Workspace;
      let north: number;

      before(async () => {
        workspace = await openWorkspace({ dialect, ...(language === 'ru' ? { locale: 'ru-RU' } : {}) });
        const { api } = workspace.server;
        north = (await api.post(GROUPS, { name: group })).body.subscriberGroupID;
        await createEmployee(api, { name: 'Nina North', subscriberGroupID: north });
      });
      after(() => workspace?.close());

      async function signInAs(login: string, password: string) {
        const { page } = workspace;
        await page.locator('#login, input[autocomplete="username"]').first().waitFor();
        await page.getByLabel(words['signIn.login']).fill(login);
        await page.getByLabel(words['signIn.password']).fill(password);
        await page.getByRole('button', { name: words['signIn.submit'] }).click();
      }

      test('an admin adds a dispatcher of one group and a viewer, and issues and revokes a token', async () => {
        const { page, server } = workspace;
        if (language === 'ru') {
          await page.goto('/');
          await signInAs(COORDINATOR.login, COORDINATOR.password);
        }
        await page.getByRole('navigation', { name: words['app.nav'] }).waitFor();
        await page.goto('/#/settings');
        await page.getByRole('heading', { name: words['people.users'], exact: true }).waitFor();

        const addUser = async (login: string, role: string, groups: string[]) => {
          await page.locator('#new-user-login').fill(login);
          await page.locator('#new-user-name').fill(login);
          await page.locator('#new-user-role').selectOption(role);
          for (const group of groups) await page.locator('#new-user-scope').getByLabel(group).check();
          await page.locator('#new-user-password').fill(TEMPORARY);
          await page.getByRole('button', { name: words['people.add'], exact: true }).click();
          await page.locator(`tr[data-user="${login}"]`).waitFor();
        };
        await addUser('anna', 'dispatcher', [group]);
        await addUser('vera', 'viewer', []);
        const users = (await server.api.get('/v6/api/userManagement/users')).body as any[];
        assert.deepEqual(
          users.filter((u) => u.login !== COORDINATOR.login && !u.login.startsWith('admin@')).map((u) => [u.login, u.role, u.subscriberGroupIDs]),
          [
            ['anna', 'dispatcher', [north]],
            ['vera', 'viewer', null],
          ],
        );
        assert.match((await page.locator('tr[data-user="anna"]').textContent()) ?? '', new RegExp(group));

        await page.locator('#new-token-name').fill(tokenName);
        await page.locator('#new-token-role').selectOption('viewer');
        await page.getByRole('button', { name: words['people.issue'], exact: true }).click();
        const value = page.locator('#issued-token');
        await value.waitFor();
        const token = await value.inputValue();
        assert.match(token, /^lk_/);
        const withToken = () => fetch(`${server.baseUrl}${SUBSCRIBERS}`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal((await withToken()).status, 200, 'the new token works outside the browser');
        const row = page.locator(`tr[data-token="${tokenName}"]`);
        await row.waitFor();
        assert.deepEqual(foreignText(await read(page), language), [], 'every word of the page is in the page’s language');
        await workspace.screenshot(`settings-people-${dialect}-${language}`);

        await row.getByRole('button', { name: fill(words['people.revoke'], { name: tokenName }) }).click();
        await row.getByRole('button', { name: words['people.yesRevoke'], exact: true }).click();
        await row.getByText(words['people.revoked']).waitFor();
        assert.equal((await withToken()).status, 401, 'the revoked token is refused at its next request');
        assert.deepEqual(workspace.pageErrors, []);
      });

      test('the viewer must choose a password at the first sign-in, then sees nothing to change', async () => {
        const { page } = workspace;
        await page.getByRole('button', { name: words['app.signOut'] }).click();
        await signInAs('vera', TEMPORARY);
        await page.getByRole('heading', { name: words['people.mustChange'] }).waitFor();
        assert.equal(await page.getByRole('navigation', { name: words['app.nav'] }).count(), 0, 'nothing else until it is changed');
        await page.locator('#current-password').fill(TEMPORARY);
        await page.locator('#new-password').fill(OWN);
        await page.getByRole('button', { name: words['password.change'] }).click();
        await page.getByRole('navigation', { name: words['app.nav'] }).waitFor();
        await page.getByText(words['people.readOnly']).waitFor();

        await page.goto('/#/employees');
        await page.getByRole('heading', { name: words['emp.title'], exact: true }).waitFor();
        await page.getByText('Nina North').waitFor();
        assert.equal(await page.getByRole('button', { name: words['emp.new'] }).count(), 0, 'no New employee');
        assert.equal(await page.getByRole('heading', { name: words['emp.groups'] }).count(), 0, 'no group editing');

        await page.goto('/#/settings');
        await page.getByRole('heading', { name: words['settings.title'], level: 1 }).waitFor();
        await page.getByRole('heading', { name: words['password.title'] }).waitFor();
        for (const hidden of [words['people.users'], words['people.tokens'], words['settings.account'], words['retention.title'], words['secret.title']]) {
          assert.equal(await page.getByRole('heading', { name: hidden, exact: true }).count(), 0, `no ${hidden} section`);
        }
        assert.deepEqual(foreignText(await read(page), language), []);
        await workspace.screenshot(`settings-viewer-${dialect}-${language}`);
        assert.deepEqual(workspace.pageErrors, []);
      });
    });
  }
}
