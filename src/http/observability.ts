import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../store/database.js';
import { ApiError } from './errors.js';
import { sendError } from './conventions.js';

export interface Metrics {
  registry: Registry;
  fixesIngested: Counter<'source'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    fixesIngested: new Counter({
      name: 'lokator_fixes_ingested_total',
      help: 'GPS fixes stored, by how they arrived (api or osmand)',
      labelNames: ['source'],
      registers: [registry],
    }),
  };
}

/**
 * `/health` (the process answers), `/ready` (the server takes devices' and clients' traffic: the
 * database answers, and `notReady` gives no reason, such as listeners not yet listening),
 * `/metrics` (Prometheus text).
 */
export function registerObservability(app: FastifyInstance, database: Database, metrics: Metrics, notReady: () => string | null = () => null): void {
  const duration = new Histogram({
    name: 'lokator_http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { route: request.routeOptions.url ?? 'unknown', method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const hidden = { schema: { hide: true } };
  app.get('/health', hidden, async () => ({ status: 'ok' }));
  app.get('/ready', hidden, async (request, reply) => {
    const reason = notReady();
    if (reason !== null) return sendError(reply, new ApiError('SERVICE_UNAVAILABLE', reason));
    try {
      await database.ping();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database is not reachable');
      return sendError(reply, new ApiError('SERVICE_UNAVAILABLE', 'database is not reachable'));
    }
  });
  app.get('/metrics', hidden, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
