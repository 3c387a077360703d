import BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointReport } from './wal-checkpointer.js';

/**
 * The checkpointer's thread (see wal-checkpointer.ts): its own connection to the database file,
 * a passive checkpoint whenever the main thread says it committed and the last one is done.
 * Passive: it copies what it can without ever taking the write lock, so the main thread's
 * transactions never wait for it.
 */
const { path } = workerData as { path: string };
const sqlite = new BetterSqlite3(path);
sqlite.pragma('busy_timeout = 5000');
const checkpoint = sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)');

parentPort!.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    sqlite.close();
    parentPort!.close();
    return;
  }
  const [row] = checkpoint.all() as { busy: number; log: number; checkpointed: number }[];
  const report: CheckpointReport = { walFrames: row!.log, copiedFrames: row!.checkpointed };
  parentPort!.postMessage(report);
});
