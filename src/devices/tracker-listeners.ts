import { Worker } from 'node:worker_threads';
import type { KeyGuessLimits } from '../http/key-guess-throttle.js';
import { ingestBounds, type IngestPort } from '../positioning/positioning.js';
import { commitSequence, DURABLE_ON_RETURN, type CommitSequence } from '../store/commit-sequence.js';
import type { DeviceProtocol } from './protocols.js';
import type { DeviceDirectory, TrackerLogger } from './tracker-server.js';
import { INGEST_FIELDS, skipFixes, unpackFixes, type FromTrackerThread, type TrackerQuestion, type ToTrackerThread, type TrackerThreadData } from './tracker-thread-messages.js';

export interface TrackerListeners {
  /** The port each protocol listens on. */
  readonly ports: Partial<Record<DeviceProtocol, number>>;
  /** Stops listening and drops the connections; resolves once every frame handed over is stored or refused. */
  close(): Promise<void>;
}

export interface TrackerThreadOptions {
  /** TCP protocols by name (protocols.ts), each with its port (0: a free one). */
  listeners: { protocol: DeviceProtocol; port: number }[];
  host: string;
  idleTimeoutMs: number;
  /** Who the terminals are. */
  directory: DeviceDirectory;
  /**
   * Where their fixes go. The thread acknowledges a frame once the port's `durabilityChannel`
   * announces its commit on disk, without waiting for the main thread, busy with the next group's
   * transaction by then, to hear of the sync; a port without a channel is durable on return.
   */
  ingest: IngestPort;
  logger: TrackerLogger;
  /** How many unknown keys one address may try (one throttle for every port of the thread). */
  keyGuessLimits?: KeyGuessLimits;
}

/**
 * Starts the TCP listeners on a thread of their own (tracker-thread.ts), which reads the
 * connections, frames, decodes and acknowledges; this side looks terminals up and submits their
 * fixes to the ingest port, answering the thread once they committed. The main thread runs every
 * transaction and is what limits how fast a fleet's records are stored: in a burst, framing and
 * decoding there took about a quarter of its time.
 */
