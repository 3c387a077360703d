import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import type { EmployeeService } from '../employees/employee-service.js';
import { ApiError } from '../http/errors.js';
import { sendError } from '../http/conventions.js';
import type { LocationService } from '../positioning/location-service.js';
import { decodeOsmAnd, OsmAndError } from './osmand-decoder.js';

const MAX_FUTURE_MS = 24 * 3_600_000;

export interface OsmAndOptions {
  employees: EmployeeService;
  locations: LocationService;
  logger?: FastifyBaseLogger | boolean;
  clock?: () => number;
}

/**
 * The listener phones and trackers report to (OSMAND_PORT). Each request carries one fix and the
 * device key set on its employee. 200 means stored; like Traccar, an unknown device or a bad fix
 * is a 400, which the client logs and does not retry forever.
 */
export async function buildOsmAndServer({ locations, logger = false, clock = Date.now }: OsmAndOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(typeof logger === 'boolean' ? { logger } : { loggerInstance: logger }),
    bodyLimit: 64 * 1024,
    return503OnClosing: false,
  });
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
    // The key's owner is resolved by the ingest queue (cached, checked in the transaction); unknown → 400.
    const { deviceKey, ...fix } = decoded;
    await locations.ingestDeviceFix(deviceKey, {
      ...fix,
      externalPower: null,
      odometer: null,
      engineHours: null,
      sensors: null,
    });
    return reply.code(200).send();
  };
  app.get('/health', async () => ({ status: 'ok' }));
  // Like Traccar, any path is the protocol: clients are often configured with `/osmand` or similar.
  app.get('/*', handle);
  app.post('/*', handle);
  return app;
}
