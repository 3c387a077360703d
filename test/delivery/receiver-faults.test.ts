import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../helpers/stores.js';
import { deliveryRows, enqueue, Receiver, startDeliveryServer, testLog, webhook, type Behaviour, type DeliveryServer, type Received } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

const PATHS = ['/a', '/b', '/c'];
const PER_PATH = 30;
const TIMEOUT_MS = 300;

/**
 * How the receiver treats attempt `n` (0-based) of event `seq`: most events meet one fault on
 * their first attempt, some two faults in a row, and every event gets through in the end.
 */
function faultFor(seq: number, n: number): Behaviour {
  if (seq % 7 === 6) return n === 0 ? { status: 500 } : n === 1 ? { reset: true } : { status: 204 };
  if (n > 0) return { status: 200 };
  switch (seq % 6) {
    case 1: return { status: 500 };
    case 2: return { reset: true };
    case 3: return { hang: true };
    case 4: return { slowBody: 100 };
    case 5: return { status: 503, delayMs: 50 };
    default: return { status: 200 };
  }
}

const seqOf = (r: Received) => (JSON.parse(r.body) as { seq: number }).seq;

for (const dialect of dialects) {
  describe(`receiver faults on ${dialect}`, () => {
    let server: DeliveryServer;
    let receiver: Receiver;
    const attemptsBySeq = new Map<string, number>();
    before(async () => {
      server = await startDeliveryServer(dialect, { retryScheduleMs: [50, 100], timeoutMs: TIMEOUT_MS });
      receiver = await new Receiver((request) => {
        const key = `${request.path}:${seqOf(request)}`;
        const n = attemptsBySeq.get(key) ?? 0;
        attemptsBySeq.set(key, n + 1);
        return faultFor(seqOf(request), n);
      }).start();
      await server.services.delivery.worker.start(testLog());
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    it('gets every event through 500s, resets, timeouts and slow bodies, in order per URL, with one webhook-id per event', async () => {
      // Events are written in small transactions, the three URLs interleaved, while the worker runs.
      for (let seq = 0; seq < PER_PATH; seq += 3) {
        const messages = [];
        for (let s = seq; s < seq + 3; s++) for (const path of PATHS) messages.push(webhook(server.account.id, `${receiver.url}${path}`, { seq: s, path }));
        await enqueue(server.services, server.database, messages);
      }
      const delivered = async () => (await deliveryRows(server.database)).every((row) => row.status !== 'pending');
      await until('every delivery to settle', delivered, 30_000);

      const rows = await deliveryRows(server.database);
      assert.equal(rows.length, PATHS.length * PER_PATH);
      assert.deepEqual(rows.filter((r) => r.status !== 'delivered').map((r) => [r.target, r.payload, r.last_error]), [], 'every event delivered');

      for (const path of PATHS) {
        const requests = receiver.at(path);
        const seqs = requests.map(seqOf);
        assert.deepEqual([...new Set(seqs)], Array.from({ length: PER_PATH }, (_, i) => i), `${path}: every event, in order`);
        for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! >= seqs[i - 1]!, `${path}: event ${seqs[i]} arrived after event ${seqs[i - 1]}`);
        for (let seq = 0; seq < PER_PATH; seq++) {
          const ids = new Set(requests.filter((r) => seqOf(r) === seq).map((r) => r.headers['webhook-id']));
          assert.equal(ids.size, 1, `${path} event ${seq}: one webhook-id on every attempt`);
        }
      }
      const allIds = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      assert.equal(allIds.size, PATHS.length * PER_PATH, 'each event its own webhook-id');

      // Each attempt the receiver saw is in the log, and nothing else.
      const attempts = await server.database.db.selectFrom('delivery_attempts').select(['delivery_id', 'status_code', 'error']).orderBy('id').execute();
      for (const row of rows) {
        const { seq, path } = JSON.parse(row.payload) as { seq: number; path: string };
        const mine = attempts.filter((a) => a.delivery_id === row.id);
        assert.equal(mine.length, attemptsBySeq.get(`${path}:${seq}`), `${path} event ${seq}: attempts recorded`);
        assert.equal(row.attempt_count, mine.length);
        assert.ok(mine.at(-1)!.status_code! >= 200 && mine.at(-1)!.status_code! < 300);
      }
    });

    it('records why each attempt failed', async () => {
      const { body } = await server.api.get('/v6/api/eventManagement/deliveries?count=1000');
      const first = (seq: number) => body.data.find((d: any) => d.payload.seq === seq && d.payload.path === '/a').attempts[0];
      assert.deepEqual({ ...first(1), attemptedAt: 0, durationMs: 0 }, { attemptedAt: 0, durationMs: 0, statusCode: 500, error: 'HTTP 500' });
      assert.equal(first(2).statusCode, null);
      assert.match(first(2).error, /connection (reset|closed)/);
      assert.equal(first(3).statusCode, null);
      assert.equal(first(3).error, `timeout: no answer within ${TIMEOUT_MS} ms`);
      assert.ok(first(3).durationMs >= TIMEOUT_MS - 5 && first(3).durationMs < TIMEOUT_MS + 200, `a timeout takes the timeout: ${first(3).durationMs}`);
      assert.equal(first(4).statusCode, 200, 'a slow body after a 200 is a success');
      assert.equal(first(5).statusCode, 503);
      const twice = body.data.find((d: any) => d.payload.seq === 6 && d.payload.path === '/b');
      assert.deepEqual(twice.attempts.map((a: any) => a.statusCode), [500, null, 204]);
    });
  });
}
