import Ajv from 'ajv';
import { sql } from 'kysely';
import type { Account, Principal } from '../accounts/account-service.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField, missingField, type ValidationErrors } from '../http/errors.js';
import type { Database, Db } from '../store/database.js';
import type { Static } from 'typebox';
import { inSchedule } from './rule-schedule.js';
import { EventRule, ruleParameters, type EventRulePatch, type EventRuleWrite, type RuleKind, type StoredRule } from './event-rule-schema.js';

const notFound = (id: number) => new ApiError('EVENT_RULE_NOT_FOUND', `no event rule ${id}`);
const ALL_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const parameterAjv = new Ajv.default({ allErrors: false, strict: false });
const parameterValidators = Object.fromEntries(Object.entries(ruleParameters).map(([kind, schema]) => [kind, parameterAjv.compile(schema)]));

/** A rule as the API answers it: the EventRule schema, with the kind typed as the rule kinds. */
export type EventRuleView = Omit<Static<typeof EventRule>, 'kind'> & { kind: RuleKind };

type Document = Omit<StoredRule, 'id' | 'name' | 'kind' | 'enabled'>;

/**
 * Event rules (interface 6.1, CONTRACT §4): what coordinators configure, here and in the
 * workspace. `activeRules` answers which rules a signal or change fires, at an instant.
 */
export class EventRuleService {
  constructor(
    private readonly database: Database,
    private readonly options: { allowPrivateAddresses: boolean },
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account): Promise<EventRuleView[]> {
    const rows = await this.database.db.selectFrom('event_rules').selectAll().where('account_id', '=', account.id).orderBy('id').execute();
    return rows.map((row) => toView(fromRow(row), account.timeZone));
  }

  async get(account: Account, id: number): Promise<EventRuleView> {
    return toView(await this.load(this.database.db, account, id), account.timeZone);
  }

