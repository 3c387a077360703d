import type { Audience, Operation } from './openapi-document.js';
import { pathFor, queryVariants, withQuery } from './requests.js';
import { ownCredential, send, type Tenant } from './tenants.js';

const AUDIT_LOG = '/v6/api/accountManagement/auditLog';

/**
 * A tenant's data as its own reads show it: every GET of the API in the document (and of the
 * operator's routes when asked: they list every account), item routes
 * with the tenant's ids, list routes with each query variant (`interval=1|2|3`, each id filter).
 * Two snapshots that differ mean a request changed something it should not have.
 */
export async function snapshot(baseUrl: string, operations: Operation[], tenant: Tenant, audiences: Audience[] = ['api']): Promise<Map<string, unknown>> {
  const reads = new Map<string, unknown>();
  for (const operation of operations) {
    if (operation.method !== 'GET' || !audiences.includes(operation.audience)) continue;
    // The audit log records every sign-in and attempt, refused or not: by design it is not data that stays the same.
    if (operation.path === AUDIT_LOG) continue;
    const path = pathFor(operation, tenant.ids);
    for (const { query } of queryVariants(operation, tenant.ids)) {
      const target = withQuery(path, query);
      const r = await send(baseUrl, { method: 'GET', path: target, headers: ownCredential(tenant, operation.audience, 'GET') });
      reads.set(target, { status: r.status, body: r.body });
    }
  }
  return reads;
}

/** The reads that differ, each named by its path with the two answers. */
export function snapshotDifferences(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const differences: string[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (JSON.stringify(now) !== JSON.stringify(was)) {
      differences.push(`GET ${path} changed: before ${JSON.stringify(was).slice(0, 300)} after ${JSON.stringify(now).slice(0, 300)}`);
    }
  }
  return differences;
}
