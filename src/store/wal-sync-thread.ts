import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { BroadcastChannel, workerData } from 'node:worker_threads';
import { commitSequence } from './commit-sequence.js';
import { ASKED, CLOSING, COMMITS, type DurabilityNews } from './wal-sync.js';

/**
 * The write-ahead log's sync thread (see wal-sync.ts). It sleeps on the shared counters until the
 * main thread asks, then syncs the log once for every commit made by then (commits made during a
 * sync are covered by the next one) and announces what that covered; after a failed sync, it
 * announces the failure and stops. Linux syncs the file whichever descriptor wrote it, and SQLite
 * keeps the WAL file while its connection is open; it exists once the first commit is made, which
 * is before the first ask.
 */
const { walPath, channelName, shared: buffer } = workerData as { walPath: string; channelName: string; shared: SharedArrayBuffer };
const shared = new BigInt64Array(buffer);
const channel = new BroadcastChannel(channelName);
const announce = (news: DurabilityNews) => channel.postMessage(news);
let fd: number | null = null;
let asked = 0n;
let synced = 0n;

for (;;) {
  Atomics.wait(shared, ASKED, asked);
  if (Atomics.load(shared, CLOSING) !== 0n) break;
  asked = Atomics.load(shared, ASKED);
  const upTo = Atomics.load(shared, COMMITS);
  if (upTo <= synced) {
    // Asked again for what is on disk already (the news had not reached the asker yet).
    announce({ durable: commitSequence(Number(synced)) });
    continue;
  }
  try {
    fd ??= openSync(walPath, 'r+');
    fdatasyncSync(fd);
    synced = upTo;
    announce({ durable: commitSequence(Number(upTo)) });
  } catch (error) {
    // The end (see DurabilityNews): a later sync of this file could succeed without what this one lost.
    announce({ failed: commitSequence(Number(upTo)), message: error instanceof Error ? error.message : String(error) });
    break;
  }
}
if (fd !== null) closeSync(fd);
channel.close();
