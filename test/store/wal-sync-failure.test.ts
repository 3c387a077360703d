import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { startProcess, type RunningProcess } from '../helpers/process.js';
import { Client, createEmployee, LOCATIONS } from '../helpers/server.js';

const TOKEN = 'wal-sync-failure-token-0123456789';
const DEVICE_KEY = 'sync-failure-device-key-4711';
const failingSync = fileURLToPath(new URL('../helpers/failing-fdatasync.mjs', import.meta.url));

/**
 * SQLite only. When syncing the write-ahead log fails (EIO: the disk reported a write error), the
 * server acknowledges nothing more and exits at once without closing the database, as PostgreSQL
 * stops on a failed sync of its log: Linux may drop the pages that failed and report the next sync
 * a success, and a log with a hole loses every commit after the hole on recovery. The restart
 * recovers from what is on disk, with every fix acknowledged before the failure.
 */
describe('a failed sync of the write-ahead log stops the server (SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lokator-sync-failure-'));
  const trigger = join(dataDir, 'fail-sync');
  let server: RunningProcess | null = null;
  after(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sendFix = async (running: RunningProcess, timestampS: number): Promise<number | 'no answer'> => {
    try {
      const response = await fetch(`http://127.0.0.1:${running.osmandPort}/?id=${DEVICE_KEY}&lat=55.75&lon=37.61&timestamp=${timestampS}`);
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 'no answer';
    }
  };

  it('answers no fix as stored once a sync failed, exits with 1, and restarts with every acknowledged fix', async () => {
    const env = {
      DATA_DIR: dataDir,
      LOKATOR_BOOTSTRAP_TOKEN: TOKEN,
      LOG_LEVEL: 'info',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${failingSync}`.trim(),
      LOKATOR_TEST_FAIL_SYNC: trigger,
    };
    server = await startProcess(env);
    const running = server;
    const api = new Client(`http://127.0.0.1:${running.port}`, TOKEN);
    const employeeId = await createEmployee(api, { name: 'Phone', deviceKey: DEVICE_KEY });
    const startS = Math.floor(Date.now() / 1000) - 600;
    for (let k = 0; k < 5; k++) assert.equal(await sendFix(running, startS + k * 10), 200);

    writeFileSync(trigger, '');
    // The disk fails under this fix's commit: it is not acknowledged (a 500, or the connection
    // closed by the exit), and nothing after it is.
    const status = await sendFix(running, startS + 50);
    assert.notEqual(status, 200);
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([running.exited, new Promise((resolve) => (timer = setTimeout(() => resolve('still running'), 20_000)))]);
    clearTimeout(timer);
    assert.equal(code, 1, running.output());
    assert.match(running.output(), /can no longer make writes durable/);
    assert.match(running.output(), /EIO/);
    assert.doesNotMatch(running.output(), new RegExp(`${DEVICE_KEY}|${TOKEN}`), 'no secret in the log');
    // Not closed: closing would have checkpointed the log into the database file and removed it.
    assert.ok(existsSync(join(dataDir, 'lokator.db-wal')), 'the write-ahead log is left for recovery');

    // The restart, on a disk that works again: what was acknowledged is there, and fixes are taken.
    rmSync(trigger);
    server = await startProcess({ DATA_DIR: dataDir, LOKATOR_BOOTSTRAP_TOKEN: TOKEN });
    const again = server;
    assert.equal(await sendFix(again, startS + 60), 200);
    const restarted = new Client(`http://127.0.0.1:${again.port}`, TOKEN);
    const response = await restarted.get(`${LOCATIONS}?subscriberIDs=${employeeId}&dateFrom=${new Date((startS - 60) * 1000).toISOString()}`);
    assert.equal(response.status, 200, response.text);
    const times = (response.body as { locationDate: string }[]).map((l) => Date.parse(l.locationDate) / 1000);
    for (let k = 0; k < 5; k++) assert.ok(times.includes(startS + k * 10), `acknowledged fix ${k} is stored: ${times.join(' ')}`);
    assert.ok(times.includes(startS + 60));
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0, again.output());
  });
});
