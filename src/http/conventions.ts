import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, invalidField, toEnvelope } from './errors.js';
import { validationError } from './validation.js';

/**
 * The wire conventions of CONTRACT §1 that hold for every route: one error envelope on every
 * error path (validation, 404, 405, 413, 415, 500 without internals), JSON-only bodies, and
 * list parameters in any of the forms clients send.
 */
export function applyConventions(app: FastifyInstance): void {
  // Bodies are JSON only: without the text/plain parser anything else is a 415.
  app.removeContentTypeParser('text/plain');

  app.addHook('preValidation', async (request) => {
    normaliseListParameters(request);
    refuseMalformedText(request);
    refuseLenientNumbers(request);
  });

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

/** Errors Fastify raises before routing (an undecodable URL, an overlong path parameter). */
export function frameworkError(error: FastifyError): ApiError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return new ApiError('BAD_REQUEST', 'a path parameter is too long');
  return new ApiError('BAD_REQUEST', 'the URL cannot be decoded');
}

/**
 * Requests Node cannot even parse (headers or URL too large, malformed HTTP) get the envelope too,
 * written straight to the socket since there is no request to reply to.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('REQUEST_TIMEOUT', 'the request did not arrive in time')
      : new ApiError('BAD_REQUEST', error.code === 'HPE_HEADER_OVERFLOW' ? 'request headers or URL too large' : 'malformed request');
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : apiError.status;
  const body = JSON.stringify({ ...toEnvelope(apiError), status });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
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

type PropertySchema = { type?: string; items?: PropertySchema; anyOf?: PropertySchema[] };

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * Numbers in paths and query strings are decimal digits and nothing else (CONTRACT §1: a
 * non-integer is 400 code 2). Ajv's coercion would read `0x10`, `0b10`, `2e0`, `+2`, `2.0`,
 * ` 2` and `Infinity` as numbers (it uses JavaScript's `Number()`), so the text is checked first.
 */
function refuseLenientNumbers(request: FastifyRequest): void {
  const schema = request.routeOptions.schema as { params?: unknown; querystring?: unknown } | undefined;
  checkNumbersIn(request.params, schema?.params);
  checkNumbersIn(request.query, schema?.querystring);
}

function checkNumbersIn(input: unknown, schema: unknown): void {
  const properties = (schema as { properties?: Record<string, PropertySchema> } | undefined)?.properties;
  if (!properties || !input || typeof input !== 'object') return;
  for (const [name, property] of Object.entries(properties)) {
    const value = (input as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const isList = property.type === 'array';
    const kind = numericKind(isList ? property.items : property);
    if (!kind) continue;
    const pattern = kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT;
    for (const item of isList ? toArray(value) : [value]) {
      if (typeof item === 'string' && !pattern.test(item)) {
        throw invalidField(name, kind === 'integer' ? 'must be an integer in decimal digits' : 'must be a decimal number');
      }
    }
  }
}

function numericKind(schema: PropertySchema | undefined): 'integer' | 'number' | null {
  if (!schema) return null;
  if (schema.type === 'integer' || schema.type === 'number') return schema.type;
  for (const branch of schema.anyOf ?? []) {
    const kind = numericKind(branch);
    if (kind) return kind;
  }
  return null;
}

/**
 * Text must be well-formed Unicode without NUL: PostgreSQL cannot store U+0000, and a lone
 * surrogate would be stored as U+FFFD, so either would change what the client sent.
 */
const MAX_DEPTH = 32;

function refuseMalformedText(request: FastifyRequest): void {
  const check = (value: unknown, path: string, depth = 0): void => {
    if (depth > MAX_DEPTH) throw invalidField(path || 'body', 'is nested too deeply');
    if (typeof value === 'string') {
      if (value.includes('\u0000') || !(value as string & { isWellFormed(): boolean }).isWellFormed()) {
        throw invalidField(path || 'body', 'must be well-formed text without NUL characters');
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => check(item, `${path}[${i}]`, depth + 1));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) check(item, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  check(request.params, '');
  check(request.query, '');
  check(request.body, '');
  refuseMalformedUrl(request.raw.url ?? '');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Percent-encoded bytes of a URL must be UTF-8. The query parser turns a malformed sequence (a
 * lone surrogate in CESU-8, a cut character) into U+FFFD, so a filter would quietly search for
 * something else than what was sent; it is refused instead.
 */
function refuseMalformedUrl(url: string): void {
  if (!/%[89a-f]/i.test(url)) return;
  const bytes: number[] = [];
  for (let i = 0; i < url.length; i += 1) {
    if (url[i] === '%' && /^[0-9a-f]{2}$/i.test(url.slice(i + 1, i + 3))) {
      bytes.push(parseInt(url.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(url[i]!, 'utf8'));
    }
  }
  try {
    strictUtf8.decode(Uint8Array.from(bytes));
  } catch {
    throw invalidField('url', 'percent-encoded text must be UTF-8');
  }
}

function toArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
