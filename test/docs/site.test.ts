import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { builtDocsDir, docsSite } from '../../src/http/docs-site.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Lokator serves the documentation site at /docs/ once `npm run build:docs` has built it (npm test
 * does), beside the API reference at /v6/docs; without the build, /docs/ is the API's 404.
 */

const built = builtDocsDir();

describe('the documentation site at /docs/', { skip: built ? false : 'not built (npm run build:docs)' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server?.close());

  it('answers its home, with the README and a page per reader, without a token', async () => {
    const home = await server.api.withToken(null).get('/docs/');
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(home.text, /<title>Lokator's documentation \| Lokator<\/title>/);
    assert.match(home.text, /A self-hosted server for tracking field employees and vehicles/, "the README's first lines");
    for (const page of ['coordinators/workspace.html', 'integrators/api.html', 'operators/configuration.html', 'developers/architecture.html']) {
      assert.match(home.text, new RegExp(`href="/docs/${page}"|href="\\./${page}"`), page);
    }
  });

  it('answers each page and its assets, and sends /docs to /docs/', async () => {
    const anonymous = server.api.withToken(null);
    const page = await anonymous.get('/docs/integrators/webhooks.html');
    assert.equal(page.status, 200);
    assert.match(page.text, /Delivery of events/);
    const stylesheet = /href="(\/docs\/assets\/[^"]+\.css)"/.exec(page.text)?.[1];
    assert.ok(stylesheet, 'the page links its stylesheet');
    const css = await anonymous.get(stylesheet);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('cache-control') ?? '', /immutable/);
    assert.match(css.headers.get('content-encoding') ?? '', /^(br|gzip)$/, 'sent compressed, as the build wrote it');
    assert.equal((await anonymous.get(`${stylesheet}.br`)).status, 404, 'the compressed copy has no address of its own');
    const bare = await fetch(`${server.baseUrl}/docs`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/docs/');
    assert.equal((await anonymous.get('/docs/no-such-page.html')).status, 404);
  });

  it('links to the API reference, which stays at /v6/docs', async () => {
    const anonymous = server.api.withToken(null);
    const home = await anonymous.get('/docs/');
    assert.match(home.text, /href="\/docs\/api-reference\.html"/);
    const link = await anonymous.get('/docs/api-reference.html');
    assert.equal(link.status, 200);
    assert.match(link.text, /url=\.\.\/v6\/docs"/, 'it sends the browser on to /v6/docs');
    const reference = await fetch(`${server.baseUrl}/v6/docs`, { redirect: 'manual' });
    assert.ok(reference.status === 200 || (reference.status >= 300 && reference.status < 400), `GET /v6/docs: ${reference.status}`);
  });
});

describe('without a built site', () => {
  it('serves nothing at /docs/', async () => {
    const app = Fastify();
    await app.register(docsSite(null));
    assert.equal((await app.inject('/docs/')).statusCode, 404);
    await app.close();
  });
});
