import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp, createServices } from '../../src/app.js';
import { migrate, openDatabase, type Database } from '../../src/store/database.js';
import { Client, startServer, type TestServer } from '../helpers/server.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';

/**
 * The sign-in lock (five wrong passwords per login and client address, then 429 code 1012 for
 * 15 minutes) is counted in the database: every server sharing it counts the same tries, and the
 * tries of a window that has passed are swept away.
 */

const PASSWORD = 'a long enough password';
const SESSION = '/workspace/api/session';
const MINUTE = 60_000;
const T0 = Date.parse('2026-06-01T09:00:00Z');

const tryPassword = (client: Client, login: string, password: string) => client.post(SESSION, { login, password });

async function attemptRows(database: Database): Promise<number> {
  const rows = await database.db.selectFrom('sign_in_attempts').select('key_digest').execute();
  return rows.length;
}

for (const dialect of dialects) {
  describe(`sign-in lock over time (${dialect})`, () => {
    let server: TestServer;
    let anonymous: Client;
    before(async () => {
      server = await startServer(dialect, { now: T0 });
      anonymous = new Client(server.baseUrl, null);
      await server.services.accounts.createUser(server.account.id, 'patient', PASSWORD);
    });
    after(() => server.close());

    it('refuses for 15 minutes from the first wrong try, with Retry-After counting down; then the login works again', async () => {
      for (let i = 0; i < 5; i += 1) {
        server.setNow(T0 + i * MINUTE);
        assert.equal((await tryPassword(anonymous, 'patient', `guess ${i}`)).status, 401);
      }
      server.setNow(T0 + 10 * MINUTE);
      const locked = await tryPassword(anonymous, 'patient', PASSWORD);
      assert.equal(locked.status, 429);
      assert.equal(locked.body.code, 1012);
      assert.equal(locked.headers.get('retry-after'), String(5 * 60));
      server.setNow(T0 + 15 * MINUTE - 1000);
      assert.equal((await tryPassword(anonymous, 'patient', PASSWORD)).status, 429);
      server.setNow(T0 + 15 * MINUTE);
      assert.equal((await tryPassword(anonymous, 'patient', PASSWORD)).status, 200);
    });

    it('sweeps the tries of windows that have passed', async () => {
      server.setNow(T0 + 60 * MINUTE);
      for (let i = 0; i < 3; i += 1) assert.equal((await tryPassword(anonymous, `nobody-${i}`, PASSWORD)).status, 401);
      assert.ok((await attemptRows(server.database)) >= 3);
      // Long after those windows, one more try: the old ones are gone, only the new one is counted.
      server.setNow(T0 + 120 * MINUTE);
      assert.equal((await tryPassword(anonymous, 'nobody-new', PASSWORD)).status, 401);
      assert.equal(await attemptRows(server.database), 1);
    });
  });
}

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  describe(`sign-in lock shared by two servers on one ${dialect} database`, () => {
    let shared: TestDatabase;
    let second: Database;
    let clients: [Client, Client];
    const apps: { close(): Promise<unknown> }[] = [];

    before(async () => {
      shared = await freshDatabase(dialect);
      second = await openDatabase({ url: shared.url, poolSize: 5 });
      await migrate(second);
      const first = createServices(shared.database);
      const account = await first.accounts.createAccount({ name: 'Shared', timeZone: 'UTC' });
      await first.accounts.createUser(account.account.id, 'dispatcher', PASSWORD);
      const urls: string[] = [];
      for (const [database, services] of [
        [shared.database, first],
        [second, createServices(second)],
      ] as const) {
        const app = await buildApp({ database, services, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 1 << 20 } });
        await app.listen({ port: 0, host: '127.0.0.1' });
        apps.push(app);
        urls.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
      }
      clients = [new Client(urls[0]!, null), new Client(urls[1]!, null)];
    });
    after(async () => {
      for (const app of apps) await app.close();
      await second.close();
      await shared.drop();
    });

    it('five wrong passwords spread over both servers lock the login on both', async () => {
      const [a, b] = clients;
      for (let i = 0; i < 5; i += 1) assert.equal((await tryPassword(i % 2 === 0 ? a : b, 'dispatcher', `guess ${i}`)).status, 401);
      for (const client of [a, b]) {
        const locked = await tryPassword(client, 'dispatcher', PASSWORD);
        assert.equal(locked.status, 429);
        assert.equal(locked.body.code, 1012);
        assert.ok(Number(locked.headers.get('retry-after')) > 0);
      }
    });

    it('wrong passwords sent at once to both servers are each counted: five get through, not five per server', async () => {
      const [a, b] = clients;
      await createUserThrough(shared.database, 'raced');
      const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => tryPassword(i % 2 === 0 ? a : b, 'raced', `guess ${i}`)));
      assert.equal(guesses.filter((g) => g.status === 401).length, 5);
      assert.ok(guesses.every((g) => g.status === 401 || g.status === 429));
    });
  });
}

async function createUserThrough(database: Database, login: string): Promise<void> {
  const services = createServices(database);
  const [account] = await services.accounts.listAccounts();
  await services.accounts.createUser(account!.id, login, PASSWORD);
}
