import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, Client, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { startProcess } from '../helpers/process.js';
import { dialects, freshDatabase } from '../helpers/stores.js';

for (const dialect of dialects) {
  describe(`operator routes on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('creates an account whose token works at once, in its own time zone', async () => {
      const operator = server.api.withToken(ADMIN_TOKEN);
      const created = await operator.post('/admin/v1/accounts', { name: 'Acme Logistics', timeZone: 'America/New_York' });
      assert.equal(created.status, 201);
      assert.equal(created.body.name, 'Acme Logistics');
      assert.equal(created.body.timeZone, 'America/New_York');
      assert.match(created.body.token, /^lk_/);
      const acme = server.api.withToken(created.body.token);
      const employee = await acme.post(SUBSCRIBERS, { name: 'Driver' });
      assert.equal(employee.status, 201);
      await acme.post(LOCATIONS, [{ subscriberID: employee.body.subscriberID, locationDate: '2026-01-15T12:00:00Z', latitude: 40.7, longitude: -74 }]);
      const listed = await acme.get(`${LOCATIONS}?dateFrom=2026-01-15T00:00:00Z&dateTo=2026-01-16T00:00:00Z`);
      assert.equal(listed.body[0].locationDate, '2026-01-15T07:00:00-05:00');

      const accounts = await operator.get('/admin/v1/accounts');
      assert.ok(accounts.body.some((a: any) => a.accountID === created.body.accountID && a.timeZone === 'America/New_York'));
      assert.ok(accounts.body.every((a: any) => !('token' in a)), 'tokens are never shown again');
    });

    it('refuses bad input and wrong operator tokens', async () => {
      const operator = server.api.withToken(ADMIN_TOKEN);
      const zone = await operator.post('/admin/v1/accounts', { name: 'X', timeZone: 'Mars/Olympus' });
      assert.equal(zone.status, 400);
      assert.ok(zone.body.validationErrors.timeZone);
      const noName = await operator.post('/admin/v1/accounts', { timeZone: 'UTC' });
      assert.equal(noName.status, 400);
      assert.equal(noName.body.code, 52);
      const wrong = await server.api.withToken('not-the-operator-token').post('/admin/v1/accounts', { name: 'X' });
      assert.equal(wrong.status, 401);
      // An account's API token is not an operator token.
      assert.equal((await server.api.get('/admin/v1/accounts')).status, 401);
    });
  });
}

describe('npm start', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lokator-start-'));
    dirs.push(dir);
    return dir;
  };

  it('creates the first account with the bootstrap token once, and keeps it across restarts', async () => {
    const env = { DATA_DIR: dataDir(), LOKATOR_BOOTSTRAP_TOKEN: 'bootstrap-token-0123456789', LOKATOR_BOOTSTRAP_PASSWORD: 'admin-password-123' };
    const first = await startProcess(env);
    const api = new Client(`http://127.0.0.1:${first.port}`, env.LOKATOR_BOOTSTRAP_TOKEN);
    const created = await api.post(SUBSCRIBERS, { name: 'First employee' });
    assert.equal(created.status, 201);
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0, 'SIGTERM is a clean stop');

    const second = await startProcess(env);
    const again = new Client(`http://127.0.0.1:${second.port}`, env.LOKATOR_BOOTSTRAP_TOKEN);
    const listed = await again.get(SUBSCRIBERS);
    assert.deepEqual(listed.body.map((e: any) => e.name), ['First employee'], 'same account, no second bootstrap');
    assert.equal((await again.get('/admin/v1/accounts')).status, 404, 'operator routes are off without LOKATOR_ADMIN_TOKEN');
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('prints a generated token on the first start when none is configured', async () => {
    const started = await startProcess({ DATA_DIR: dataDir() });
    const token = /API token \(shown once\):\s+(\S+)/.exec(started.output())?.[1];
    assert.ok(token, started.output());
    assert.match(started.output(), /Workspace login:\s+admin \/ \S+/);
    const api = new Client(`http://127.0.0.1:${started.port}`, token);
    assert.equal((await api.get(SUBSCRIBERS)).status, 200);
    started.child.kill('SIGTERM');
    await started.exited;
  });

  it('refuses to start with invalid settings and names each one', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'eighty', LOKATOR_BOOTSTRAP_TIME_ZONE: 'Nowhere/Land' },
      encoding: 'utf8',
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /PORT="eighty"/);
    assert.match(result.stderr, /LOKATOR_BOOTSTRAP_TIME_ZONE="Nowhere\/Land"/);
  });

  it('finishes a batch in flight on SIGTERM: the acknowledged fixes are there after restart', async () => {
    const env = { DATA_DIR: dataDir(), LOKATOR_BOOTSTRAP_TOKEN: 'bootstrap-token-0123456789' };
    const first = await startProcess(env);
    const api = new Client(`http://127.0.0.1:${first.port}`, env.LOKATOR_BOOTSTRAP_TOKEN);
    const id = (await api.post(SUBSCRIBERS, { name: 'Driver' })).body.subscriberID;
    const batch = Array.from({ length: 10_000 }, (_, i) => ({
      subscriberID: id,
      locationDate: new Date(Date.now() - 20_000_000 + i * 1000).toISOString(),
      latitude: 55 + i * 1e-5,
      longitude: 37,
    }));
    const inFlight = api.post(LOCATIONS, batch);
    await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGTERM');
    const answer = await inFlight;
    assert.equal(answer.status, 201, answer.text);
    assert.equal(await first.exited, 0);

    const second = await startProcess(env);
    const again = new Client(`http://127.0.0.1:${second.port}`, env.LOKATOR_BOOTSTRAP_TOKEN);
    let stored = 0;
    let last: number | undefined;
    for (;;) {
      const page = await again.get(`${LOCATIONS}?count=1000&dateFrom=2020-01-01T00:00:00Z${last ? `&lastLocationID=${last}` : ''}`);
      if (page.body.length === 0) break;
      stored += page.body.length;
      last = page.body.at(-1).locationID;
    }
    assert.equal(stored, 10_000);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  if (dialects.includes('postgres')) {
    it('runs the same on PostgreSQL with DATABASE_URL', async () => {
      const { url, drop } = await freshDatabase('postgres');
      try {
        const started = await startProcess({ DATABASE_URL: url, LOKATOR_BOOTSTRAP_TOKEN: 'bootstrap-token-0123456789' });
        const api = new Client(`http://127.0.0.1:${started.port}`, 'bootstrap-token-0123456789');
        const id = (await api.post(SUBSCRIBERS, { name: 'On PostgreSQL' })).body.subscriberID;
        assert.equal((await api.post(LOCATIONS, [{ subscriberID: id, locationDate: new Date().toISOString(), latitude: 1, longitude: 2 }])).status, 201);
        assert.equal((await api.get(LOCATIONS)).body.length, 1);
        assert.equal((await api.get('/ready')).status, 200);
        started.child.kill('SIGTERM');
        assert.equal(await started.exited, 0);
      } finally {
        await drop();
      }
    });
  }
});
