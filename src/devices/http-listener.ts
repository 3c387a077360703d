import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { Worker } from 'node:worker_threads';
import { pino, type Logger } from 'pino';
import { ApiError, toEnvelope } from '../http/errors.js';
import { defaultRequestLimits } from '../http/request-limits.js';
import { UnknownDevice, type IngestPort } from '../positioning/positioning.js';
import { commitSequence, DURABLE_ON_RETURN, type CommitSequence } from '../store/commit-sequence.js';
import { defaultKeyGuessLimits, KeyGuessThrottle, keyFingerprint, type KeyGuessLimits } from '../http/key-guess-throttle.js';
import { DeviceRequestError, type HttpDeviceProtocol } from './device-protocol.js';
import { REQUEST_FIELDS, type FromHttpThread, type HttpThreadData, type OtherAnswer, type ToHttpThread } from './http-listener-messages.js';
import { applyReadingMap } from './reading-map.js';

const MAX_FUTURE_MS = 24 * 3_600_000;

export interface HttpListenerOptions {
  /** The protocol it speaks (protocols.ts). */
  protocol: HttpDeviceProtocol;
  /** Where the fixes go; an answer is sent once the port says its commit is durable. */
  ingest: IngestPort;
  logger?: Logger | boolean;
  clock?: () => number;
  /** REQUEST_TIMEOUT: a request must have arrived whole within this. */
  requestTimeoutMs?: number;
  /** How many unknown device keys one address may try before it is refused for a while. */
  keyGuessLimits?: KeyGuessLimits;
}

/** The listener: `listen` once, `close` to stop taking fixes (requests in flight are answered first). */
export interface HttpListener {
  /** Resolves with the address it listens on (port 0: a free port). */
  listen(options: { port: number; host: string }): Promise<AddressInfo>;
  close(): Promise<void>;
}

/**
 * The listener of an HTTP protocol (OsmAnd's, on OSMAND_PORT, for phones and trackers). Each
 * request carries one fix and the device key set on its employee. 200 means stored; like Traccar,
 * an unknown device or a bad fix is a 400, which the client logs and does not retry forever.
 * Every error is the envelope of CONTRACT §1.
 *
 * Plain `node:http` (the protocol is one route with any path; Fastify's per-request work cost as
 * much as a bare server's whole answer), on a thread of its own (http-listener-thread.ts): reading
 * requests and writing answers was a third of the main thread's time at fleet scale, and the main
 * thread, which runs every transaction, is what limits the rate. This side decodes each request
 * with the protocol's decoder and default reading map, applies the key-guess throttle and submits
 * the fix to the ingest port.
 */
