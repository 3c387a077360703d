/**
 * `npm run bench:map`: the workspace's live map in Chromium with 2,000 employees each moving every
 * 5 s, and how smooth it stays: the time between animation frames (requestAnimationFrame deltas,
 * Chromium's frame cadence) and the long tasks of its performance timeline. The reference, in the
 * same run, is the same page with the same 2,000 employees standing still. Prints; asserts nothing.
 *
 *   npm run bench:map                      # 2,000 employees, 20 s still, 30 s moving
 *   npm run bench:map -- --employees 500 --seconds 20
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { buildApp, createServices } from '../src/app.js';
import { Cleanup, FixGenerator, flagValue, fmt, LOCATIONS, pause, percentile, ratio, runBench, sqliteStore, SUBSCRIBERS, tempDir } from './common.js';

const EMPLOYEES = flagValue('--employees', 2000);
const SECONDS = flagValue('--seconds', 30);
/** Each employee reports every this often; the fleet's reports are spread over it in slices, as phones' are. */
const REPORT_EVERY_MS = 5_000;
const SLICES = 10;
const LOGIN = { login: 'bench', password: 'bench password for the map' };
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path): path is string => Boolean(path && existsSync(path)));

interface Frames {
  deltas: number[];
  longTasks: number[];
}

/** Starts collecting frame deltas and long tasks in the page. */
const START = `(() => {
  const state = (window.__bench = { deltas: [], longTasks: [], running: true });
  let last = performance.now();
  const tick = (now) => {
    state.deltas.push(now - last);
    last = now;
    if (state.running) requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
  state.observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => state.longTasks.push(e.duration)));
  state.observer.observe({ type: 'longtask' });
})()`;
const STOP = `(() => {
  const state = window.__bench;
  state.running = false;
  state.observer.disconnect();
  return { deltas: state.deltas, longTasks: state.longTasks };
})()`;

async function measure(page: Page, seconds: number, during: (stop: () => boolean) => Promise<void>): Promise<Frames> {
  await page.evaluate(START);
  const endAt = Date.now() + seconds * 1000;
  await during(() => Date.now() >= endAt);
  while (Date.now() < endAt) await pause(100);
  return page.evaluate<Frames>(STOP);
}

function report(name: string, frames: Frames): number {
  const sorted = [...frames.deltas].sort((a, b) => a - b);
  const p95 = percentile(sorted, 0.95);
  const over = sorted.filter((d) => d > 50).length;
  const longTotal = frames.longTasks.reduce((sum, d) => sum + d, 0);
  process.stdout.write(
    `${name.padEnd(9)} ${fmt(sorted.length).padStart(6)} frames  p50 ${percentile(sorted, 0.5).toFixed(1).padStart(5)} ms  p95 ${p95.toFixed(1).padStart(5)} ms  p99 ${percentile(sorted, 0.99).toFixed(1).padStart(6)} ms  max ${sorted.at(-1)!.toFixed(0).padStart(5)} ms  over 50 ms: ${over}  long tasks: ${frames.longTasks.length} (${fmt(longTotal)} ms)\n`,
  );
  return p95;
}

runBench('bench:map', async () => {
  if (!CHROMIUM) throw new Error('Chromium not found (apt-get install chromium, or CHROMIUM_PATH)');
  const cleanup = new Cleanup();
  try {
    const database = await sqliteStore(tempDir(cleanup), 'map.db', cleanup);
    const services = createServices(database);
    const app = await buildApp({ database, services, logger: false, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 16 * 1024 * 1024, MAP_TILE_URL: 'none' } });
    cleanup.add(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { account, token } = await services.accounts.createAccount({ name: 'Bench account', timeZone: 'UTC' });
    await services.accounts.createUser(account.id, LOGIN.login, LOGIN.password);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<{ subscriberID: number }>;
    };

    const ids: number[] = [];
    for (let i = 0; i < EMPLOYEES; i += 16) {
      const made = await Promise.all(Array.from({ length: Math.min(16, EMPLOYEES - i) }, (_, j) => post(SUBSCRIBERS, { name: `Driver ${i + j + 1}` })));
      ids.push(...made.map((e) => e.subscriberID));
    }
    // Dated from a minute ago: the fleet is on line and moving, as a dispatcher's map is by day.
    const fixes = new FixGenerator(ids, Date.now() - 60_000);
    await post(LOCATIONS, fixes.next(REPORT_EVERY_MS));

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
    cleanup.add(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl });
    await page.goto('/#/map');
    await page.getByLabel('Login').fill(LOGIN.login);
    await page.getByLabel('Password').fill(LOGIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The count as the English workspace writes it ("2,000 employees").
    await page.getByText(new RegExp(`^${new Intl.NumberFormat('en-GB').format(EMPLOYEES)} employees`)).waitFor({ timeout: 120_000 });
    await pause(3000);

    process.stdout.write(`bench:map: the live map in Chromium (1280×900, software rendering), ${fmt(EMPLOYEES)} employees, each reporting every ${REPORT_EVERY_MS / 1000} s in ${SLICES} slices\n`);
    process.stdout.write('frame time = time between animation frames (requestAnimationFrame); long tasks from the performance timeline\n\n');
    const still = report('still', await measure(page, Math.max(10, Math.round(SECONDS * 0.67)), async () => {}));

    // The fleet moves: a slice of the employees every REPORT_EVERY_MS / SLICES, each employee once per period.
    const moving = report(
      'moving',
      await measure(page, SECONDS, async (done) => {
        const sliceSize = Math.ceil(ids.length / SLICES);
        let round = fixes.next(REPORT_EVERY_MS);
        for (let slice = 0; !done(); slice = (slice + 1) % SLICES) {
          if (slice === 0 && round.length === 0) round = fixes.next(REPORT_EVERY_MS);
          const started = Date.now();
          await post(LOCATIONS, round.splice(0, sliceSize));
          await pause(Math.max(0, REPORT_EVERY_MS / SLICES - (Date.now() - started)));
        }
      }),
    );
    process.stdout.write(`\nmoving/still p95: ${ratio(moving, still)}; moving p95 ${moving.toFixed(1)} ms ${moving < 50 ? '<' : '≥'} 50 ms\n`);
  } finally {
    await cleanup.run();
  }
});
