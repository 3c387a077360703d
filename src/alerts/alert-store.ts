import type { Db, Tx } from '../store/database.js';

/** The alerts' table (`alerts`), one function per statement. */

/** An alert as the signal or change that fired it describes it. */
export interface NewAlert {
  /** The rule's kind: a signal type of 6.3 or 'taskChanges' / 'employeeChanges'. */
  kind: string;
  eventRuleId: number;
  ruleName: string;
  subscriberId: number | null;
  occurredAtMs: number;
  latitude: number | null;
  longitude: number | null;
  zoneName: string | null;
  address: string | null;
  /** The signal body or change element. */
  facts: Record<string, unknown>;
}

/** An alert as stored. */
export interface AlertRow {
  id: number;
  kind: string;
  event_rule_id: number;
  rule_name: string;
  subscriber_id: number | null;
  occurred_at: number;
  latitude: number | null;
  longitude: number | null;
  zone_name: string | null;
  address: string | null;
  facts: string;
  created_at: number;
  handled_at: number | null;
  handled_by: number | null;
  handled_by_login: string | null;
}

export interface AlertFilter {
  kinds: string[];
  /** Null: every employee (and none); empty: nobody. */
  subscriberIds: number[] | null;
  fromMs: number | null;
  toMs: number | null;
  handled: boolean | null;
  beforeId: number | null;
  count: number;
}

const INSERT_ROWS = 200;

/** In the transaction of the signal or change that fired them: an alert exists exactly when its cause does. */
export async function insertAlerts(tx: Tx, accountId: number, alerts: readonly NewAlert[], now: number): Promise<void> {
  for (let from = 0; from < alerts.length; from += INSERT_ROWS) {
    await tx
      .insertInto('alerts')
      .values(
        alerts.slice(from, from + INSERT_ROWS).map((a) => ({
          account_id: accountId,
          kind: a.kind,
          event_rule_id: a.eventRuleId,
          rule_name: a.ruleName,
          subscriber_id: a.subscriberId,
          occurred_at: a.occurredAtMs,
          latitude: a.latitude,
          longitude: a.longitude,
          zone_name: a.zoneName,
          address: a.address,
          facts: JSON.stringify(a.facts),
          created_at: now,
        })),
      )
      .execute();
  }
}

/** Newest first by id. */
export function listAlerts(db: Db, accountId: number, filter: AlertFilter): Promise<AlertRow[]> {
  let query = db
    .selectFrom('alerts')
    .select([
      'id',
      'kind',
      'event_rule_id',
      'rule_name',
      'subscriber_id',
      'occurred_at',
      'latitude',
      'longitude',
      'zone_name',
      'address',
      'facts',
      'created_at',
      'handled_at',
      'handled_by',
      'handled_by_login',
    ])
    .where('account_id', '=', accountId);
  if (filter.kinds.length > 0) query = query.where('kind', 'in', filter.kinds);
  if (filter.subscriberIds !== null) query = query.where('subscriber_id', 'in', filter.subscriberIds.length > 0 ? filter.subscriberIds : [-1]);
  if (filter.fromMs !== null) query = query.where('occurred_at', '>=', filter.fromMs);
  if (filter.toMs !== null) query = query.where('occurred_at', '<=', filter.toMs);
  if (filter.handled === true) query = query.where('handled_at', 'is not', null);
  if (filter.handled === false) query = query.where('handled_at', 'is', null);
  if (filter.beforeId !== null) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(filter.count).execute();
}

/**
 * Marks an alert handled by this user, with their login as it is now (kept if the user goes); one
 * already handled keeps who handled it first. False when the account has no such alert.
 */
export async function markHandled(db: Db, accountId: number, id: number, user: { id: number | null; login: string | null }, now: number): Promise<boolean> {
  await db
    .updateTable('alerts')
    .set({ handled_at: now, handled_by: user.id, handled_by_login: user.login })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('handled_at', 'is', null)
    .execute();
  const row = await db.selectFrom('alerts').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The newest alert's id (0 without any) and how many are unhandled, counted up to `cap`: what the live feed watches. */
export async function alertState(db: Db, accountId: number, cap: number): Promise<{ latestAlertID: number; unhandled: number }> {
  const newest = await db.selectFrom('alerts').select('id').where('account_id', '=', accountId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const counted = await db
    .selectFrom((eb) => eb.selectFrom('alerts').select('id').where('account_id', '=', accountId).where('handled_at', 'is', null).limit(cap).as('open'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { latestAlertID: newest?.id ?? 0, unhandled: Number(counted.n) };
}
