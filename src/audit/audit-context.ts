import { AsyncLocalStorage } from 'node:async_hooks';

/** Who did something, as the audit log keeps it: a workspace user, an API token, or the service itself. */
export interface AuditActor {
  kind: 'user' | 'token' | 'system';
  /** The user's or token's id; null for the service. */
  id: number | null;
  /** The user's login or the token's name when known. */
  name: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { kind: 'system', id: null, name: null };

/**
 * The request a change is made in: its client's address, and its actor once authentication has
 * found it. Each request runs in its own context (see `runInRequestContext`), so the modules that
 * record changes need not carry the request through their services: a change made outside any
 * request (a worker, the first start) is the service's.
 */
export interface RequestContext {
  address: string | null;
  actor: () => AuditActor | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `next` (the rest of a request's handling) in the request's context. */
export function runInRequestContext(context: RequestContext, next: () => void): void {
  storage.run(context, next);
}

/** The actor and address of the request being handled; the service's, with no address, outside one. */
export function currentActor(): { actor: AuditActor; address: string | null } {
  const context = storage.getStore();
  return { actor: context?.actor() ?? SYSTEM_ACTOR, address: context?.address ?? null };
}
