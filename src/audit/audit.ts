/** The face of audit: the account's log of who changed what (see .dependency-cruiser.mjs). */
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { AuditLog } from './audit-log.js';
import { auditRoutes } from './audit-routes.js';

/** What a module that changes things records, in the transaction of its change. */
export type AuditRecorder = Pick<AuditLog, 'record' | 'recordAs'>;
/** What retention removes of the log. */
export type AuditRetention = Pick<AuditLog, 'purgeBefore'>;

export interface AuditDependencies {
  database: Database;
  clock?: () => number;
}

export interface Audit extends AuditRecorder, AuditRetention {
  /** Under `/v6/api`: the audit log. */
  routes: Routes;
}

export function createAudit({ database, clock = Date.now }: AuditDependencies): Audit {
  const log = new AuditLog(database, clock);
  return {
    record: (executor, accountId, event) => log.record(executor, accountId, event),
    recordAs: (executor, accountId, actor, address, event) => log.recordAs(executor, accountId, actor, address, event),
    purgeBefore: (accountId, beforeMs, limit) => log.purgeBefore(accountId, beforeMs, limit),
    routes: auditRoutes(log),
  };
}

/** A recorder that records nothing: for a module used on its own (a tool, a test of something else). */
export const noAudit: AuditRecorder = { record: async () => {}, recordAs: async () => {} };

export { REDACTED, changesBetween } from './audit-changes.js';
export type { AuditChanges } from './audit-changes.js';
export { runInRequestContext, SYSTEM_ACTOR } from './audit-context.js';
export type { AuditActor, RequestContext } from './audit-context.js';
export type { AuditEvent } from './audit-log.js';
