import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { en } from '../../web/src/i18n/en.js';
import { ru } from '../../web/src/i18n/ru.js';
import { COORDINATOR, needsBrowser, openWorkspace, type Workspace } from '../helpers/browser.js';
import { createEmployee } from '../helpers/server.js';
import type { Dialect } from '../../src/store/database.js';
import { foreignText, readPage } from './workspace-text.js';

/**
 * A coordinator turns two-factor sign-in on in Settings (QR code, one code, recovery codes), signs
 * in again with a code from the app, and reads the audit log: the entries, a filter, the CSV.
 * In English on SQLite and in Russian on PostgreSQL, so each language and each store is seen.
 */

const runs: { language: 'en' | 'ru'; locale: string; dialect: Dialect; text: typeof en }[] = [
  { language: 'en', locale: 'en-US', dialect: 'sqlite', text: en },
  { language: 'ru', locale: 'ru-RU', dialect: 'postgres', text: ru as typeof en },
];

/** The code an authenticator app shows `stepsAhead` 30-second steps from now (the server takes one step either side). */
const codeOf = (secret: string, stepsAhead: 0 | 1) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
/** The shared test machine may be slow: a page is waited for this long before a step fails. */
const PAGE_TIMEOUT_MS = 90_000;
/** The page's texts but data: the account's logins and its first token's name, Latin in any language (Settings lists its users and tokens). */
const readText = async (page: Workspace['page']) => (await readPage(page)).filter((text) => !/coordinator|admin@\d+|First token/.test(text));

for (const { language, locale, dialect, text } of runs) {
  describe(`workspace in the browser: two-factor sign-in and the audit log (${language}, ${dialect})`, needsBrowser, () => {
    let workspace: Workspace;

    before(async () => {
      workspace = await openWorkspace({ dialect, locale, signIn: false });
      workspace.page.setDefaultTimeout(PAGE_TIMEOUT_MS);
    });
    after(() => workspace?.close());

    const signInWithPassword = async () => {
      const { page } = workspace;
      await page.getByLabel(text['signIn.login']).fill(COORDINATOR.login);
      await page.getByLabel(text['signIn.password'], { exact: true }).fill(COORDINATOR.password);
      await page.getByRole('button', { name: text['signIn.submit'] }).click();
    };

    test('turns TOTP on with the QR code and one code, then signs in only with a code', async () => {
      const { page, server } = workspace;
      await page.goto('/');
      await signInWithPassword();
      const nav = page.getByRole('navigation', { name: text['app.nav'] });
      await nav.waitFor();
      await nav.getByRole('link', { name: text['tab.settings'] }).click();

      const section = page.getByRole('region', { name: text['twoFactor.title'] });
      await section.getByText(text['twoFactor.off']).waitFor();
      await section.getByRole('button', { name: text['twoFactor.turnOn'] }).click();
      await section.getByRole('img', { name: text['twoFactor.qr'] }).waitFor();
      const secret = (await section.locator('.totp-secret').textContent())!.trim();
      assert.match(secret, /^[A-Z2-7]{32}$/);
      assert.deepEqual(foreignText(await readText(page), language), []);
      await section.getByLabel(text['twoFactor.code']).fill(codeOf(secret, 0));
      await section.getByRole('button', { name: text['twoFactor.confirm'] }).click();
      const codes = section.getByRole('list', { name: text['twoFactor.recoveryTitle'] }).getByRole('listitem');
      await codes.first().waitFor();
      assert.equal(await codes.count(), 10);
      await workspace.screenshot(`two-factor-recovery-codes-${language}`);
      await section.getByRole('button', { name: text['twoFactor.done'] }).click();
      await section.getByText(text['twoFactor.on'].replace('{count}', '10')).waitFor();

      await page.getByRole('button', { name: text['app.signOut'] }).click();
      await signInWithPassword();
      // The password alone opens nothing: the form asks for the code.
      const code = page.getByLabel(text['signIn.code']);
      await code.waitFor();
      assert.equal(await nav.count(), 0);
      assert.deepEqual(foreignText(await readText(page), language), []);
      await code.fill('000000');
      await page.getByRole('button', { name: text['signIn.submit'] }).click();
      await page.getByRole('alert').filter({ hasText: text['signIn.codeWrong'] }).waitFor();
      // The next step's code: later than the one that turned it on, so not refused as used.
      await page.getByLabel(text['signIn.code']).fill(codeOf(secret, 1));
      await page.getByRole('button', { name: text['signIn.submit'] }).click();
      await nav.waitFor();

      const signIns = await server.api.get('/v6/api/accountManagement/auditLog?kind=session');
      assert.deepEqual(
        signIns.body.map((entry: any) => entry.kind),
        ['session.signIn', 'session.signInFailed', 'session.signIn'],
      );
      assert.deepEqual(workspace.pageErrors, []);
    });

    test('the audit log page shows the entries newest first, filters them and exports the CSV', async () => {
      const { page, server } = workspace;
      await createEmployee(server.api, { name: 'Pavel Sidorov' });
      await page.goto('/#/settings');
      await page.getByRole('link', { name: text['audit.open'] }).click();
      const table = page.locator('table.audit-table');
      await table.waitFor();
      const firstRow = table.locator('tbody tr').first();
      await firstRow.getByText(`${text['audit.kind.employee']}: ${text['audit.verb.create']}`).waitFor();
      await table.getByText(`${text['audit.kind.twoFactor']}: ${text['audit.verb.enable']}`).waitFor();
      assert.deepEqual(foreignText(await readText(page), language), []);
      await workspace.screenshot(`audit-log-${language}`);

      await page.getByLabel(text['audit.kind'], { exact: true }).selectOption('session');
      await table.locator('tbody tr').nth(2).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('table.audit-table tbody tr').length === 3);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: text['audit.export'] }).click()]);
      const csv = await readFile((await download.path())!, 'utf8');
      const lines = csv.replace(/^\ufeff/, '').trim().split('\r\n');
      assert.equal(lines[0], 'auditID,date,actorKind,actorID,actorName,address,kind,objectID,changes');
      assert.equal(lines.length, 4, 'the three filtered sign-in entries');
      assert.ok(lines.slice(1).every((line) => line.includes(',session.')));
      assert.ok(!csv.includes(COORDINATOR.password));
      await page.getByRole('status').filter({ hasText: text['audit.exported'].replace('{count}', '3') }).waitFor();
      assert.deepEqual(workspace.pageErrors, []);
    });
  });
}

declare const document: { querySelectorAll(selector: string): { length: number } };
