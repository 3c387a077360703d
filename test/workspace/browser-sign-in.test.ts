import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Route } from 'playwright-core';
import { COORDINATOR, needsBrowser, openWorkspace, signIn, type Workspace } from '../helpers/browser.js';

describe('workspace in the browser: sign-in and the shell', needsBrowser, () => {
  let workspace: Workspace;
  before(async () => {
    workspace = await openWorkspace({ signIn: false });
  });
  after(() => workspace?.close());

  test('when the server cannot be reached at load, the page says so and tries again on request', async () => {
    const { page } = workspace;
    let failing = true;
    await page.route('**/workspace/api/session', (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'proxy: upstream down' }) : route.fallback(),
    );
    await page.goto('/');
    await page.getByRole('alert').waitFor();
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.unroute('**/workspace/api/session');
    assert.deepEqual(workspace.pageErrors, []);
  });

  test('a wrong password is shown; the right one opens the workspace with its tabs', async () => {
    const { page } = workspace;
    const answer = await page.goto('/');
    assert.match(answer?.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    assert.equal(answer?.headers()['cache-control'], 'no-cache', 'the page is always revalidated');
    const script = await page.locator('script[type=module]').getAttribute('src');
    const asset = await fetch(new URL(script!, workspace.server.baseUrl));
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable', 'hashed assets are cached for good');
    await page.getByLabel('Login').fill(COORDINATOR.login);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong login or password.' }).waitFor();
    await workspace.screenshot('sign-in-refused');

    await page.getByLabel('Password').fill(COORDINATOR.password);
    await page.keyboard.press('Enter');
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    for (const tab of ['Map', 'Employees', 'Tasks', 'Map objects', 'Events', 'Zones', 'Tracks', 'Reports', 'Deliveries', 'Settings']) {
      await nav.getByRole('link', { name: tab, exact: true }).waitFor();
    }
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'lokator_session');
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Strict');
    assert.equal(await page.evaluate('document.cookie'), '', 'the session cookie is not readable by scripts');
    await workspace.screenshot('signed-in');
  });

  test('a reload keeps the session; signing out returns to the sign-in page', async () => {
    const { page } = workspace;
    await page.reload();
    await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.deepEqual(workspace.pageErrors, []);
  });

  test('a sign-out the server did not take is said, and the workspace stays open', async () => {
    const { page } = workspace;
    await signIn(page);
    const refuse = (route: Route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'down' }) : route.fallback();
    await page.route('**/workspace/api/session', refuse);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('alert').filter({ hasText: 'not signed out' }).waitFor();
    assert.ok(await page.getByRole('navigation', { name: 'Workspace' }).isVisible());
    await page.unroute('**/workspace/api/session', refuse);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.deepEqual(workspace.pageErrors, []);
  });

  test('a coordinator changes their password in Settings and signs in with the new one', async () => {
    const { page } = workspace;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Settings' }).click();
    const newPassword = 'a brand new long password';
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('#current-password-error').filter({ hasText: 'is not the current password' }).waitFor();
    assert.equal(await page.getByLabel('Current password').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('Current password').fill(COORDINATOR.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    await workspace.screenshot('settings-password-changed');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, COORDINATOR.password, false);
    await page.getByRole('alert').filter({ hasText: 'Wrong login or password.' }).waitFor();
    await signIn(page, newPassword);
    assert.deepEqual(workspace.pageErrors, []);
  });
});
