import type { Database, Db, Tx } from '../store/database.js';
import { changesBetween, type AuditChanges } from './audit-changes.js';
import { currentActor, type AuditActor } from './audit-context.js';
import { deleteAuditEntriesBefore, insertAuditEntry, listAuditEntries, type AuditFilter } from './audit-store.js';

/** One thing that happened to one object, as the module that did it describes it. */
export interface AuditEvent {
  /** `<object>.<verb>`: `employee.create`, `zone.delete`, `session.signInFailed`, … */
  kind: string;
  objectId?: number | null;
  /** The object before and after (null or absent on creation or deletion); only the fields that differ are kept. */
  before?: object | null;
  after?: object | null;
  /** Changes given as they are (a failed sign-in's login), when there is no object to compare. */
  changes?: AuditChanges;
}

export interface AuditEntry {
  auditID: number;
  atMs: number;
  actor: AuditActor;
  address: string | null;
  kind: string;
  objectID: number | null;
  changes: AuditChanges;
}

/**
 * Writes and reads the audit log. Modules record a change in the transaction that makes it, so
 * an entry exists exactly when its change does; the actor and address are the current request's.
 */
export class AuditLog {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number,
  ) {}

  /**
   * Records an event of the account in `executor` (the change's transaction). An edit that changed
   * no field is not recorded.
   */
  async record(executor: Db | Tx, accountId: number, event: AuditEvent): Promise<void> {
    const { actor, address } = currentActor();
    await this.recordAs(executor, accountId, actor, address, event);
  }

  /** `record` with the actor and address given: a sign-in, before any principal exists. */
  async recordAs(executor: Db | Tx, accountId: number, actor: AuditActor, address: string | null, event: AuditEvent): Promise<void> {
    const changes = event.changes ?? changesBetween(event.before ?? null, event.after ?? null);
    if (event.before && event.after && Object.keys(changes).length === 0) return;
    await insertAuditEntry(executor, {
      accountId,
      at: this.clock(),
      actorKind: actor.kind,
      actorId: actor.id,
      actorLabel: actor.name,
      address,
      kind: event.kind,
      objectId: event.objectId ?? null,
      changes: JSON.stringify(changes),
    });
  }

  async list(accountId: number, filter: AuditFilter): Promise<AuditEntry[]> {
    const rows = await listAuditEntries(this.database.db, accountId, filter);
    return rows.map((row) => ({
      auditID: row.id,
      atMs: row.at,
      actor: { kind: row.actor_kind as AuditActor['kind'], id: row.actor_id, name: row.actor_label },
      address: row.address,
      kind: row.kind,
      objectID: row.object_id,
      changes: JSON.parse(row.changes) as AuditChanges,
    }));
  }

  /** The account's entries older than the cut-off, at most `limit` (one retention batch); the number removed. */
  purgeBefore(accountId: number, beforeMs: number, limit: number): Promise<number> {
    return deleteAuditEntriesBefore(this.database.db, accountId, beforeMs, limit);
  }
}
