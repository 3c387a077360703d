import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Database } from '../../src/store/database.js';
import { startProcess, type RunningProcess } from '../helpers/process.js';
import { Client, SUBSCRIBERS } from '../helpers/server.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';
import { Receiver, type Behaviour, type Received } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

const TOKEN = 'crash-test-token-0123456789';
const RULES = '/v6/api/eventManagement/events';

/** The employee an employee-change event (6.5) is about. */
const entityOf = (r: Received) => (JSON.parse(r.body) as { signalMetadataInfo: { entityID: number } }[])[0]!.signalMetadataInfo.entityID;

for (const dialect of dialects) {
  describe(`deliveries across a crash and a shutdown on ${dialect}`, () => {
    let dataDir: string;
    let pgDatabase: TestDatabase | null = null;
    let env: Record<string, string>;
    let receiver: Receiver;
    let behaviour: (request: Received) => Behaviour = () => ({ hang: true });
    let server: RunningProcess | null = null;
    let database: Database;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'lokator-crash-'));
      receiver = await new Receiver((request) => behaviour(request)).start();
      env = {
        DATA_DIR: dataDir,
        LOKATOR_BOOTSTRAP_TOKEN: TOKEN,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms,400ms,800ms',
        WEBHOOK_TIMEOUT: '5s',
      };
      if (dialect === 'postgres') {
        pgDatabase = await freshDatabase('postgres');
        env.DATABASE_URL = pgDatabase.url;
        database = pgDatabase.database;
      }
    });
    after(async () => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      await receiver.close();
      await pgDatabase?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const openStore = async () => database ?? (database = await openDatabase({ url: join(dataDir, 'lokator.db') }));

    it('delivers every acknowledged event after kill -9 with deliveries pending and in flight', async () => {
      server = await startProcess(env);
      let api = new Client(`http://127.0.0.1:${server.port}`, TOKEN);
      const rule = await api.post(RULES, { name: 'Employee feed', kind: 'employeeChanges', sendToApi: true, apiUrl: `${receiver.url}/feed` });
      assert.equal(rule.status, 201, rule.text);

      // The receiver holds every request open: the first event is in flight, the rest wait behind it.
      const acknowledged: number[] = [];
      for (let i = 0; i < 15; i++) {
        const created = await api.post(SUBSCRIBERS, { name: `Courier ${i}` });
        assert.equal(created.status, 201, created.text);
        acknowledged.push(created.body.subscriberID);
      }
      await until('the first event in flight', () => receiver.at('/feed').length > 0);
      server.child.kill('SIGKILL');
      assert.equal(await server.exited, null, 'killed, not exited');

      behaviour = () => ({ status: 200 });
      server = await startProcess(env);
      api = new Client(`http://127.0.0.1:${server.port}`, TOKEN);
      // A second batch after the restart joins the same queue behind the first.
      for (let i = 15; i < 20; i++) acknowledged.push((await api.post(SUBSCRIBERS, { name: `Courier ${i}` })).body.subscriberID);

      const deliveredTo = () => receiver.at('/feed').filter((r, i, all) => all.findIndex((x) => x.headers['webhook-id'] === r.headers['webhook-id']) === i);
      // PostgreSQL: the dead server's claims run out (10 s lease) before another takes them.
      await until('every acknowledged event', () => new Set(receiver.at('/feed').map(entityOf)).size === acknowledged.length, 30_000);
      const store = await openStore();
      await until('the outbox to drain', async () => (await store.db.selectFrom('deliveries').select('id').where('status', '!=', 'delivered').execute()).length === 0);
      const firstArrivals = deliveredTo().map(entityOf);
      assert.deepEqual([...firstArrivals].sort((a, b) => a - b), acknowledged, 'each acknowledged event, once per webhook-id');
      assert.deepEqual(firstArrivals, acknowledged, 'in the order they happened');
      const retried = receiver.at('/feed').filter((r) => entityOf(r) === acknowledged[0]);
      assert.ok(retried.length >= 2, 'the event in flight at the crash was sent again');
      assert.equal(new Set(retried.map((r) => r.headers['webhook-id'])).size, 1, 'with the same webhook-id');
    });

    it('finishes the attempt in flight on SIGTERM, records it, and exits 0', async () => {
      let lastId = 0;
      behaviour = (request) => (entityOf(request) === lastId ? { status: 200, delayMs: 1500 } : { status: 200 });
      const api = new Client(`http://127.0.0.1:${server!.port}`, TOKEN);
      const before = receiver.received.length;
      lastId = (await api.post(SUBSCRIBERS, { name: 'Last courier' })).body.subscriberID;
      await until('the slow attempt', () => receiver.received.length > before);
      const started = Date.now();
      server!.child.kill('SIGTERM');
      assert.equal(await server!.exited, 0, server!.output());
      assert.ok(Date.now() - started >= 1000, 'it waited for the receiver');
      const store = await openStore();
      const row = await store.db.selectFrom('deliveries').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      assert.equal(row.status, 'delivered');
      const attempts = await store.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', row.id).execute();
      assert.deepEqual(attempts.map((a) => a.status_code), [200]);
      assert.ok(attempts[0]!.duration_ms >= 1400);
      if (dialect === 'sqlite') await store.close();
    });
  });
}
