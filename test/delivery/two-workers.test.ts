import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServices, type Services } from '../../src/app.js';
import { migrate, openDatabase, type Database } from '../../src/store/database.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';
import { enqueue, Receiver, testLog, webhook, type Received } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

const PATHS = Array.from({ length: 10 }, (_, i) => `/p${i}`);
const PER_PATH = 100;

/** Counts attempts a service set's worker made, from its own /metrics registry. */
async function attemptsOf(services: Services): Promise<number> {
  const metric = await services.metrics.registry.getSingleMetric('lokator_delivery_attempts_total')!.get();
  return metric.values.reduce((sum, v) => sum + v.value, 0);
}

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  describe(`two workers on one ${dialect} database`, () => {
    let shared: TestDatabase;
    let second: Database;
    let sets: Services[];
    let receiver: Receiver;
    const answers = new Map<string, number[]>();
    let n = 0;

    before(async () => {
      shared = await freshDatabase(dialect);
      second = await openDatabase({ url: shared.url, poolSize: 5 });
      await migrate(second);
      const delivery = { listenUrl: shared.url, retryScheduleMs: [20, 40, 80, 160, 320], timeoutMs: 1000 };
      sets = [shared.database, second].map((database) => createServices(database, Date.now, { allowPrivateAddresses: true, delivery }));
      receiver = await new Receiver((request: Received) => {
        const status = ++n % 9 === 0 ? 500 : 200;
        const delayMs = n % 4;
        const id = String(request.headers['webhook-id']);
        answers.set(id, [...(answers.get(id) ?? []), status]);
        return { status, delayMs };
      }).start();
      for (const services of sets) await services.delivery.worker.start(testLog());
    });
    after(async () => {
      for (const services of sets) await services.delivery.worker.stop();
      await receiver.close();
      await second.close();
      await shared.drop();
    });

    it('delivers every message once, sharing the work, with order per URL kept and one request per URL at a time', async () => {
      const account = await sets[0]!.accounts.createAccount({ name: 'Shared', timeZone: 'UTC' });
      const id = account.account.id;
      // Each server writes its own five URLs, ten events per transaction, both at once.
      await Promise.all(
        sets.map(async (services, s) => {
          const mine = PATHS.slice(s * 5, s * 5 + 5);
          for (let seq = 0; seq < PER_PATH; seq += 2) {
            const messages = mine.flatMap((path) => [seq, seq + 1].map((q) => webhook(id, `${receiver.url}${path}`, { path, seq: q })));
            await enqueue(services, s === 0 ? shared.database : second, messages);
          }
        }),
      );
      const pending = () => shared.database.db.selectFrom('deliveries').select('id').where('status', '!=', 'delivered').execute();
      await until('every delivery', async () => (await pending()).length === 0, 60_000);

      // One request per URL at a time, or the order per URL would mean nothing.
      assert.deepEqual(receiver.overlaps.map((r) => `${r.path} ${r.body}`), [], 'never two requests to one URL at once');
      for (const path of PATHS) {
        const delivered = receiver.at(path).filter((r) => answers.get(String(r.headers['webhook-id']))!.includes(200));
        const firstSuccess = delivered.filter((r, i) => delivered.findIndex((x) => x.headers['webhook-id'] === r.headers['webhook-id']) === i);
        assert.deepEqual(
          firstSuccess.map((r) => (JSON.parse(r.body) as { seq: number }).seq),
          Array.from({ length: PER_PATH }, (_, i) => i),
          `${path}: every event, in order`,
        );
      }
      const successes = [...answers.values()].map((statuses) => statuses.filter((s) => s === 200).length);
      assert.equal(successes.length, PATHS.length * PER_PATH);
      assert.ok(successes.every((count) => count === 1), 'no message was delivered twice');
      const [a, b] = await Promise.all(sets.map(attemptsOf));
      assert.equal(a! + b!, receiver.received.length, 'every request was one worker’s attempt');
      assert.ok(a! > 0 && b! > 0, `both workers sent (${a}, ${b})`);
    });
  });
}
