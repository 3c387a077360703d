import { Worker } from 'node:worker_threads';
import type { DeviceProtocol } from '../employees/employees.js';
import type { KeyGuessLimits } from '../http/key-guess-throttle.js';
import { INGEST_FIELDS, skipFixes, unpackFixes, type FromTrackerThread, type TrackerQuestion, type ToTrackerThread, type TrackerProtocolName, type TrackerThreadData } from './tracker-thread-messages.js';
import type { Fix } from '../positioning/positioning.js';
import type { TrackerLogger, TrackerSink } from './tracker-server.js';

/** Fixes handed to the ingest queue and not yet committed, at most (a frame's are never split). */
const MAX_FIXES_STORING = 8192;

export interface TrackerPorts {
  /** EGTS_PORT, WIALON_IPS_PORT, TELTONIKA_PORT; 0 leaves that listener off. */
  egts: number;
  wialon: number;
  teltonika: number;
}

export interface TrackerListeners {
  /** The port each protocol listens on. */
  readonly ports: Partial<Record<TrackerProtocolName, number>>;
  /** Stops listening and drops the connections; resolves once every frame handed over is stored or refused. */
  close(): Promise<void>;
}

/**
 * A sink whose commits the tracker thread hears of itself: `ingestVisible` resolves as soon as the
 * fixes' commit is visible, with its number, and the thread acknowledges the frame once
 * `durabilityChannel` announces that commit on disk, without waiting for the main thread, busy
 * with the next group's transaction by then, to hear of the sync (as the OsmAnd listener does).
 */
export interface ThreadTrackerSink extends TrackerSink {
  ingestVisible(accountId: number, fixes: Fix[]): Promise<number>;
  readonly durabilityChannel: string | null;
}

export interface TrackerThreadOptions {
  /** Port 0: a free one. */
  listeners: { protocol: TrackerProtocolName; port: number }[];
  host: string;
  idleTimeoutMs: number;
  /** A plain TrackerSink (tests) resolves once its fixes are stored, and they are acknowledged then. */
  sink: TrackerSink | ThreadTrackerSink;
  logger: TrackerLogger;
  /** How many unknown keys one address may try (one throttle for every port of the thread). */
  keyGuessLimits?: KeyGuessLimits;
}

/** The tracker listeners `npm start` runs, one protocol per port, all on one thread (`startTrackerThread`). */
export async function startTrackerListeners(options: Omit<TrackerThreadOptions, 'listeners'> & { ports: TrackerPorts }): Promise<TrackerListeners> {
  const { ports, ...rest } = options;
  const listeners = (['egts', 'wialon', 'teltonika'] as const).filter((protocol) => ports[protocol] !== 0).map((protocol) => ({ protocol, port: ports[protocol] }));
  if (listeners.length === 0) return { ports: {}, close: async () => {} };
  return startTrackerThread({ ...rest, listeners });
}

/**
 * Starts the listeners on a thread of their own (tracker-thread.ts), which reads the connections,
 * frames, decodes and acknowledges; this side looks terminals up and stores their fixes through
 * `sink` (the ingest queue), answering the thread once they committed. The main thread runs
 * every transaction and is what limits how fast a fleet's records are stored: in a burst, framing
 * and decoding there took about a quarter of its time (issue 14).
 */
export function startTrackerThread(options: TrackerThreadOptions): Promise<TrackerListeners> {
  const { sink, logger } = options;
  const visible = 'ingestVisible' in sink ? sink : null;
  const workerData: TrackerThreadData = {
    listeners: options.listeners, host: options.host, idleTimeoutMs: options.idleTimeoutMs, keyGuessLimits: options.keyGuessLimits,
    durabilityChannel: visible?.durabilityChannel ?? null,
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
  let storedAfter = 0;
  let failed: [number, string][] = [];
  const flush = () => {
    send({ type: 'ingested', stored, storedAfter, failed });
    stored = [];
    storedAfter = 0;
    failed = [];
  };
  const answer = (id: number, error?: unknown, commit = 0) => {
    if (stored.length === 0 && failed.length === 0) queueMicrotask(flush);
    if (error === undefined) {
      stored.push(id);
      storedAfter = Math.max(storedAfter, commit);
    }
    // The thread logs it with the connection it drops; the message names no key (fixes carry none).
    else failed.push([id, error instanceof Error ? error.message : String(error)]);
    if (--pending === 0) settled?.();
  };

  /**
   * Frames handed over wait here, still packed (about 100 bytes a fix), while MAX_FIXES_STORING of
   * theirs are being stored: a burst from thousands of terminals does not wait in the ingest queue
   * as a hundred thousand objects. (The collector's share of a burst fell with the young
   * generation's size, `npm start`'s flag, not measurably with this.)
   */
  const waiting: { id: number; accountId: number; count: number; values: Float64Array; offset: number }[] = [];
  let waitingFrom = 0;
  let storing = 0;
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
    while (waitingFrom < waiting.length && storing < MAX_FIXES_STORING) {
      const { id, accountId, count, values, offset } = waiting[waitingFrom++]!;
      storing += count;
      const done = (error?: unknown, commit?: number) => {
        storing -= count;
        answer(id, error, commit);
        store();
      };
      const { fixes } = unpackFixes(values, offset, count);
      (visible ? visible.ingestVisible(accountId, fixes) : sink.ingest(accountId, fixes).then(() => 0)).then(
        (commit) => done(undefined, commit),
        (error: unknown) => done(error ?? new Error('the fixes were not stored')),
      );
    }
    if (waitingFrom === waiting.length) {
      waiting.length = 0;
      waitingFrom = 0;
    }
  };

  const resolve = (id: number, protocol: DeviceProtocol, deviceKey: string, password: string | null) => {
    sink.authenticateDevice(protocol, deviceKey, password).then(
      // Only what the thread needs crosses: a refusal's outcome, an acceptance's owner.
      (login) => send({ type: 'resolved', id, login: login.outcome === 'accepted' ? { outcome: 'accepted', owner: { accountId: login.owner.accountId, subscriberId: login.owner.subscriberId, readingMap: login.owner.readingMap ?? null } } : { outcome: login.outcome } }),
      (error: unknown) => send({ type: 'resolved', id, login: { outcome: 'unknown' }, error: error instanceof Error ? error.message : String(error) }),
    );
  };

  const answerQuestion = (id: number, question: TrackerQuestion) => {
    const answer =
      question.kind === 'retranslator'
        ? (sink.authenticateRetranslator?.(question.dispatcherId, question.password) ?? Promise.resolve(null))
        : (sink.findDevice?.(question.protocol, question.deviceKey) ?? Promise.resolve(null));
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
          return resolve(message.id, message.protocol, message.deviceKey, message.password);
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
