import { fdatasyncSync, openSync } from 'node:fs';
import { BroadcastChannel, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { DurabilityNews } from './wal-sync.js';

/**
 * The write-ahead log's sync thread (see wal-sync.ts). The main thread posts the number of each
 * commit it made; a sync begun after that covers it. Numbers that arrived during a sync are all
 * covered by the next one. Linux syncs the file whichever descriptor wrote it, and SQLite keeps
 * the WAL file while its connection is open; it exists once the first commit is made, which is
 * before the first number arrives.
 */
const { walPath, channelName } = workerData as { walPath: string; channelName: string };
const port = parentPort!;
const channel = new BroadcastChannel(channelName);
const announce = (news: DurabilityNews) => channel.postMessage(news);
let fd: number | null = null;
let synced = 0;

port.on('message', (commit: number) => {
  let upTo = commit;
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) upTo = Math.max(upTo, next.message as number);
  if (upTo <= synced) return;
  try {
    fd ??= openSync(walPath, 'r+');
    fdatasyncSync(fd);
    synced = upTo;
    announce({ durable: upTo });
  } catch (error) {
    // A failed sync proves nothing about what it was to cover: the next request syncs again.
    announce({ failed: upTo, message: error instanceof Error ? error.message : String(error) });
  }
});
