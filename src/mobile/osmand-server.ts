import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { ApiError } from '../http/errors.js';
import { clientErrorHandler, frameworkError, sendError } from '../http/conventions.js';
import { defaultRequestLimits, serverWithDeadline } from '../http/request-limits.js';
import { UnknownDevice, type LocationService } from '../positioning/positioning.js';
import { defaultKeyGuessLimits, KeyGuessThrottle, keyFingerprint, type KeyGuessLimits } from './key-guess-throttle.js';
import { decodeOsmAnd, OsmAndError, type DecodedFix } from './osmand-decoder.js';

const MAX_FUTURE_MS = 24 * 3_600_000;

export interface OsmAndOptions {
  locations: LocationService;
  logger?: FastifyBaseLogger | boolean;
  clock?: () => number;
  /** REQUEST_TIMEOUT: a request must have arrived whole within this. */
  requestTimeoutMs?: number;
  /** How many unknown device keys one address may try before it is refused for a while. */
  keyGuessLimits?: KeyGuessLimits;
}

/**
 * The listener phones and trackers report to (OSMAND_PORT). Each request carries one fix and the
 * device key set on its employee. 200 means stored; like Traccar, an unknown device or a bad fix
 * is a 400, which the client logs and does not retry forever.
 */
export async function buildOsmAndServer({
  locations,
  logger = false,
  clock = Date.now,
  requestTimeoutMs = defaultRequestLimits.requestTimeoutMs,
  keyGuessLimits = defaultKeyGuessLimits,
}: OsmAndOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(typeof logger === 'boolean' ? { logger } : { loggerInstance: logger }),
    serverFactory: serverWithDeadline(requestTimeoutMs),
    bodyLimit: 64 * 1024,
    return503OnClosing: false,
    // Every request's URL carries the device key (`?id=`), the phone's only credential: no request log.
    disableRequestLogging: true,
    frameworkErrors: (error, _request, reply) => sendError(reply, frameworkError(error)),
    clientErrorHandler,
  });
  const throttle = new KeyGuessThrottle(keyGuessLimits, clock);
  await app.register(formbody);
  // Some trackers post the parameters as a bare body without a form content type.
  app.addContentTypeParser(['text/plain', '*'], { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseQueryString(String(body)));
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error);
    if (error.statusCode === 413) return sendError(reply, new ApiError('PAYLOAD_TOO_LARGE', 'request body is too large'));
    if (error.statusCode && error.statusCode < 500) return sendError(reply, new ApiError('BAD_REQUEST', error.message));
    request.log.error({ err: error }, 'osmand request failed');
    return sendError(reply, new ApiError('INTERNAL_SERVER_ERROR', 'internal server error'));
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const now = clock();
    let decoded;
    try {
      decoded = decodeOsmAnd(request.query as Record<string, unknown>, request.body, now);
    } catch (error) {
      if (error instanceof OsmAndError) throw new ApiError('BAD_REQUEST', error.message);
      throw error;
    }
    if (decoded.locationDateMs > now + MAX_FUTURE_MS) throw new ApiError('BAD_REQUEST', 'timestamp is more than 24 hours ahead');
    const key = keyFingerprint(decoded.deviceKey);
    const waitSeconds = throttle.retryAfterSeconds(request.ip, key);
    if (waitSeconds > 0) {
      throw new ApiError('RATE_LIMITED', 'too many unknown device keys from this address', undefined, { 'retry-after': String(waitSeconds) });
    }
    // The key's owner is resolved by the ingest queue (cached, checked in the transaction); unknown → 400.
    const { deviceKey, ...fix } = decoded;
    try {
      await ingestFix(deviceKey, fix);
    } catch (error) {
      if (error instanceof UnknownDevice) {
        if (throttle.failed(request.ip)) request.log.warn({ address: request.ip }, 'osmand: too many unknown device keys from one address; refusing new keys from it for a while');
        request.log.debug({ address: request.ip, key }, 'osmand: unknown device key');
      }
      throw error;
    }
    throttle.succeeded(request.ip, key);
    return reply.code(200).send();
  };
  // OsmAnd carries no vehicle readings.
  const ingestFix = (deviceKey: string, fix: Omit<DecodedFix, 'deviceKey'>) =>
    locations.ingestDeviceFix(deviceKey, { ...fix, externalPower: null, odometer: null, engineHours: null, sensors: null });
  app.setNotFoundHandler((request, reply) => sendError(reply, new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed; send GET or POST`, undefined, { allow: 'GET, POST' })));
  app.get('/health', async () => ({ status: 'ok' }));
  // Like Traccar, any path is the protocol: clients are often configured with `/osmand` or similar.
  app.get('/*', handle);
  app.post('/*', handle);
  return app;
}
