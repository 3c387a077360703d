import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { WalCheckpointer } from '../../src/store/wal-checkpointer.js';

/**
 * SQLite only: the write-ahead log is copied into the database file on a thread of its own
 *, never inside a commit on the main thread; passive checkpoints alone never let the
 * log start afresh while writes keep coming, so the checkpointer holds writes back for a moment
 * once the log is long.
 */
describe('write-ahead log checkpoints on their own thread (SQLite)', () => {
  let dir: string;
  let sqlite: BetterSqlite3.Database;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lokator-wal-'));
    sqlite = new BetterSqlite3(join(dir, 'lokator.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('wal_autocheckpoint = 0');
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  });
  after(() => {
    sqlite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the log short while transactions go on without a pause, and loses none of them', async () => {
    let fellBack = false;
    const checkpointer = new WalCheckpointer(join(dir, 'lokator.db'), () => (fellBack = true), 100);
    const insert = sqlite.prepare('INSERT INTO t (v) VALUES (?)');
    const write = sqlite.transaction((rows: number) => {
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(400));
    });
    let [restarts, longest, previous, written] = [0, 0, 0, 0];
    const deadline = Date.now() + 120_000;
    while (restarts < 3) {
      assert.ok(Date.now() < deadline, `the log started afresh ${restarts} times; frames: ${JSON.stringify(checkpointer.lastReport)}`);
      await checkpointer.write(async () => write(20));
      written += 20;
      await nextTurn();
      const frames = checkpointer.lastReport?.walFrames ?? 0;
      if (frames < previous) restarts++;
      previous = frames;
      longest = Math.max(longest, frames);
    }
    await checkpointer.close();
    assert.equal(fellBack, false);
    assert.ok(longest >= 100, `the log reached ${longest} frames before starting afresh`);
    assert.equal((sqlite.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, written);
  });
});
