import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../audit/audit.js';
import type { Principal } from './account-service.js';

/**
 * Who a principal is in the audit log: the API token it came with (id and name), else its
 * workspace user (id and login). The one place that reads a principal for the log.
 */
export function actorOf(principal: Principal): AuditActor {
  if (principal.tokenID !== null) return { kind: 'token', id: principal.tokenID, name: principal.name };
  return { kind: 'user', id: principal.userID, name: principal.name };
}

/** The actor of a request once authentication has found its principal; null before (or without one). */
export function requestActor(request: FastifyRequest): AuditActor | null {
  const { principal } = request as { principal?: Principal };
  return principal ? actorOf(principal) : null;
}
