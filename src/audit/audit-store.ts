import type { Db, Tx } from '../store/database.js';

/** The statements of the audit log; each names the account. */

export interface AuditEntryRow {
  id: number;
  at: number;
  actor_kind: string;
  actor_id: number | null;
  actor_label: string | null;
  address: string | null;
  kind: string;
  object_id: number | null;
  changes: string;
}

export interface NewAuditEntry {
  accountId: number;
  at: number;
  actorKind: string;
  actorId: number | null;
  actorLabel: string | null;
  address: string | null;
  kind: string;
  objectId: number | null;
  changes: string;
}

/** One entry, in the caller's transaction when it makes the change the entry describes. */
export async function insertAuditEntry(executor: Db | Tx, entry: NewAuditEntry): Promise<void> {
  await executor
    .insertInto('audit_entries')
    .values({
      account_id: entry.accountId,
      at: entry.at,
      actor_kind: entry.actorKind,
      actor_id: entry.actorId,
      actor_label: entry.actorLabel,
      address: entry.address,
      kind: entry.kind,
      object_id: entry.objectId,
      changes: entry.changes,
    })
    .execute();
}

export interface AuditFilter {
  beforeId: number | null;
  count: number;
  actorKind: 'user' | 'token' | null;
  actorId: number | null;
  /** `employee` matches `employee.update`; `employee.update` matches only itself. */
  kindPrefix: string | null;
  fromMs: number | null;
  toMs: number | null;
}

/** The account's entries, newest first (by id, which grows with time), filtered. */
export async function listAuditEntries(db: Db, accountId: number, filter: AuditFilter): Promise<AuditEntryRow[]> {
  let query = db
    .selectFrom('audit_entries')
    .select(['id', 'at', 'actor_kind', 'actor_id', 'actor_label', 'address', 'kind', 'object_id', 'changes'])
    .where('account_id', '=', accountId);
  if (filter.beforeId !== null) query = query.where('id', '<', filter.beforeId);
  if (filter.actorKind !== null) query = query.where('actor_kind', '=', filter.actorKind);
  if (filter.actorId !== null) query = query.where('actor_id', '=', filter.actorId);
  if (filter.kindPrefix !== null) {
    const prefix = filter.kindPrefix;
    query = query.where((eb) => eb.or([eb('kind', '=', prefix), eb('kind', 'like', `${prefix}.%`)]));
  }
  if (filter.fromMs !== null) query = query.where('at', '>=', filter.fromMs);
  if (filter.toMs !== null) query = query.where('at', '<=', filter.toMs);
  return query.orderBy('id', 'desc').limit(filter.count).execute();
}

/** The account's entries older than the cut-off, a batch at a time (retention); the number removed. */
export async function deleteAuditEntriesBefore(db: Db, accountId: number, beforeMs: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_entries')
    .where('account_id', '=', accountId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('audit_entries').select('id').where('account_id', '=', accountId).where('at', '<', beforeMs).orderBy('id').limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
