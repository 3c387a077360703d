import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { pino, type Logger } from 'pino';
import { ApiError, toEnvelope } from '../http/errors.js';
import { clientErrorHandler } from '../http/conventions.js';
import { defaultRequestLimits, deadlineOptions } from '../http/request-limits.js';
import { UnknownDevice, type LocationService } from '../positioning/positioning.js';
import { defaultKeyGuessLimits, KeyGuessThrottle, keyFingerprint, type KeyGuessLimits } from './key-guess-throttle.js';
import { decodeOsmAnd, OsmAndError } from './osmand-decoder.js';

const MAX_FUTURE_MS = 24 * 3_600_000;
const BODY_LIMIT_BYTES = 64 * 1024;
/** While closing, connections that went idle after `close()` began are looked for this often. */
const REAP_INTERVAL_MS = 100;

export interface OsmAndOptions {
  locations: LocationService;
  logger?: Logger | boolean;
  clock?: () => number;
  /** REQUEST_TIMEOUT: a request must have arrived whole within this. */
  requestTimeoutMs?: number;
  /** How many unknown device keys one address may try before it is refused for a while. */
  keyGuessLimits?: KeyGuessLimits;
}

/** The listener: `listen` once, `close` to stop taking fixes (requests in flight are answered first). */
export interface OsmAndListener {
  readonly server: Server;
  /** Resolves with the address it listens on (port 0: a free port). */
  listen(options: { port: number; host: string }): Promise<AddressInfo>;
  close(): Promise<void>;
}

/**
 * The listener phones and trackers report to (OSMAND_PORT). Each request carries one fix and the
 * device key set on its employee. 200 means stored; like Traccar, an unknown device or a bad fix
 * is a 400, which the client logs and does not retry forever. Every error is the envelope of
 * CONTRACT §1.
 *
 * Plain `node:http`, not Fastify: the protocol is one route with any path, and at fleet scale the
 * framework's per-request work (routing, hooks, reply, content-type plugins) cost as much as the
 * whole answer of a bare server (issue 13).
 */
export function buildOsmAndServer({
  locations,
  logger = false,
  clock = Date.now,
  requestTimeoutMs = defaultRequestLimits.requestTimeoutMs,
  keyGuessLimits = defaultKeyGuessLimits,
}: OsmAndOptions): OsmAndListener {
  const log = typeof logger === 'boolean' ? pino({ enabled: logger }) : logger;
  const throttle = new KeyGuessThrottle(keyGuessLimits, clock);
  let closing = false;

  const ingest = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method;
    const url = request.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      request.resume();
      throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed; send GET or POST`, undefined, { allow: 'GET, POST' });
    }
    if (path === '/health' && method !== 'POST') {
      request.resume();
      return answer(response, 200, JSON.stringify({ status: 'ok' }));
    }
    const body = method === 'POST' ? parseBody(request.headers['content-type'], await readBody(request)) : (request.resume(), undefined);
    // Like Traccar, any path is the protocol: clients are often configured with `/osmand` or similar.
    const query = mark < 0 ? {} : parseQueryString(url.slice(mark + 1));
    const now = clock();
    let decoded;
    try {
      decoded = decodeOsmAnd(query, body, now);
    } catch (error) {
      if (error instanceof OsmAndError) throw new ApiError('BAD_REQUEST', error.message);
      throw error;
    }
    if (decoded.locationDateMs > now + MAX_FUTURE_MS) throw new ApiError('BAD_REQUEST', 'timestamp is more than 24 hours ahead');
    const address = request.socket.remoteAddress ?? '';
    const key = keyFingerprint(decoded.deviceKey);
    const waitSeconds = throttle.retryAfterSeconds(address, key);
    if (waitSeconds > 0) {
      throw new ApiError('RATE_LIMITED', 'too many unknown device keys from this address', undefined, { 'retry-after': String(waitSeconds) });
    }
    // The key's owner is resolved by the ingest queue (cached, checked in the transaction); unknown → 400.
    // OsmAnd carries no vehicle readings.
    const { deviceKey, ...fix } = decoded;
    try {
      await locations.ingestDeviceFix(deviceKey, { ...fix, externalPower: null, odometer: null, engineHours: null, sensors: null });
    } catch (error) {
      if (error instanceof UnknownDevice) {
        if (throttle.failed(address)) log.warn({ address }, 'osmand: too many unknown device keys from one address; refusing new keys from it for a while');
        log.debug({ address, key }, 'osmand: unknown device key');
      }
      throw error;
    }
    throttle.succeeded(address, key);
    answer(response, 200, '');
  };

  const answer = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    if (response.headersSent || response.destroyed) return;
    // During shutdown the connection ends with this answer, so closing does not wait for the client to hang up.
    if (closing) headers.connection = 'close';
    if (body !== '') headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(body));
    response.writeHead(status, headers);
    response.end(body);
  };

  const server = createServer(deadlineOptions(requestTimeoutMs), (request, response) => {
    ingest(request, response).catch((error: unknown) => {
      const apiError = error instanceof ApiError ? error : new ApiError('INTERNAL_SERVER_ERROR', 'internal server error');
      if (!(error instanceof ApiError)) log.error({ err: error }, 'osmand request failed');
      answer(response, apiError.status, JSON.stringify(toEnvelope(apiError)), { ...apiError.headers });
    });
  });
  server.on('clientError', clientErrorHandler);

  return {
    server,
    listen: ({ port, host }) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          log.info({ address }, 'osmand listener is listening');
          resolve(address);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        closing = true;
        // A keep-alive connection whose request is in flight goes idle only once it is answered
        // (after its commit is on disk), later than close() looks for idle connections.
        const reaper = setInterval(() => server.closeIdleConnections(), REAP_INTERVAL_MS);
        server.close(() => {
          clearInterval(reaper);
          resolve();
        });
        if (!server.listening) {
          clearInterval(reaper);
          resolve();
        }
      }),
  };
}

/** The body as text, refused with 413 past the limit (announced or sent). */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', 'request body is too large', undefined, { connection: 'close' });
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) {
      request.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > BODY_LIMIT_BYTES) {
        request.removeAllListeners('data');
        request.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks, length).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A JSON body (Traccar Client 9+) parsed as JSON; anything else (a form, text/plain, a bare body
 * without a content type, as some trackers send) as a query string.
 */
function parseBody(contentType: string | undefined, text: string): unknown {
  const mediaType = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
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
