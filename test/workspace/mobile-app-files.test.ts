import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

const BUILT = process.env.WORKSPACE_DIR ?? join(import.meta.dirname, '..', '..', 'web', 'dist');
const built = existsSync(join(BUILT, 'm', 'index.html'));

/**
 * The employee's app as a phone installs it: the page at /m/, its manifest and icons, the
 * service worker at the scope's root, and the settings it reads before any key.
 */
describe('the employee app’s files', { skip: built ? false : 'web/dist has no app: npm run build:web' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { config: { workspaceDir: BUILT, MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' } });
  });
  after(() => server?.close());

  const get = (path: string) => fetch(`${server.baseUrl}${path}`);

  it('serves the page at /m/ with the manifest and the worker it names', async () => {
    const page = await get('/m/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    assert.match(html, /<link rel="manifest" href="\/m\/manifest.webmanifest"/);
    assert.match(html, /src="\/assets\/mobile-[\w-]+\.js"/);

    const manifest = (await (await get('/m/manifest.webmanifest')).json()) as any;
    assert.equal(manifest.start_url, '/m/');
    assert.equal(manifest.scope, '/m/');
    assert.equal(manifest.display, 'standalone');
    for (const icon of manifest.icons) {
      const answer = await get(icon.src);
      assert.equal(answer.status, 200, icon.src);
      assert.equal(answer.headers.get('content-type')?.split(';')[0], icon.type);
    }

    const worker = await get('/m/sw.js');
    assert.equal(worker.status, 200);
    assert.match(worker.headers.get('content-type') ?? '', /javascript/);
    // A worker that never revalidates would keep a phone on an old app.
    assert.equal(worker.headers.get('cache-control'), 'no-cache');
  });

  it('answers the map and the OsmAnd port without a key', async () => {
    const answer = await get('/workspace/api/app-settings');
    assert.equal(answer.status, 200);
    const body = (await answer.json()) as any;
    assert.deepEqual(body.map.tileUrl, 'https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    assert.equal(typeof body.osmandPort, 'number');
  });
});
