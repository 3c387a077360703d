import fastifyCookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyRequest, type RouteOptions } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../store/database.js';
import { version } from '../version.js';
import { applyConventions, clientErrorHandler, frameworkError, sendError } from './conventions.js';
import { docsSite } from './docs-site.js';
import { registerIdempotency } from './idempotency.js';
import { registerObservability, type Metrics } from './observability.js';
import { registerOpenApi } from './openapi.js';
import { principalKey, registerReplicaReads } from './replica-reads.js';
import { defaultRequestLimits, InFlightLimiter, serverWithDeadline } from './request-limits.js';
import type { Api, Routes } from './route-types.js';
import { validatorCompiler } from './validation.js';

const MANAGEMENT_BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  database: Database;
  metrics: Metrics;
  logger?: FastifyBaseLogger | boolean;
  /** REQUEST_TIMEOUT: a request must have arrived whole within this. */
  requestTimeoutMs?: number;
  /** TRUST_PROXY */
  trustProxy?: Config['TRUST_PROXY'];
  /** Why `/ready` answers 503 besides the database, or null (see registerObservability); default: never. */
  notReady?: () => string | null;
  /** Sees every route as it is added, the server's own included (the role check's declarations). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * The Fastify server with the conventions of CONTRACT §1 (the error envelope, validation, request
 * ids), cookies, the OpenAPI document and its reference, the documentation site at `/docs/`,
 * health and metrics; the modules' routes come on top.
 */
export async function createServer({ database, metrics, logger = false, requestTimeoutMs, trustProxy, notReady, onRoute }: ServerOptions): Promise<Api> {
  const app = Fastify({
    ...(typeof logger === 'boolean' ? { logger } : { loggerInstance: logger }),
    serverFactory: serverWithDeadline(requestTimeoutMs ?? defaultRequestLimits.requestTimeoutMs),
    bodyLimit: MANAGEMENT_BODY_LIMIT,
    // Room for the longest external id (200 characters), percent-encoded as UTF-8.
    routerOptions: { maxParamLength: 4096 },
    frameworkErrors: (error, _request, reply) => sendError(reply, frameworkError(error)),
    clientErrorHandler,
    requestIdHeader: 'x-request-id',
    // request.ip (sign-in throttling, logs) is the client's address only behind a trusted proxy;
    // otherwise X-Forwarded-For is anyone's to write and is ignored.
    trustProxy: trustProxy ?? false,
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  applyConventions(app);

  await app.register(fastifyCookie);
  await registerOpenApi(app, version);
  registerObservability(app, database, metrics, notReady);
  await app.register(docsSite());
  return app;
}

export interface ApiScope {
  database: Database;
  clock: () => number;
  /** Who is asking: sets `request.principal`, or refuses with 401. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** MAX_REQUESTS_IN_FLIGHT: one user's requests being served at once. */
  maxInFlightPerUser?: number;
  routes: readonly Routes[];
}

/** `/v6/api`: every request authenticated, each user's requests in flight bounded, idempotency keys and replica reads; then the modules' routes. */
export function apiRoutes({ database, clock, authenticate, maxInFlightPerUser, routes }: ApiScope): Routes {
  return async (api) => {
    api.addHook('onRequest', authenticate);
    // After authentication and before the body is read: one user cannot hold the server's memory.
    const inFlight = new InFlightLimiter(maxInFlightPerUser ?? defaultRequestLimits.maxInFlightPerUser);
    api.addHook('onRequest', async (request, reply) => inFlight.enter(principalKey(request), reply));
    registerIdempotency(api, database, clock);
    registerReplicaReads(api, database);
    for (const moduleRoutes of routes) await api.register(moduleRoutes);
  };
}

