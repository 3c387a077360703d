import { parentPort, workerData } from 'node:worker_threads';
import { KeyGuessThrottle } from '../http/key-guess-throttle.js';
import { DurableCommits } from '../store/wal-sync.js';
import type { Fix } from '../positioning/positioning.js';
import type { CommitSequence } from '../store/commit-sequence.js';
import { deviceProtocolNamed, type DeviceProtocol } from './protocols.js';
import { PackedNumbers, packFixes, type FromTrackerThread, type TrackerQuestion, type LogLevel, type ToTrackerThread, type TrackerThreadData } from './tracker-thread-messages.js';
import { startTrackerServer, type TrackerDevice, type TrackerLogin, type TrackerLogger, type TrackerRetranslator, type TrackerServer, type TrackerSink } from './tracker-server.js';

/**
 * The tracker listeners' network side, on a thread of its own (see tracker-listeners.ts): the
 * connections, framing, decoding, checksums, key-guess throttle and acknowledgements of every
 * protocol run here; the main thread gets each terminal's key to look up and each frame's fixes to
 * store, and answers when they committed. In a burst of buffered records this side was about a
 * quarter of the main thread's time, spent before the first of them could be stored. Each
 * listener is a TCP protocol of protocols.ts, named by the main thread.
 */

const port = parentPort!;
/** handOverNumbers: past this many packed numbers the fixes waiting go to the main thread at once, not at the end of this turn. */
const { listeners, host, idleTimeoutMs, keyGuessLimits, durabilityChannel, handOverNumbers } = workerData as TrackerThreadData;
const durable = durabilityChannel === null ? null : new DurableCommits(durabilityChannel);
const post = (message: FromTrackerThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let nextId = 0;
const resolving = new Map<number, { resolve: (login: TrackerLogin) => void; reject: (error: Error) => void }>();
const asking = new Map<number, { resolve: (answer: TrackerDevice | TrackerRetranslator | null) => void; reject: (error: Error) => void }>();
const ingesting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

/** Fixes read in this turn of the event loop, handed over together (or sooner, past handOverNumbers). */
let requests: number[] = [];
const packed = new PackedNumbers();
let handOverQueued = false;
const handOver = () => {
  if (requests.length === 0) return;
  const fixes = packed.take();
  post({ type: 'ingest', requests, fixes }, [fixes.buffer as ArrayBuffer]);
  requests = [];
};

const ask = (question: TrackerQuestion) =>
  new Promise<TrackerDevice | TrackerRetranslator | null>((resolve, reject) => {
    const id = nextId++;
    asking.set(id, { resolve, reject });
    post({ type: 'ask', id, question });
  });

const sink: TrackerSink = {
  // A retranslator's questions are few (one per session and per vehicle it names): no batching.
  authenticateRetranslator: async (dispatcherId, password) => (await ask({ kind: 'retranslator', dispatcherId, password })) as TrackerRetranslator | null,
  findDevice: async (protocol, deviceKey) => (await ask({ kind: 'device', protocol, deviceKey })) as TrackerDevice | null,
  authenticateDevice: (protocol, deviceKey, password, address) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      resolving.set(id, { resolve, reject });
      post({ type: 'resolve', id, protocol, deviceKey, password, address: address ?? null });
    }),
  ingest: (accountId: number, fixes: Fix[]) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      ingesting.set(id, { resolve, reject });
      requests.push(id, accountId, fixes.length);
      packFixes(fixes, packed);
      if (!handOverQueued) {
        handOverQueued = true;
        setImmediate(() => {
          handOverQueued = false;
          handOver();
        });
      }
      if (packed.size >= handOverNumbers) handOver();
    }),
};

const logAs =
  (level: LogLevel) =>
  (object: object, message: string): void =>
    post({ type: 'log', level, object, message });
const logger: TrackerLogger = { info: logAs('info'), warn: logAs('warn'), error: logAs('error') };
/** One throttle for every port: a guesser cannot try its keys once per protocol. */
const keyGuesses = new KeyGuessThrottle(keyGuessLimits);

const servers: TrackerServer[] = [];

/** Frames whose fixes committed are acknowledged once their commit is on disk (see TrackerThreadOptions.ingest). */
function acknowledgeStored(ids: number[], commit: CommitSequence): void {
  const settle = (error?: Error) => {
    for (const id of ids) {
      const waiting = ingesting.get(id);
      ingesting.delete(id);
      if (error) waiting?.reject(error);
      else waiting?.resolve();
    }
  };
  if (durable === null || durable.isDurable(commit)) settle();
  else durable.after(commit).then(() => settle(), settle);
}

port.on('message', (message: ToTrackerThread) => {
  switch (message.type) {
    case 'resolved': {
      const waiting = resolving.get(message.id);
      resolving.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.login);
      return;
    }
    case 'answered': {
      const waiting = asking.get(message.id);
      asking.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.answer);
      return;
    }
    case 'ingested':
      if (message.stored.length > 0) acknowledgeStored(message.stored, message.commit);
      for (const [id, why] of message.failed) {
        ingesting.get(id)?.reject(new Error(why));
        ingesting.delete(id);
      }
      return;
    case 'close':
      // Frames in flight are answered (or dropped unanswered) before the servers report closed.
      void Promise.all(servers.map((server) => server.close())).then(() => post({ type: 'closed' }));
      return;
  }
});

try {
  const ports: Partial<Record<DeviceProtocol, number>> = {};
  for (const { protocol, port: wanted } of listeners) {
    const definition = deviceProtocolNamed(protocol);
    if (definition.transport !== 'tcp') throw new Error(`${protocol} is not a TCP protocol`);
    const server = await startTrackerServer({ protocol: definition, port: wanted, host, idleTimeoutMs, sink, logger, keyGuesses });
    servers.push(server);
    ports[protocol] = server.port;
  }
  post({ type: 'listening', ports });
} catch (error) {
  await Promise.all(servers.map((server) => server.close()));
  post({ type: 'listen-failed', message: error instanceof Error ? error.message : String(error) });
}
