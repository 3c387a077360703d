import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { ingest, REQUESTS } from './client-fixtures.js';

/**
 * "Locate now" as the HR client sends it: `POST subscriberRequests {"subscriberID": n}`, then
 * `GET subscribers/lastLocations`. Lokator's phones (OsmAnd HTTP) cannot be asked for a fix, so
 * the answer is the phone's fix of the last minute (0), or a code saying why there is none.
 */
const T0 = Date.parse('2026-11-23T12:00:00Z');

for (const dialect of dialects) {
  describe(`locate-now requests on ${dialect}`, () => {
    let server: TestServer;
    let phone: number;
    let silent: number;
    let disabled: number;

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      phone = await createEmployee(server.api, { name: 'With phone', deviceKey: 'phone-key-01' });
      silent = await createEmployee(server.api, { name: 'Never sent a fix', deviceKey: 'phone-key-02' });
      disabled = await createEmployee(server.api, { name: 'Detection off', isLocateEnabled: false });
      await ingest(server.api, [{ subscriberID: phone, locationDate: new Date(T0 - 10_000).toISOString(), latitude: 55.75, longitude: 37.61 }]);
    });
    after(() => server.close());

    const locate = (subscriberID: unknown) => server.api.post(REQUESTS, { subscriberID });

    it('locates an online phone from its fix of the last minute (0), the same fix lastLocations shows', async () => {
      const r = await locate(phone);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('location'), `${REQUESTS}/${r.body.requestID}`);
      const [last] = (await server.api.get(`${SUBSCRIBERS}/lastLocations?subscriberIDs=${phone}`)).body;
      assert.deepEqual(r.body, {
        requestID: r.body.requestID,
        subscriberID: phone,
        requestDate: '2026-11-23T15:00:00+03:00',
        resultCode: 0,
        resultDescription: 'SUCCESS',
        message: r.body.message,
        locationID: last.locationID,
      });
      assert.match(r.body.message, /OsmAnd/);
    });

    it('refuses a second request within the minute with 429 code 588 and Retry-After, and records it', async () => {
      server.setNow(T0 + 20_000);
      const again = await locate(phone);
      assert.equal(again.status, 429, again.text);
      assert.equal(again.body.code, 588);
      assert.equal(again.body.description, 'REQUESTED_TOO_OFTEN');
      assert.equal(again.headers.get('retry-after'), '40');
      const recorded = (await server.api.get(`${REQUESTS}?subscriberIDs=${phone}`)).body;
      assert.deepEqual(recorded.map((q: any) => q.resultCode), [588, 0], 'newest first');
    });

    it('says 585 when the phone’s latest fix is older than a minute: OsmAnd HTTP cannot be asked for one', async () => {
      server.setNow(T0 + 61_000);
      const r = await locate(phone);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.resultCode, 585);
      assert.equal(r.body.locationID, null);
      assert.match(r.body.message, /cannot be asked/);
    });

    it('says 5 for an offline phone and 906 when location detection is off', async () => {
      const offline = await locate(silent);
      assert.equal(offline.body.resultCode, 5);
      assert.equal(offline.body.resultDescription, 'SUBSCRIBER_OFFLINE');
      const off = await locate(disabled);
      assert.equal(off.body.resultCode, 906);
      const one = await server.api.get(`${REQUESTS}/${off.body.requestID}`);
      assert.deepEqual(one.body, off.body);
    });

    describe('refuses bad input with the envelope and records nothing', () => {
      const bodies: [string, unknown, Refusal][] = [
        ['no subscriberID', {}, { code: 52, field: 'subscriberID' }],
        ['a null subscriberID', { subscriberID: null }, { code: 52, field: 'subscriberID' }],
        ['a text subscriberID', { subscriberID: '1' }, { code: 2, field: 'subscriberID' }],
        ['a fraction', { subscriberID: 1.5 }, { code: 2, field: 'subscriberID' }],
        ['zero', { subscriberID: 0 }, { code: 2, field: 'subscriberID' }],
        ['an unknown employee', { subscriberID: 987654 }, { code: 12 }],
      ];
      for (const [label, body, expected] of bodies) {
        it(`${label}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(() => read(server.api, REQUESTS), () => server.api.post(REQUESTS, body), expected, label);
        });
      }
      const queries: [string, Refusal][] = [
        ['count=1001', { code: 67 }],
        ['count=0', { code: 2, field: 'count' }],
        ['offset=-1', { code: 2, field: 'offset' }],
        ['subscriberIDs[]=x', { code: 2, field: /^subscriberIDs/ }],
        ['dateFrom=soon', { code: 2, field: 'dateFrom' }],
      ];
      for (const [query, expected] of queries) {
        it(`GET ?${query}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(() => read(server.api, REQUESTS), () => server.api.get(`${REQUESTS}?${query}`), expected, query);
        });
      }
      it('GET of a bad id is code 2, of an unknown one 404 code 1022', async () => {
        await assertRefusedUnchanged(() => read(server.api, REQUESTS), () => server.api.get(`${REQUESTS}/x`), { code: 2 });
        await assertRefusedUnchanged(() => read(server.api, REQUESTS), () => server.api.get(`${REQUESTS}/987654`), { code: 1022 });
      });
    });

    it('keeps accounts apart: another account’s employee is 404 code 12, its requests 404 code 1022', async () => {
      const stranger = await server.newAccount();
      const mine = (await server.api.get(REQUESTS)).body[0];
      await assertRefusedUnchanged(() => read(server.api, REQUESTS), () => stranger.api.post(REQUESTS, { subscriberID: phone }), { code: 12 });
      await assertRefusedUnchanged(() => read(server.api, REQUESTS), () => stranger.api.get(`${REQUESTS}/${mine.requestID}`), { code: 1022 });
      assert.deepEqual((await stranger.api.get(REQUESTS)).body, []);
    });
  });
}