export function startTrackerThread(options: TrackerThreadOptions): Promise<TrackerListeners> {
  const { directory, ingest, logger } = options;
  const workerData: TrackerThreadData = {
    listeners: options.listeners,
    host: options.host,
    idleTimeoutMs: options.idleTimeoutMs,
    keyGuessLimits: options.keyGuessLimits,
    durabilityChannel: ingest.durabilityChannel,
    handOverNumbers: ingestBounds.trackerHandOverNumbers,
  };
  const thread = new Worker(new URL('./tracker-thread.js', import.meta.url), { workerData });
  const send = (message: ToTrackerThread) => thread.postMessage(message);
  /** Fixes handed over and not yet answered: closing waits for them. */
  let pending = 0;
  let settled: (() => void) | null = null;
  let onClosed: (() => void) | null = null;
  let exited = false;

  // Answers made ready together (a commit's frames, resolved in one run of microtasks) go in one message.
  let stored: number[] = [];
  let commit = DURABLE_ON_RETURN;
  let failed: [number, string][] = [];
  const flush = () => {
    send({ type: 'ingested', stored, commit, failed });
    stored = [];
    commit = DURABLE_ON_RETURN;
    failed = [];
  };
  const answer = (id: number, error?: unknown, storedIn = DURABLE_ON_RETURN) => {
    if (stored.length === 0 && failed.length === 0) queueMicrotask(flush);
    if (error === undefined) {
      stored.push(id);
      commit = commitSequence(Math.max(commit, storedIn));
    }
    // The thread logs it with the connection it drops; the message names no key (fixes carry none).
    else failed.push([id, error instanceof Error ? error.message : String(error)]);
    if (--pending === 0) settled?.();
  };

  /**
   * Frames handed over wait here, still packed (about 100 bytes a fix), while
   * ingestBounds.trackerFixesSubmitted of theirs are submitted: a burst from thousands of terminals
   * does not wait in the ingest queue as a hundred thousand objects. (The collector's share of a
   * burst fell with the young generation's size, `npm start`'s flag, not measurably with this.)
   */
  const waiting: { id: number; accountId: number; count: number; values: Float64Array; offset: number }[] = [];
  let waitingFrom = 0;
  let submitted = 0;
  const take = (requests: number[], values: Float64Array) => {
    let offset = 0;
    for (let i = 0; i < requests.length; i += INGEST_FIELDS) {
      const count = requests[i + 2]!;
      waiting.push({ id: requests[i]!, accountId: requests[i + 1]!, count, values, offset });
      offset = skipFixes(values, offset, count);
      pending++;
    }
    store();
  };
  const store = () => {
    while (waitingFrom < waiting.length && submitted < ingestBounds.trackerFixesSubmitted) {
      const { id, accountId, count, values, offset } = waiting[waitingFrom++]!;
      submitted += count;
      const done = (error?: unknown, storedIn?: CommitSequence) => {
        submitted -= count;
        answer(id, error, storedIn);
        store();
      };
      const { fixes } = unpackFixes(values, offset, count);
      ingest.submit({ source: 'tracker', accountId, fixes }).then(
        (storedIn) => done(undefined, storedIn),
        (error: unknown) => done(error ?? new Error('the fixes were not stored')),
      );
    }
    if (waitingFrom === waiting.length) {
      waiting.length = 0;
      waitingFrom = 0;
    }
  };

  const resolve = (id: number, protocol: DeviceProtocol, deviceKey: string, password: string | null, address: string | null) => {
    directory.authenticateDevice(protocol, deviceKey, password, address).then(
      // Only what the thread needs crosses: a refusal's outcome, an acceptance's owner.
      (login) => send({ type: 'resolved', id, login: login.outcome === 'accepted' ? { outcome: 'accepted', owner: { accountId: login.owner.accountId, subscriberId: login.owner.subscriberId, readingMap: login.owner.readingMap ?? null } } : { outcome: login.outcome } }),
      (error: unknown) => send({ type: 'resolved', id, login: { outcome: 'unknown' }, error: error instanceof Error ? error.message : String(error) }),
    );
  };

  const answerQuestion = (id: number, question: TrackerQuestion) => {
    const answer =
      question.kind === 'retranslator'
        ? (directory.authenticateRetranslator?.(question.dispatcherId, question.password) ?? Promise.resolve(null))
        : (directory.findDevice?.(question.protocol, question.deviceKey) ?? Promise.resolve(null));
    answer.then(
      (value) => send({ type: 'answered', id, answer: value }),
      (error: unknown) => send({ type: 'answered', id, answer: null, error: error instanceof Error ? error.message : String(error) }),
    );
  };

  return new Promise((started, failedToStart) => {
    thread.on('message', (message: FromTrackerThread) => {
      switch (message.type) {
        case 'ingest':
          return take(message.requests, message.fixes);
        case 'resolve':
          return resolve(message.id, message.protocol, message.deviceKey, message.password, message.address);
        case 'ask':
          return answerQuestion(message.id, message.question);
        case 'log':
          return logger[message.level](message.object, message.message);
        case 'listening':
          return started({
            ports: message.ports,
            close: async () => {
              if (!exited) {
                await new Promise<void>((closed) => {
                  onClosed = closed;
                  send({ type: 'close' });
                });
              }
              if (pending > 0) await new Promise<void>((done) => (settled = done));
              await thread.terminate();
            },
          });
        case 'listen-failed':
          void thread.terminate();
          return failedToStart(new Error(message.message));
        case 'closed':
          return onClosed?.();
      }
    });
    thread.on('error', (error) => {
      logger.error({ err: error }, 'the tracker thread failed');
      failedToStart(error);
    });
    // A thread that failed has no listeners left to close.
    thread.on('exit', () => {
      exited = true;
      onClosed?.();
    });
  });
}
