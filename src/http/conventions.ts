import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { ApiError, toEnvelope } from './errors.js';
import { validationError } from './validation.js';

/**
 * The wire conventions of CONTRACT §1 that hold for every route: one error envelope on every
 * error path (validation, 404, 405, 413, 415, 500 without internals), JSON-only bodies, and
 * list parameters in any of the forms clients send.
 */
export function applyConventions(app: FastifyInstance): void {
  // Bodies are JSON only: without the text/plain parser anything else is a 415.
  app.removeContentTypeParser('text/plain');

  app.addHook('preValidation', async (request) => normaliseListParameters(request));

  // During shutdown, requests on kept-alive connections get the envelope rather than Fastify's own 503.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new ApiError('SERVICE_UNAVAILABLE', 'the server is shutting down', undefined, { connection: 'close' });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError);
  });

  const knownRoutes = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      try {
        knownRoutes.on(method.toUpperCase() as 'GET', route.url, () => {});
      } catch {
        // The same path may be declared twice by different plugins; one entry is enough.
      }
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => knownRoutes.find(m as 'GET', path));
    if (allowed.length > 0) {
      return sendError(
        reply,
        new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, undefined, {
          allow: allowed.join(', '),
        }),
      );
    }
    return sendError(reply, new ApiError('ROUTE_NOT_FOUND', `no route ${request.method} ${path}`));
  });
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.status).type('application/json; charset=utf-8').send(toEnvelope(error));
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    const part = error.validationContext ?? 'body';
    const input = part === 'body' ? request.body : part === 'params' ? request.params : request.query;
    return validationError(error.validation as never, part, input);
  }
  switch (error.statusCode) {
    case 413:
      return new ApiError('PAYLOAD_TOO_LARGE', 'request body is too large');
    case 415:
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json');
    case 429:
      return new ApiError('RATE_LIMITED', 'too many requests');
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own 4xx: malformed JSON, empty JSON body, bad content length.
    return new ApiError('BAD_REQUEST', error.message.replace(/^FST_\w+: /, ''));
  }
  return new ApiError('INTERNAL_SERVER_ERROR', 'internal server error');
}

/**
 * Lists in query strings come in three forms (CONTRACT §1): `ids=1&ids=2`, `ids=1,2` and
 * axios' `ids[]=1&ids[]=2`. Every array-typed query parameter is brought to one array here,
 * before validation, so the schema sees one shape.
 */
function normaliseListParameters(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  const properties = (request.routeOptions.schema?.querystring as { properties?: Record<string, { type?: string }> })
    ?.properties;
  if (!properties) return;
  for (const key of Object.keys(query)) {
    if (!key.endsWith('[]')) continue;
    const name = key.slice(0, -2);
    query[name] = [...toArray(query[name]), ...toArray(query[key])];
    delete query[key];
  }
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type !== 'array' || query[name] === undefined) continue;
    query[name] = toArray(query[name]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
  }
}

function toArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
