import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Acknowledged transactions to wait for before the kill: past several restarts of the log. */
const ACKNOWLEDGED_BEFORE_KILL = 3000;

/**
 * SQLite only: with the write-ahead log checkpointed on a thread of its own and restarted while
 * writes are held back (src/store/wal-checkpointer.ts), a process killed with SIGKILL in the middle
 * of a stream of transactions has every acknowledged one in the file, whole.
 */
describe('write-ahead log checkpoints across kill -9 (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lokator-wal-crash-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loses no acknowledged transaction when killed while checkpoints run', async () => {
    const file = join(dir, 'lokator.db');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/wal-writer.ts', file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let acknowledged = -1;
    let output = '';
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      let pending = '';
      child.stdout.on('data', (chunk) => {
        pending += String(chunk);
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) acknowledged = Number(line.slice('ack '.length));
        if (acknowledged >= ACKNOWLEDGED_BEFORE_KILL) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`the writer exited (${code}) after ${acknowledged + 1} transactions:\n${output}`)));
    });
    await exited;

    const sqlite = new BetterSqlite3(file);
    try {
      const rows = sqlite.prepare('SELECT n, count(*) AS parts FROM written GROUP BY n ORDER BY n').all() as { n: number; parts: number }[];
      const stored = new Set(rows.map((r) => r.n));
      assert.ok(rows.every((r) => r.parts === 20), 'every stored transaction is whole');
      const missing = Array.from({ length: acknowledged + 1 }, (_, n) => n).filter((n) => !stored.has(n));
      assert.deepEqual(missing, [], `${missing.length} of ${acknowledged + 1} acknowledged transactions are missing`);
      assert.equal((sqlite.pragma('integrity_check', { simple: true }) as string), 'ok');
    } finally {
      sqlite.close();
    }
  });
});
