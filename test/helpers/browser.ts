import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Dialect } from '../../src/store/database.js';
import type { AppConfig, ServiceOptions } from '../../src/app.js';
import { startServer, type TestServer } from './server.js';

/**
 * Browser tests drive Debian's Chromium through playwright-core (no downloaded browsers).
 * CHROMIUM_PATH overrides where it is; without one the browser tests are skipped and say so.
 */
export const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => Boolean(path && existsSync(path)),
);
if (!chromiumPath) process.stdout.write('# Chromium not found (apt-get install chromium): the browser tests are SKIPPED\n');

/** Options for `describe`/`test` of browser suites: skipped, visibly, without Chromium. */
export const needsBrowser = chromiumPath ? {} : { skip: 'Chromium is not installed' };

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');

export const COORDINATOR = { login: 'coordinator', password: 'correct horse battery staple' };

/** Fills in the sign-in form and submits it; waits for the workspace unless `expectWorkspace` is false. */
export async function signIn(page: Page, password = COORDINATOR.password, expectWorkspace = true): Promise<void> {
  await page.getByLabel('Login').fill(COORDINATOR.login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (expectWorkspace) await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
}

export interface Workspace {
  server: TestServer;
  browser: Browser;
  page: Page;
  /** Uncaught errors of the page; a test ends by checking there are none. */
  pageErrors: string[];
  /** Saves a screenshot of the page as test-output/screenshots/<name>.png. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A server with a coordinator user, Chromium, and a page signed in to the workspace. Tiles are
 * off (`MAP_TILE_URL=none`): tests run offline, and the map must work without them.
 */
export async function openWorkspace(
  options: {
    dialect?: Dialect;
    timeZone?: string;
    viewport?: { width: number; height: number };
    signIn?: boolean;
    config?: Partial<AppConfig>;
    /** The server's clock, frozen (it moves with `server.setNow`). */
    now?: number;
    delivery?: ServiceOptions['delivery'];
    /** Service options beyond the delivery's (a geocoder, a router). */
    services?: ServiceOptions;
    /** The browser's language (`ru-RU`, `en-US`) and time zone; Chromium's own when absent. */
    locale?: string;
    browserTimeZone?: string;
    /** Leave the account on the first start's zone and language, so the workspace asks for them. */
    firstSignIn?: boolean;
  } = {},
): Promise<Workspace> {
  const server = await startServer(options.dialect ?? 'sqlite', {
    timeZone: options.timeZone ?? 'UTC',
    now: options.now,
    delivery: options.delivery,
    services: options.services,
    // WORKSPACE_DIR: a build of the workspace other than web/dist (parallel work builds its own).
    config: { MAP_TILE_URL: 'none', ...(process.env.WORKSPACE_DIR ? { workspaceDir: process.env.WORKSPACE_DIR } : {}), ...options.config },
  });
  await server.services.accounts.createUser(server.account.id, COORDINATOR.login, COORDINATOR.password);
  if (!options.firstSignIn) await server.services.accounts.changeProfile(server.account.id, {});
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    baseURL: server.baseUrl,
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.browserTimeZone ? { timezoneId: options.browserTimeZone } : {}),
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  mkdirSync(SCREENSHOTS, { recursive: true });
  if ((options.signIn ?? true) && !options.locale?.startsWith('ru')) {
    await page.goto('/');
    await signIn(page);
  }
  return {
    server,
    browser,
    page,
    pageErrors,
    screenshot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
