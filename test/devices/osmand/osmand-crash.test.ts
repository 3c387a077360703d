import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Database } from '../../../src/store/database.js';
import { startProcess, type RunningProcess } from '../../helpers/process.js';
import { Client, createEmployee } from '../../helpers/server.js';
import { dialects, freshDatabase, type TestDatabase } from '../../helpers/stores.js';

const TOKEN = 'osmand-crash-token-0123456789';
const DEVICES = 24;
/** Acknowledged fixes to wait for before the kill: the burst is well under way. */
const ACKNOWLEDGED_BEFORE_KILL = 150;

/**
 * Group commit answers a device only after the transaction holding its fix committed: a server
 * killed with SIGKILL in the middle of a burst of single fixes has every acknowledged one stored.
 */
for (const dialect of dialects) {
  describe(`OsmAnd fixes across kill -9 on ${dialect}`, () => {
    let dataDir: string;
    let pgDatabase: TestDatabase | null = null;
    let env: Record<string, string>;
    let server: RunningProcess | null = null;
    let database: Database | null = null;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'lokator-osmand-crash-'));
      env = { DATA_DIR: dataDir, LOKATOR_BOOTSTRAP_TOKEN: TOKEN };
      if (dialect === 'postgres') {
        pgDatabase = await freshDatabase('postgres');
        env.DATABASE_URL = pgDatabase.url;
      }
    });
    after(async () => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      if (!pgDatabase) await database?.close();
      await pgDatabase?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('loses no acknowledged fix when killed during a burst', async () => {
      server = await startProcess(env);
      const running = server;
      const api = new Client(`http://127.0.0.1:${running.port}`, TOKEN);
      const devices: { id: number; key: string }[] = [];
      for (let d = 0; d < DEVICES; d++) {
        const key = `crash-${dialect}-${d}`;
        devices.push({ id: await createEmployee(api, { name: `Phone ${d}`, deviceKey: key }), key });
      }

      // Every device sends fix after fix until the server is gone; what got a 200 is remembered.
      const acknowledged: { subscriberId: number; timeMs: number }[] = [];
      const startS = Math.floor(Date.now() / 1000) - 3600;
      const send = async (device: { id: number; key: string }, d: number) => {
        for (let k = 0; ; k++) {
          const timestamp = startS + k * 5;
          let status: number;
          try {
            const response = await fetch(`http://127.0.0.1:${running.osmandPort}/?id=${device.key}&lat=55.7${d}&lon=37.6${k % 10}&timestamp=${timestamp}`);
            await response.arrayBuffer();
            status = response.status;
          } catch {
            return;
          }
          if (status !== 200) return;
          acknowledged.push({ subscriberId: device.id, timeMs: timestamp * 1000 });
        }
      };
      const senders = Promise.all(devices.map(send));
      const deadline = Date.now() + 60_000;
      while (acknowledged.length < ACKNOWLEDGED_BEFORE_KILL) {
        assert.ok(Date.now() < deadline, `only ${acknowledged.length} fixes acknowledged in a minute:\n${running.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      running.child.kill('SIGKILL');
      await running.exited;
      await senders;

      database = pgDatabase?.database ?? (await openDatabase({ url: join(dataDir, 'lokator.db') }));
      const rows = await database.db.selectFrom('locations').select(['subscriber_id', 'location_date']).execute();
      const stored = new Set(rows.map((r) => `${r.subscriber_id}:${r.location_date}`));
      const lost = acknowledged.filter((a) => !stored.has(`${a.subscriberId}:${a.timeMs}`));
      assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged fixes are missing`);
      assert.equal(stored.size, rows.length, 'no fix is stored twice');
    });
  });
}
