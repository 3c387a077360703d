import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../helpers/stores.js';
import { enqueue, Receiver, startDeliveryServer, testLog, webhook, type DeliveryServer } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

const LOG = '/v6/api/eventManagement/deliveries';
const RULES = '/v6/api/eventManagement/events';
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+00:00$/;

for (const dialect of dialects) {
  describe(`deliveries log on ${dialect}`, () => {
    let server: DeliveryServer;
    let receiver: Receiver;
    let downIsUp = false;
    let trips: number;
    let stops: number;
    const settled = async () => (await server.api.get(`${LOG}?status=pending`)).body.data.length === 0;

    before(async () => {
      server = await startDeliveryServer(dialect, { retryScheduleMs: [50], timeoutMs: 500 });
      receiver = await new Receiver((request) => {
        if (request.path === '/down') return downIsUp ? { status: 200 } : { status: 500 };
        if (request.path === '/hang') return { hang: true };
        return { status: 200 };
      }).start();
      trips = (await server.api.post(RULES, { name: 'Trips', kind: 11, sendToApi: true, apiUrl: `${receiver.url}/ok` })).body.eventID;
      stops = (await server.api.post(RULES, { name: 'Stops', kind: 3, parameters: { minStopMinutes: 5 }, sendToApi: true, apiUrl: `${receiver.url}/down` })).body.eventID;
      await server.services.delivery.worker.start(testLog());
      const id = server.account.id;
      for (const n of [1, 2, 3]) await enqueue(server.services, server.database, [webhook(id, `${receiver.url}/ok`, { n }, trips)]);
      await enqueue(server.services, server.database, [webhook(id, `${receiver.url}/down`, { n: 4 }, stops)]);
      await until('the deliveries to settle', settled);
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    it('lists deliveries newest first, each with its attempts', async () => {
      const { status, body } = await server.api.get(LOG);
      assert.equal(status, 200);
      assert.deepEqual(body.data.map((d: any) => d.payload.n), [4, 3, 2, 1]);
      const ok = body.data[3];
      assert.deepEqual(Object.keys(ok).sort(), [
        'attemptCount', 'attempts', 'channel', 'createdAt', 'deliveryID', 'eventID', 'finishedAt', 'lastError', 'lastStatusCode',
        'messageID', 'nextAttemptAt', 'payload', 'status', 'target',
      ]);
      assert.equal(ok.status, 'delivered');
      assert.equal(ok.eventID, trips);
      assert.equal(ok.channel, 'webhook');
      assert.equal(ok.target, `${receiver.url}/ok`);
      assert.equal(ok.messageID, receiver.at('/ok').find((r) => JSON.parse(r.body).n === 1)!.headers['webhook-id']);
      assert.match(ok.createdAt, DATE_TIME);
      assert.match(ok.finishedAt, DATE_TIME);
      assert.equal(ok.nextAttemptAt, null);
      assert.equal(ok.attemptCount, 1);
      assert.equal(ok.attempts.length, 1);
      assert.equal(ok.attempts[0].statusCode, 200);
      assert.equal(ok.attempts[0].error, null);
      assert.match(ok.attempts[0].attemptedAt, DATE_TIME);
      assert.ok(Number.isInteger(ok.attempts[0].durationMs));

      const failed = body.data[0];
      assert.equal(failed.status, 'failed', 'kept after the last retry');
      assert.equal(failed.attemptCount, 2);
      assert.deepEqual(failed.attempts.map((a: any) => [a.statusCode, a.error]), [[500, 'HTTP 500'], [500, 'HTTP 500']]);
      assert.equal(failed.lastStatusCode, 500);
      assert.equal(failed.lastError, 'HTTP 500');

      const one = await server.api.get(`${LOG}/${failed.deliveryID}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, failed);
    });

    it('filters by status, rule and period, and pages by count/offset or lastDeliveryID', async () => {
      const ids = async (query: string) => (await server.api.get(`${LOG}?${query}`)).body.data.map((d: any) => d.payload.n);
      assert.deepEqual(await ids('status=failed'), [4]);
      assert.deepEqual(await ids('status=delivered'), [3, 2, 1]);
      assert.deepEqual(await ids(`eventID=${stops}`), [4]);
      assert.deepEqual(await ids(`eventID=${trips}&status=failed`), []);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
      assert.deepEqual(await ids(`dateFrom=${tomorrow}&dateTo=${later}`), []);
      assert.deepEqual(await ids(`dateFrom=2020-01-01T00:00:00Z&dateTo=2020-01-02T00:00:00Z`), []);
      assert.deepEqual(await ids(`dateFrom=2020-01-01T00:00:00Z&dateTo=${tomorrow}`), [4, 3, 2, 1]);
      assert.deepEqual(await ids('count=2'), [4, 3]);
      assert.deepEqual(await ids('count=2&offset=2'), [2, 1]);
      const all = (await server.api.get(LOG)).body.data;
      assert.deepEqual(await ids(`lastDeliveryID=${all[1].deliveryID}`), [2, 1]);
    });

    it('resends a failed delivery with the same webhook-id, and a delivered one', async () => {
      const failed = (await server.api.get(`${LOG}?status=failed`)).body.data[0];
      downIsUp = true;
      const resent = await server.api.post(`${LOG}/${failed.deliveryID}/resend`);
      assert.equal(resent.status, 202, resent.text);
      assert.equal(resent.body.status, 'pending');
      assert.equal(resent.body.messageID, failed.messageID);
      assert.equal(resent.body.attemptCount, 0);
      assert.equal(resent.body.attempts.length, 2, 'earlier attempts stay in the log');
      await until('the resend', settled);
      const after = (await server.api.get(`${LOG}?eventID=${stops}`)).body.data[0];
      assert.equal(after.status, 'delivered');
      assert.deepEqual(after.attempts.map((a: any) => a.statusCode), [500, 500, 200]);
      assert.deepEqual(new Set(receiver.at('/down').map((r) => r.headers['webhook-id'])), new Set([failed.messageID]));

      const delivered = (await server.api.get(`${LOG}?eventID=${trips}`)).body.data[0];
      assert.equal((await server.api.post(`${LOG}/${delivered.deliveryID}/resend`)).status, 202);
      await until('the second resend', settled);
      const copies = receiver.at('/ok').filter((r) => r.headers['webhook-id'] === delivered.messageID);
      assert.equal(copies.length, 2, 'sent again, same id');
      assert.equal(copies[0]!.body, copies[1]!.body);
    });

    it('refuses to resend a pending delivery (409), and another account’s or an unknown one (404, code 1015)', async () => {
      await enqueue(server.services, server.database, [webhook(server.account.id, `${receiver.url}/hang`, { n: 5 })]);
      const pending = (await server.api.get(`${LOG}?status=pending`)).body.data[0];
      const conflict = await server.api.post(`${LOG}/${pending.deliveryID}/resend`);
      assert.equal(conflict.status, 409);
      assert.equal(conflict.body.code, 1008);

      const stranger = await server.services.accounts.createAccount({ name: 'Stranger', timeZone: 'UTC' });
      const theirs = server.api.withToken(stranger.token);
      assert.deepEqual((await theirs.get(LOG)).body, { data: [] });
      for (const r of [
        await theirs.post(`${LOG}/${pending.deliveryID}/resend`),
        await server.api.post(`${LOG}/987654321/resend`),
        await theirs.get(`${LOG}/${pending.deliveryID}`),
        await server.api.get(`${LOG}/987654321`),
      ]) {
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 1015);
        assert.equal(r.body.description, 'DELIVERY_NOT_FOUND');
      }
    });

    it('checks its parameters', async () => {
      const cases: [string, number, number][] = [
        ['status=lost', 400, 2],
        ['eventID=x', 400, 2],
        ['count=1001', 400, 67],
        ['count=0', 400, 2],
        ['offset=-1', 400, 2],
        ['lastDeliveryID=0', 400, 2],
        ['dateFrom=yesterday', 400, 2],
        ['dateFrom=2026-01-02T00:00:00Z&dateTo=2026-01-01T00:00:00Z', 400, 2],
        ['dateFrom=2026-01-01T00:00:00Z&dateTo=2026-01-02T00:00:00', 400, 225],
      ];
      for (const [query, status, code] of cases) {
        const r = await server.api.get(`${LOG}?${query}`);
        assert.equal(r.status, status, `${query}: ${r.text}`);
        assert.equal(r.body.code, code, `${query}: ${r.text}`);
      }
      assert.equal((await server.api.post(`${LOG}/abc/resend`)).status, 400);
      assert.equal((await server.api.get(`${LOG}/abc`)).status, 400);
      assert.equal((await server.api.withToken(null).get(LOG)).status, 401);
    });
  });
}
