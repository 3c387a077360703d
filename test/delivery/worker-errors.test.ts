import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { UnconfiguredChannel, type ChannelSender, type ClaimedDelivery, type SendOutcome } from '../../src/delivery/channel-sender.js';
import { createDeliveryMetrics } from '../../src/delivery/delivery-metrics.js';
import { DeliveryQueue } from '../../src/delivery/delivery-queue.js';
import { DeliveryWorker } from '../../src/delivery/delivery-worker.js';
import { Outbox, type Channel } from '../../src/delivery/outbox.js';
import { dialects } from '../helpers/stores.js';
import { deliveryRows, enqueue, Receiver, startDeliveryServer, webhook, type DeliveryServer } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

/** A log that keeps its lines, to see what was said at which level. */
function capturedLog() {
  const lines: { level: number; msg: string; err?: { stack?: string }; error?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/** Throws on its first call (a bug of ours), then answers as the webhook sender would. */
class BuggyOnce implements ChannelSender {
  calls = 0;
  constructor(private readonly inner: ChannelSender) {}
  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    if (this.calls++ === 0) throw new TypeError("Cannot read properties of undefined (reading 'signalID')");
    return this.inner.send(delivery);
  }
  async close(): Promise<void> {}
}

for (const dialect of dialects) {
  describe(`delivery worker errors on ${dialect}`, () => {
    let server: DeliveryServer;
    let receiver: Receiver;
    before(async () => {
      server = await startDeliveryServer(dialect, { retryScheduleMs: [30, 30], timeoutMs: 300 });
      receiver = await new Receiver((request) => {
        if (request.path === '/down') return { reset: true };
        if (request.path === '/gone') return (JSON.parse(request.body) as { n: number }).n === 1 ? { status: 410 } : { status: 200 };
        return { status: 200 };
      }).start();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    it('logs a receiver’s failures as expected and a bug as an error with its stack; neither loses the delivery', async () => {
      const { log, lines } = capturedLog();
      const webhookSender: ChannelSender = {
        send: (delivery) => fetch(delivery.target, { method: 'POST', body: delivery.payload }).then(
          (r) => ({ ok: r.ok, statusCode: r.status, error: r.ok ? null : `HTTP ${r.status}` }),
          () => ({ ok: false, statusCode: null, error: 'connection reset (ECONNRESET)' }),
        ),
        close: async () => {},
      };
      const buggy = new BuggyOnce(webhookSender);
      const off = new UnconfiguredChannel('not here');
      const senders: Record<Channel, ChannelSender> = { webhook: buggy, email: off, sms: off, messenger: off, messenger2: off };
      const { database, account } = server;
      // A worker of its own, with its own outbox: what is written there wakes it.
      const outbox = new Outbox(database);
      const queue = new DeliveryQueue(database);
      const worker = new DeliveryWorker({ database, outbox, queue, senders, metrics: createDeliveryMetrics(new Registry()), retryScheduleMs: [30, 30] });
      await worker.start(log);
      try {
        const messages = [webhook(account.id, `${receiver.url}/fine`, { n: 1 }), webhook(account.id, `${receiver.url}/down`, { n: 2 })];
        await database.transaction((tx) => outbox.enqueue(tx, messages));
        await until('both to settle', async () => (await deliveryRows(database)).every((r) => r.status !== 'pending'));
      } finally {
        await worker.stop();
      }
      const [fine, down] = await deliveryRows(database);
      assert.equal(fine!.status, 'delivered', 'retried after the bug');
      assert.equal(down!.status, 'failed');
      assert.equal(down!.attempt_count, 3);

      const errors = lines.filter((l) => l.level >= 50);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0]!.msg, 'delivery attempt failed with an unexpected error');
      assert.match(errors[0]!.err!.stack!, /TypeError: Cannot read properties of undefined/);
      const expected = lines.filter((l) => l.level < 50 && l.error === 'connection reset (ECONNRESET)');
      assert.deepEqual(expected.map((l) => [l.level, l.msg]), [
        [30, 'delivery attempt failed; will retry'],
        [30, 'delivery attempt failed; will retry'],
        [40, 'delivery failed for good'],
      ]);
      const attempts = await database.db.selectFrom('delivery_attempts').select(['delivery_id', 'error']).where('delivery_id', '=', fine!.id).orderBy('id').execute();
      assert.deepEqual(attempts.map((a) => a.error), ["internal error: Cannot read properties of undefined (reading 'signalID')", null]);
    });

    it('shows deliveries and attempt durations in /metrics', async () => {
      await server.services.delivery.worker.start(pino({ level: 'silent' }));
      await enqueue(server.services, server.database, [webhook(server.account.id, `${receiver.url}/metered`, { n: 3 })]);
      await until('the delivery', () => receiver.at('/metered').length === 1);
      await until('its record', async () => (await deliveryRows(server.database)).at(-1)!.status === 'delivered');
      const text = (await server.app.inject({ url: '/metrics' })).body;
      assert.match(text, /lokator_delivery_attempts_total\{channel="webhook",outcome="delivered"\} 1/);
      assert.match(text, /lokator_delivery_attempt_duration_seconds_count\{channel="webhook"\} 1/);
      assert.match(text, /lokator_delivery_first_attempt_delay_seconds_count\{channel="webhook"\} 1/);
    });

    it('sends the next delivery to a URL as soon as the one before it has failed for good', async () => {
      const url = `${receiver.url}/gone`;
      await enqueue(server.services, server.database, [webhook(server.account.id, url, { n: 1 }), webhook(server.account.id, url, { n: 2 })]);
      await until('the second', () => receiver.at('/gone').some((r) => r.body === '{"n":2}'));
      const arrivals = receiver.at('/gone').map((r) => [(JSON.parse(r.body) as { n: number }).n, r.at] as const);
      assert.deepEqual(arrivals.map(([n]) => n), [1, 1, 1, 2], 'three attempts, then the next one');
      assert.ok(arrivals[3]![1] - arrivals[2]![1] < 250, `no wait for a poll: ${arrivals[3]![1] - arrivals[2]![1]} ms`);
    });
  });
}