  async create(principal: Principal, input: EventRuleWrite): Promise<EventRuleView> {
    const { account } = principal;
    const rule = await this.build(account, 0, input);
    const now = this.clock();
    const row = await this.database.db
      .insertInto('event_rules')
      .values({ account_id: account.id, ...toColumns(rule), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toView({ ...rule, id: row.id }, account.timeZone);
  }

  async replace(principal: Principal, id: number, input: EventRuleWrite): Promise<void> {
    const { account } = principal;
    await this.load(this.database.db, account, id);
    await this.save(account, await this.build(account, id, input));
  }

  async patch(principal: Principal, id: number, input: EventRulePatch): Promise<void> {
    const { account } = principal;
    const before = toView(await this.load(this.database.db, account, id), account.timeZone);
    const merged = { ...before, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as unknown as EventRuleWrite;
    // A new kind brings new parameters; the old ones would not fit it.
    if (input.kind !== undefined && input.kind !== before.kind && input.parameters === undefined) merged.parameters = {};
    await this.save(account, await this.build(account, id, merged));
  }

  async delete(principal: Principal, id: number): Promise<void> {
    const result = await this.database.db.deleteFrom('event_rules').where('account_id', '=', principal.account.id).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(id);
  }

  /**
   * The enabled rules of a kind that apply to this employee at this instant: inside the validity
   * period, on one of the weekdays and inside the daily window, in the account's time zone.
   */
  async activeRules(executor: Db, account: Account, kind: RuleKind, subscriberId: number | null, atMs: number): Promise<StoredRule[]> {
    const rows = await executor
      .selectFrom('event_rules')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('kind', '=', String(kind))
      .where('enabled', '=', 1)
      .execute();
    return rows.map(fromRow).filter((rule) => appliesTo(rule, subscriberId) && inSchedule(rule, atMs, account.timeZone));
  }

  private async load(executor: Db, account: Account, id: number): Promise<StoredRule> {
    const row = await executor.selectFrom('event_rules').selectAll().where('account_id', '=', account.id).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(id);
    return fromRow(row);
  }

  private async save(account: Account, rule: StoredRule): Promise<void> {
    const now = this.clock();
    await this.database.db
      .updateTable('event_rules')
      // Strictly later than before, even within one clock tick: the signal pipeline keeps parsed rules while their stamps hold.
      .set({ ...toColumns(rule), updated_at: sql<number>`CASE WHEN updated_at >= ${now} THEN updated_at + 1 ELSE ${now} END` })
      .where('account_id', '=', account.id)
      .where('id', '=', rule.id)
      .execute();
  }

  /** A complete rule from a body, with every check of CONTRACT §4; omitted fields take defaults. */
  private async build(account: Account, id: number, input: EventRuleWrite): Promise<StoredRule> {
    if (input.name.includes('\\')) throw invalidField('name', 'must not contain the backslash character');
    const kind = input.kind;
    const parameters = input.parameters ?? {};
    const validate = parameterValidators[String(kind)]!;
    if (!validate(parameters)) {
      const error = validate.errors![0]!;
      const field = `parameters${error.instancePath.replace(/\//g, '.')}${error.keyword === 'required' ? `.${String(error.params.missingProperty)}` : ''}`;
      if (error.keyword === 'required') throw missingField(field);
      throw invalidField(field, error.message ?? 'is invalid');
    }
    if (kind === 2 && !(parameters.zoneIDs as unknown[] | undefined)?.length && !(parameters.zoneGroupIDs as unknown[] | undefined)?.length) {
      throw missingField('parameters.zoneIDs');
    }
    const validFromMs = this.instant(input.validFrom, 'validFrom', account);
    const validToMs = this.instant(input.validTo, 'validTo', account);
    if (validFromMs !== null && validToMs !== null && validFromMs > validToMs) throw invalidField('validFrom', 'must not be after validTo');

    const sendToApi = input.sendToApi ?? false;
    const apiUrl = input.apiUrl ?? null;
    if (sendToApi && !apiUrl) throw missingField('apiUrl');
    if (apiUrl !== null) this.checkUrl(apiUrl);
    const smsPhones = input.smsPhones ?? [];
    if (smsPhones.length > 0 && !account.smsEnabled) throw invalidField('smsPhones', 'the account has no SMS option');
    await this.checkEmployees(account, input.subscriberIDs ?? []);
    return {
      id,
      name: input.name,
      kind,
      subscriberIDs: [...new Set(input.subscriberIDs ?? [])],
      parameters,
      validFromMs,
      validToMs,
      weekdays: input.weekdays ? [...input.weekdays].sort() : ALL_WEEKDAYS,
      timeFrom: input.timeFrom ?? '00:00',
      timeTo: input.timeTo ?? '00:00',
      emails: input.emails ?? [],
      smsPhones,
      messengerUserIDs: input.messengerUserIDs ?? [],
      messenger2UserIDs: input.messenger2UserIDs ?? [],
      sendToApi,
      apiUrl,
      batch: input.batch ?? false,
      enabled: input.enabled ?? true,
    };
  }

  private instant(value: string | null | undefined, field: string, account: Account): number | null {
    if (value === undefined || value === null) return null;
    const parsed = parseDateTime(value, account.timeZone);
    if (!parsed) throw invalidField(field, 'must be an ISO 8601 date-time');
    return parsed.epochMs;
  }

  /** https only (plain http too when WEBHOOK_ALLOW_PRIVATE is set); the address itself is checked at every attempt. */
  private checkUrl(raw: string): void {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidField('apiUrl', 'must be an absolute URL');
    }
    const allowed = this.options.allowPrivateAddresses ? ['https:', 'http:'] : ['https:'];
    if (!allowed.includes(url.protocol)) throw invalidField('apiUrl', 'must be an https URL');
    if (url.username || url.password) throw invalidField('apiUrl', 'must not carry credentials');
  }

  private async checkEmployees(account: Account, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.database.db
      .selectFrom('subscribers')
      .select('id')
      .where('account_id', '=', account.id)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    const known = new Set(rows.map((r) => r.id));
    const problems: ValidationErrors = {};
    ids.forEach((id, i) => {
      if (!known.has(id)) problems[`subscriberIDs[${i}]`] = `no subscriber ${id}`;
    });
    if (Object.keys(problems).length > 0) throw new ApiError('BAD_REQUEST', 'subscriberIDs names unknown subscribers', problems);
  }
}

export { fromRow as ruleFromRow };

/** An event rule as stored, for `ruleFromRow`. */
export type EventRuleRow = { id: number; name: string; kind: string; enabled: number; document: string; updated_at: number };

/** Which of the account's rules are enabled, of these kinds, and when each last changed (`updated_at` grows at every change). */
export function enabledRuleStamps(executor: Db, accountId: number, kinds: readonly RuleKind[]): Promise<{ id: number; updated_at: number }[]> {
  return executor
    .selectFrom('event_rules')
    .select(['id', 'updated_at'])
    .where('account_id', '=', accountId)
    .where('kind', 'in', kinds.map(String))
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

/** The account's enabled rules of these kinds, in id order, every employee and schedule (parse with `ruleFromRow`). */
export function enabledRuleRows(executor: Db, accountId: number, kinds: readonly RuleKind[]): Promise<EventRuleRow[]> {
  return executor
    .selectFrom('event_rules')
    .select(['id', 'name', 'kind', 'enabled', 'document', 'updated_at'])
    .where('account_id', '=', accountId)
    .where('kind', 'in', kinds.map(String))
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

function appliesTo(rule: StoredRule, subscriberId: number | null): boolean {
  return rule.subscriberIDs.length === 0 || subscriberId === null || rule.subscriberIDs.includes(subscriberId);
}

function toColumns(rule: StoredRule) {
  const { id: _id, name, kind, enabled, ...document } = rule;
  return { name, kind: String(kind), enabled: enabled ? 1 : 0, document: JSON.stringify(document satisfies Document) };
}

function fromRow(row: { id: number; name: string; kind: string; enabled: number; document: string }): StoredRule {
  const kind: RuleKind = /^\d+$/.test(row.kind) ? (Number(row.kind) as RuleKind) : (row.kind as RuleKind);
  const document = JSON.parse(row.document) as Document;
  // Rules stored before the second messenger channel existed have no list for it.
  document.messenger2UserIDs ??= [];
  return { ...document, id: row.id, name: row.name, kind, enabled: row.enabled === 1 };
}

function toView(rule: StoredRule, timeZone: string): EventRuleView {
  const { id, validFromMs, validToMs, ...rest } = rule;
  return {
    eventID: id,
    ...rest,
    validFrom: validFromMs === null ? null : formatDateTime(validFromMs, timeZone),
    validTo: validToMs === null ? null : formatDateTime(validToMs, timeZone),
  };
}
