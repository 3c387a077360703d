import type { FastifyRequest } from 'fastify';
import type { Database } from '../store/database.js';
import { registerIdempotency, type IdempotencyScope } from './idempotency.js';
import type { Routes } from './route-types.js';

export interface MobileScopeOptions {
  database: Database;
  clock: () => number;
  /** Sets who is asking from `Authorization: Device <deviceKey>`, or throws the 401. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** Whose `Idempotency-Key`s a request's are: the account's, apart per employee. */
  idempotencyScope: IdempotencyScope;
  routes: Routes[];
}

/**
 * `/mobile/v1`: the employee's app and phone, outside the bearer-token scope. Every route is
 * authenticated by its device key before the body is read, and every write may carry an
 * `Idempotency-Key` (CONTRACT §7): a phone that lost an answer sends the same request again.
 */
export function mobileRoutes({ database, clock, authenticate, idempotencyScope, routes }: MobileScopeOptions): Routes {
  return async (mobile) => {
    mobile.addHook('onRequest', authenticate);
    registerIdempotency(mobile, database, clock, idempotencyScope);
    for (const moduleRoutes of routes) await mobile.register(moduleRoutes);
  };
}
