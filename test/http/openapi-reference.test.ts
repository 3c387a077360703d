import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumPath, needsBrowser, SCREENSHOTS } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The API reference at /v6/docs is a page this server serves whole: the renderer's script comes
 * from the server, the document from /v6/openapi.json, and a reader offline (or behind a firewall
 * that lets nothing out) sees the same page.
 */
describe('the API reference page', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server.close());

  it('answers HTML whose scripts and styles all come from this server', async () => {
    const page = await fetch(`${server.baseUrl}/v6/docs/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length > 0, 'the page loads a renderer');
    for (const asset of assets) {
      const url = new URL(asset, `${server.baseUrl}/v6/docs/`);
      assert.equal(url.origin, server.baseUrl, `${asset} is served by this server`);
      const response = await fetch(url);
      assert.equal(response.status, 200, `${asset} answers 200`);
      assert.ok((await response.arrayBuffer()).byteLength > 1000, `${asset} has content`);
    }
    const documentUrl = /"url":\s*"([^"]+)"/.exec(html)?.[1];
    assert.ok(documentUrl, 'the page names the document it renders');
    assert.equal(new URL(documentUrl, `${server.baseUrl}/v6/docs/`).href, `${server.baseUrl}/v6/openapi.json`);
    // Without the trailing slash the relative addresses would resolve elsewhere: it redirects.
    const bare = await fetch(`${server.baseUrl}/v6/docs`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/v6/docs/');
  });

  it('sends its large script compressed to a browser that accepts it, and whole to one that does not', async () => {
    const html = await (await fetch(`${server.baseUrl}/v6/docs/`)).text();
    const script = new URL(/<script\b[^>]*\bsrc="([^"]+)"/.exec(html)![1]!, `${server.baseUrl}/v6/docs/`);
    const whole = await rawGet(script, 'identity');
    assert.equal(whole.headers['content-encoding'], undefined);
    assert.ok(whole.body.length > 2_000_000, `the script is ${whole.body.length} bytes`);
    for (const [accepted, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const compressed = await rawGet(script, accepted);
      assert.equal(compressed.headers['content-encoding'], encoding);
      assert.ok(compressed.body.length < whole.body.length / 3, `${encoding}: ${compressed.body.length} bytes`);
      assert.ok(decode(compressed.body).equals(whole.body), `${encoding} decodes to the same script`);
    }
  });

  it('is not itself an operation of the document', async () => {
    const document = (await (await fetch(`${server.baseUrl}/v6/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith('/v6/docs') || path === '/v6/openapi.json'), []);
  });

  it('renders the operations in a browser without a request beyond this server', needsBrowser, async () => {
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const elsewhere: string[] = [];
      const errors: string[] = [];
      // Anything not addressed to this server is recorded and refused, as a machine offline would.
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(server.baseUrl) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.baseUrl}/v6/docs/`);
      await page.getByRole('heading', { name: 'Lokator v6 API' }).waitFor({ timeout: 30_000 });
      await page.getByText('Lists and paging').first().waitFor();
      // An operation as a reader finds it: its group, its summary, its description and its example answer.
      await page.getByText('Geozones', { exact: true }).first().click();
      await page.getByText('One zone (route 9)').first().click();
      await page.getByRole('heading', { name: 'One zone (route 9)' }).waitFor();
      await page.getByText('The zone with its boundary and custom fields.').waitFor();
      await page.getByText('"Loading bays on the north side"').first().waitFor();
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'api-reference.png') });
      assert.deepEqual(elsewhere, []);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});

/** A GET whose body is returned as sent (fetch would decode it), with the given Accept-Encoding. */
function rawGet(url: URL, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}