export function buildHttpListener({
  protocol,
  ingest,
  logger = false,
  clock = Date.now,
  requestTimeoutMs = defaultRequestLimits.requestTimeoutMs,
  keyGuessLimits = defaultKeyGuessLimits,
}: HttpListenerOptions): HttpListener {
  const log = typeof logger === 'boolean' ? pino({ enabled: logger }) : logger;
  const throttle = new KeyGuessThrottle(keyGuessLimits, clock);
  const { name } = protocol;
  const workerData: HttpThreadData = { requestTimeoutMs, durabilityChannel: ingest.durabilityChannel };
  const http = new Worker(new URL('./http-listener-thread.js', import.meta.url), { workerData });
  const send = (message: ToHttpThread) => http.postMessage(message);
  let onListening: ((message: FromHttpThread) => void) | null = null;
  let onClosed: (() => void) | null = null;

  /** One request's answer body, '' for an empty 200 (stored), and the commit that must be on disk before it is sent. */
  const handle = async (method: string, address: string, url: string, contentType: string, text: string): Promise<[body: string, commit: CommitSequence]> => {
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    if (path === '/health' && method !== 'POST') return [JSON.stringify({ status: 'ok' }), DURABLE_ON_RETURN];
    const body = method === 'POST' ? parseBody(contentType, text) : undefined;
    // Like Traccar, any path is the protocol: clients are often configured with `/osmand` or similar.
    const query = mark < 0 ? {} : parseQueryString(url.slice(mark + 1));
    const now = clock();
    let decoded;
    try {
      decoded = protocol.decode(query, body, now);
    } catch (error) {
      if (error instanceof DeviceRequestError) throw new ApiError('BAD_REQUEST', error.message);
      throw error;
    }
    if (decoded.locationDateMs > now + MAX_FUTURE_MS) throw new ApiError('BAD_REQUEST', 'timestamp is more than 24 hours ahead');
    const key = keyFingerprint(decoded.deviceKey);
    const waitSeconds = throttle.retryAfterSeconds(address, key);
    if (waitSeconds > 0) {
      throw new ApiError('RATE_LIMITED', 'too many unknown device keys from this address', undefined, { 'retry-after': String(waitSeconds) });
    }
    // The key's owner is resolved by the ingest port (cached, checked in the transaction); unknown → 400.
    const { deviceKey, readings, ...position } = decoded;
    const fix = { ...position, ...applyReadingMap(readings, protocol.defaultReadingMap) };
    let commit;
    try {
      commit = await ingest.submit({ source: name, deviceKey, fix });
    } catch (error) {
      if (error instanceof UnknownDevice) {
        if (throttle.failed(address)) log.warn({ address }, `${name}: too many unknown device keys from one address; refusing new keys from it for a while`);
        log.debug({ address, key }, `${name}: unknown device key`);
      }
      throw error;
    }
    throttle.succeeded(address, key);
    return ['', commit];
  };

  // Answers made ready together (a commit's frames, resolved in one run of microtasks) go to the
  // HTTP thread together, at once: not after the ingest queue's next transaction, which a
  // setImmediate here would wait for (the queue starts it from a setImmediate queued earlier).
  // The HTTP thread sends the stored ones once their commit is on disk, as the durability
  // channel tells it, without waiting for this thread to hear of it.
  let ok: number[] = [];
  let commit = DURABLE_ON_RETURN;
  let others: OtherAnswer[] = [];
  const flush = () => {
    send({ type: 'answers', ok, commit, others });
    ok = [];
    commit = DURABLE_ON_RETURN;
    others = [];
  };
  const reply = (id: number, status: number, body: string, headers: Record<string, string> = {}, storedIn = DURABLE_ON_RETURN) => {
    if (ok.length === 0 && others.length === 0) queueMicrotask(flush);
    if (status === 200 && body === '') {
      ok.push(id);
      commit = commitSequence(Math.max(commit, storedIn));
    } else others.push([id, status, body, headers]);
  };
  const take = (fields: string[]) => {
    for (let i = 0; i < fields.length; i += REQUEST_FIELDS) {
      const id = Number(fields[i]);
      handle(fields[i + 1]!, fields[i + 2]!, fields[i + 3]!, fields[i + 4]!, fields[i + 5]!).then(
        ([body, storedIn]) => reply(id, 200, body, {}, storedIn),
        (error: unknown) => {
          const apiError = error instanceof ApiError ? error : new ApiError('INTERNAL_SERVER_ERROR', 'internal server error');
          if (!(error instanceof ApiError)) log.error({ err: error }, `${name} request failed`);
          reply(id, apiError.status, JSON.stringify(toEnvelope(apiError)), { ...apiError.headers });
        },
      );
    }
  };

  http.on('message', (message: FromHttpThread) => {
    switch (message.type) {
      case 'requests':
        return take(message.fields);
      case 'failed':
        return log.error({ err: message.message }, `${name} request failed`);
      case 'listening':
      case 'listen-failed':
        return onListening?.(message);
      case 'closed':
        return onClosed?.();
    }
  });
  http.on('error', (error) => log.error({ err: error }, `${name}: the HTTP thread failed`));

  return {
    listen: ({ port, host }) =>
      new Promise((resolve, reject) => {
        onListening = (message) => {
          onListening = null;
          if (message.type === 'listening') {
            log.info({ address: message.address }, `${name} listener is listening`);
            resolve(message.address);
          } else if (message.type === 'listen-failed') reject(new Error(message.message));
        };
        send({ type: 'listen', port, host });
      }),
    close: () =>
      new Promise((resolve) => {
        onClosed = () => {
          onClosed = null;
          void http.terminate().then(() => resolve());
        };
        send({ type: 'close' });
      }),
  };
}

/**
 * A JSON body (Traccar Client 9+) parsed as JSON; anything else (a form, text/plain, a bare body
 * without a content type, as some trackers send) as a query string.
 */
function parseBody(contentType: string, text: string): unknown {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') {
    if (text === '') throw new ApiError('BAD_REQUEST', "Body cannot be empty when content-type is set to 'application/json'");
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ApiError('BAD_REQUEST', 'the body is not valid JSON');
    }
  }
  return text === '' ? undefined : parseQueryString(text);
}
