import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

function assertEnvelope(body: any, status: number, code: number, description: string) {
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(body.description, description);
  assert.equal(typeof body.message, 'string');
}

for (const dialect of dialects) {
  describe(`wire conventions on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('answers 401 code 1 with WWW-Authenticate for missing, malformed and unknown tokens', async () => {
      const cases: [string, Record<string, string>][] = [
        ['missing', {}],
        ['not bearer', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
        ['empty bearer', { authorization: 'Bearer ' }],
        ['unknown', { authorization: 'Bearer lk_not_a_real_token' }],
        ['SQL-looking', { authorization: "Bearer ' OR 1=1 --" }],
      ];
      for (const [name, headers] of cases) {
        const r = await server.api.withToken(null).get(LOCATIONS, headers);
        assert.equal(r.status, 401, name);
        assertEnvelope(r.body, 401, 1, 'USER_UNAUTHORIZED');
        assert.equal(r.headers.get('www-authenticate'), 'Bearer', name);
      }
    });

    it('answers unknown routes with 404 code 1013 and wrong methods with 405 code 1009 and Allow', async () => {
      const unknown = await server.api.get('/v6/api/nothingHere');
      assert.equal(unknown.status, 404);
      assertEnvelope(unknown.body, 404, 1013, 'ROUTE_NOT_FOUND');
      const outside = await server.api.get('/no/such/path');
      assert.equal(outside.status, 404);

      const wrong = await server.api.delete(LOCATIONS);
      assert.equal(wrong.status, 405);
      assertEnvelope(wrong.body, 405, 1009, 'METHOD_NOT_ALLOWED');
      assert.equal(wrong.headers.get('allow'), 'GET, POST');
      const wrongOne = await server.api.post(`${LOCATIONS}/5`, {});
      assert.equal(wrongOne.status, 405);
      assert.equal(wrongOne.headers.get('allow'), 'GET');
    });

    it('refuses non-JSON bodies with 415, oversized bodies with 413 and malformed JSON with 400', async () => {
      const text = await server.api.post(SUBSCRIBERS, 'name=Ivan', { 'content-type': 'text/plain' });
      assert.equal(text.status, 415);
      assertEnvelope(text.body, 415, 1011, 'UNSUPPORTED_MEDIA_TYPE');
      const form = await server.api.post(SUBSCRIBERS, 'name=Ivan', { 'content-type': 'application/x-www-form-urlencoded' });
      assert.equal(form.status, 415);

      const huge = await server.api.post(SUBSCRIBERS, { name: 'x', phone: 'y'.repeat(2 * 1024 * 1024) });
      assert.equal(huge.status, 413);
      assertEnvelope(huge.body, 413, 1010, 'PAYLOAD_TOO_LARGE');

      const broken = await server.api.post(SUBSCRIBERS, '{"name": "Ivan",', { 'content-type': 'application/json' });
      assert.equal(broken.status, 400);
      assertEnvelope(broken.body, 400, 2, 'BAD_REQUEST');

      const list = await server.api.get(SUBSCRIBERS);
      assert.deepEqual(list.body, [], 'nothing was created by the refused requests');
    });

    it('accepts ingestion batches far above the management body limit', async () => {
      const ivan = await createEmployee(server.api);
      const batch = Array.from({ length: 10_000 }, (_, i) => ({
        subscriberID: ivan,
        locationDate: new Date(Date.now() - 10_000_000 + i * 1000).toISOString(),
        latitude: 55.75 + i * 1e-5,
        longitude: 37.61,
        velocity: 30,
        angle: 180,
      }));
      const r = await server.api.post(LOCATIONS, batch);
      assert.equal(r.status, 201);
      assert.deepEqual(r.body, { accepted: 10_000 });
      const tooMany = await server.api.post(LOCATIONS, [...batch, batch[0]]);
      assert.equal(tooMany.status, 400);
    });

    it('replays the first answer for a repeated Idempotency-Key and creates nothing new', async () => {
      const key = { 'idempotency-key': 'create-olga-1' };
      const first = await server.api.post(SUBSCRIBERS, { name: 'Olga' }, key);
      assert.equal(first.status, 201);
      const again = await server.api.post(SUBSCRIBERS, { name: 'Olga' }, key);
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('location'), first.headers.get('location'));
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const olgas = (await server.api.get(SUBSCRIBERS)).body.filter((e: any) => e.name === 'Olga');
      assert.equal(olgas.length, 1);

      const different = await server.api.post(SUBSCRIBERS, { name: 'Not Olga' }, key);
      assert.equal(different.status, 400);
      assert.ok(different.body.validationErrors['Idempotency-Key']);

      // Keys are per account: the same key elsewhere is a new request.
      const stranger = await server.newAccount();
      const theirs = await stranger.api.post(SUBSCRIBERS, { name: 'Olga' }, key);
      assert.equal(theirs.status, 201);
      assert.notEqual(theirs.body.subscriberID, first.body.subscriberID);
    });

    it('lets a failed request with an Idempotency-Key run again', async () => {
      const key = { 'idempotency-key': 'bad-then-good' };
      const bad = await server.api.post(LOCATIONS, [{ subscriberID: 999_999, locationDate: '2026-01-01T00:00:00Z', latitude: 0, longitude: 0 }], key);
      assert.equal(bad.status, 404);
      const replay = await server.api.post(LOCATIONS, [{ subscriberID: 999_999, locationDate: '2026-01-01T00:00:00Z', latitude: 0, longitude: 0 }], key);
      assert.equal(replay.status, 404, 'a 4xx is an answer too, and is replayed');
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    });

    it('serves the OpenAPI document and the docs page', async () => {
      const doc = await server.api.withToken(null).get('/v6/openapi.json');
      assert.equal(doc.status, 200);
      assert.equal(doc.body.openapi, '3.1.0');
      assert.ok(doc.body.paths['/v6/api/globalPositioningManagement/locations'].get);
      assert.ok(doc.body.paths['/v6/api/subscriberManagement/subscribers/{subscriberID}'].patch);
      const docs = await server.api.withToken(null).get('/v6/docs/');
      assert.equal(docs.status, 200);
      assert.match(docs.text, /<title>Lokator v6 API<\/title>/);
    });

    it('reports health, readiness and Prometheus metrics', async () => {
      const anonymous = server.api.withToken(null);
      assert.equal((await anonymous.get('/health')).status, 200);
      assert.deepEqual((await anonymous.get('/ready')).body, { status: 'ready' });
      const metrics = await anonymous.get('/metrics');
      assert.equal(metrics.status, 200);
      assert.match(metrics.text, /lokator_fixes_ingested_total\{source="api"\} \d+/);
      assert.match(metrics.text, /lokator_http_request_duration_seconds_bucket/);
    });
  });

  describe(`internal errors on ${dialect}`, () => {
    it('answers 500 code 3 without a stack trace or SQL when the database is gone, and /ready says 503', async () => {
      const server = await startServer(dialect);
      try {
        await server.database.close();
        const r = await server.api.get(LOCATIONS);
        assert.equal(r.status, 500);
        assertEnvelope(r.body, 500, 3, 'INTERNAL_SERVER_ERROR');
        assert.doesNotMatch(r.text, /at .*\.(ts|js):\d+|SELECT|sqlite|pool/i);
        const ready = await server.api.get('/ready');
        assert.equal(ready.status, 503);
        assertEnvelope(ready.body, 503, 1014, 'SERVICE_UNAVAILABLE');
      } finally {
        await server.app.close();
      }
    });
  });
}
