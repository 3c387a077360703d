import { sql } from 'kysely';
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

/** An alert as listed: its row, with the employee's name as it is now. */
export interface AlertRow {
  id: number;
  kind: string;
  event_rule_id: number;
  rule_name: string;
  subscriber_id: number | null;
  subscriber_name: string | null;
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
  subscriberIds: number[];
  groupIds: number[];
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

/** Newest first by id, with the employee's current name; the group filter is the employee's group now. */
export function listAlerts(db: Db, accountId: number, filter: AlertFilter): Promise<AlertRow[]> {
  let query = db
    .selectFrom('alerts')
    .leftJoin('subscribers', (join) => join.onRef('subscribers.id', '=', 'alerts.subscriber_id').onRef('subscribers.account_id', '=', 'alerts.account_id'))
    .select([
      'alerts.id',
      'alerts.kind',
      'alerts.event_rule_id',
      'alerts.rule_name',
      'alerts.subscriber_id',
      'subscribers.name as subscriber_name',
      'alerts.occurred_at',
      'alerts.latitude',
      'alerts.longitude',
      'alerts.zone_name',
      'alerts.address',
      'alerts.facts',
      'alerts.created_at',
      'alerts.handled_at',
      'alerts.handled_by',
      'alerts.handled_by_login',
    ])
    .where('alerts.account_id', '=', accountId);
  if (filter.kinds.length > 0) query = query.where('alerts.kind', 'in', filter.kinds);
  if (filter.subscriberIds.length > 0) query = query.where('alerts.subscriber_id', 'in', filter.subscriberIds);
  if (filter.groupIds.length > 0) query = query.where('subscribers.group_id', 'in', filter.groupIds);
  if (filter.fromMs !== null) query = query.where('alerts.occurred_at', '>=', filter.fromMs);
  if (filter.toMs !== null) query = query.where('alerts.occurred_at', '<=', filter.toMs);
  if (filter.handled === true) query = query.where('alerts.handled_at', 'is not', null);
  if (filter.handled === false) query = query.where('alerts.handled_at', 'is', null);
  if (filter.beforeId !== null) query = query.where('alerts.id', '<', filter.beforeId);
  return query.orderBy('alerts.id', 'desc').limit(filter.count).execute();
}

/**
 * Marks an alert handled by this user, with their login as it is now; one already handled keeps
 * who handled it first. False when the account has no such alert.
 */
export async function markHandled(db: Db, accountId: number, id: number, userId: number, now: number): Promise<boolean> {
  await db
    .updateTable('alerts')
    .set({
      handled_at: now,
      handled_by: userId,
      handled_by_login: sql<string | null>`(SELECT login FROM users WHERE users.id = ${userId} AND users.account_id = ${accountId})`,
    })
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
