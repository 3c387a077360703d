import type { AuditActor } from '../audit/audit.js';
import type { Principal } from './account-service.js';

/**
 * Who a principal is in the audit log: the API token it came with (id and name), else its
 * workspace user (id and login). The one place that reads a principal for the log.
 */
export function actorOf(principal: Principal, login?: string): AuditActor {
  if (principal.tokenID !== undefined) return { kind: 'token', id: principal.tokenID, name: principal.tokenName ?? null };
  return { kind: 'user', id: principal.userID, name: login ?? null };
}
