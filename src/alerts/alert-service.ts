import type { Account, Principal, UserLogins } from '../accounts/accounts.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError } from '../http/errors.js';
import { resolveBounds } from '../http/list-params.js';
import type { Locale } from '../i18n/catalogue.js';
import type { Database } from '../store/database.js';
import type { Alert, AlertListQuery } from './alert-schema.js';
import { listAlerts, markHandled, type AlertRow } from './alert-store.js';

/** What happened, in words, of a rule's kind and the signal body or change element it fired. */
export type AlertHeadline = (kind: string, facts: Record<string, unknown>, locale: Locale) => string;

/** Alerts of the account, newest first, and marking one handled (CONTRACT §7). */
/** Who the alerts are of (names as they are now, group members) and who handles them. */
export interface AlertPeople {
  employees: Pick<EmployeeDirectory, 'identitiesOf' | 'list'>;
  loginsOf: UserLogins;
}

export class AlertService {
  constructor(
    private readonly database: Database,
    private readonly headline: AlertHeadline,
    private readonly people: AlertPeople,
    private readonly clock: () => number,
  ) {}

  async list(account: Account, query: AlertListQuery): Promise<{ data: Alert[] }> {
    const bounds = resolveBounds(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone);
    const rows = await listAlerts(this.database.db, account.id, {
      kinds: query.kind ?? [],
      subscriberIds: await this.subscribersAsked(account, query),
      fromMs: bounds.fromMs,
      toMs: bounds.toMs,
      handled: query.handled ?? null,
      beforeId: query.lastAlertID ?? null,
      count: query.count ?? 1000,
    });
    const locale = query.lang ?? account.locale;
    const ids = [...new Set(rows.flatMap((row) => (row.subscriber_id === null ? [] : [row.subscriber_id])))];
    const names = await this.people.employees.identitiesOf(this.database.db, account.id, ids);
    return { data: rows.map((row) => this.toView(row, names.get(row.subscriber_id ?? 0)?.name ?? null, account.timeZone, locale)) };
  }

  /** The employees the filters name: `subscriberIDs`, narrowed to the members of `subscriberGroupIDs` now; null for every one. */
  private async subscribersAsked(account: Account, query: AlertListQuery): Promise<number[] | null> {
    const named = query.subscriberIDs?.length ? query.subscriberIDs : null;
    if (!query.subscriberGroupIDs?.length) return named;
    const members = await this.people.employees.list(account, { subscriberGroupIDs: query.subscriberGroupIDs, withCustomTemplateItems: false });
    const ids = members.map((employee) => employee.subscriberID);
    return named ? ids.filter((id) => named.includes(id)) : ids;
  }

  /** Another account's alert, or none, is 404 code 1028; one handled already keeps who handled it first. */
  async handle(principal: Principal, alertId: number): Promise<void> {
    // A token whose user was removed handles in its own name.
    const { userID, name } = principal;
    const login = userID === null ? name : ((await this.people.loginsOf(principal.account.id, [userID])).get(userID) ?? name);
    const user = { id: userID, login };
    const found = await markHandled(this.database.db, principal.account.id, alertId, user, this.clock());
    if (!found) throw new ApiError('ALERT_NOT_FOUND', `no alert ${alertId}`);
  }

  private toView(row: AlertRow, subscriberName: string | null, timeZone: string, locale: Locale): Alert {
    const facts = JSON.parse(row.facts) as Record<string, unknown>;
    return {
      alertID: row.id,
      kind: /^\d+$/.test(row.kind) ? Number(row.kind) : row.kind,
      eventID: row.event_rule_id,
      eventName: row.rule_name,
      subscriberID: row.subscriber_id,
      subscriberName,
      what: this.headline(row.kind, facts, locale),
      where: row.zone_name ?? row.address ?? (row.latitude !== null && row.longitude !== null ? `${row.latitude.toFixed(5)}, ${row.longitude.toFixed(5)}` : null),
      zoneName: row.zone_name,
      address: row.address,
      latitude: row.latitude,
      longitude: row.longitude,
      occurredAt: formatDateTime(row.occurred_at, timeZone),
      createdAt: formatDateTime(row.created_at, timeZone),
      handledAt: row.handled_at === null ? null : formatDateTime(row.handled_at, timeZone),
      handledByUserID: row.handled_by,
      handledBy: row.handled_by_login,
      facts,
    };
  }
}
