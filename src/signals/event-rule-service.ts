import Ajv from 'ajv';
import type { Account, Principal } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField, missingField, type ValidationErrors } from '../http/errors.js';
import type { Database, Db } from '../store/database.js';
import type { Static } from 'typebox';
import type { EmployeeDirectory } from '../employees/employees.js';
import { deleteRule, findRule, insertRule, listRules, updateRule } from './event-rule-store.js';
import { EventRule, type EventRulePatch, type EventRuleWrite, type RuleKind, type StoredRule } from './event-rule-schema.js';
import { RULE_KINDS, ruleKindOf } from './kinds/rule-kinds.js';

const notFound = (id: number) => new ApiError('EVENT_RULE_NOT_FOUND', `no event rule ${id}`);
const ALL_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const parameterAjv = new Ajv.default({ allErrors: false, strict: false });
const parameterValidators = new Map(RULE_KINDS.map((definition) => [String(definition.kind), parameterAjv.compile(definition.parameters)]));

/** A rule as the API answers it: the EventRule schema, with the kind typed as the rule kinds. */
export type EventRuleView = Omit<Static<typeof EventRule>, 'kind'> & { kind: RuleKind };

/**
 * Event rules (interface 6.1, CONTRACT §4): what coordinators configure, here and in the
 * workspace; the table is read and written through event-rule-store.ts.
 */
export class EventRuleService {
  private readonly database: Database;
  private readonly employees: Pick<EmployeeDirectory, 'livingIds'>;
  private readonly clock: () => number;
  private readonly audit: AuditRecorder;

  constructor(
    private readonly options: {
      database: Database;
      /** A rule names living employees of its account. */
      employees: Pick<EmployeeDirectory, 'livingIds'>;
      /** WEBHOOK_ALLOW_PRIVATE: a rule's URL may be plain http. */
      allowPrivateAddresses: boolean;
      clock?: () => number;
      /** Where rule changes are logged, in their transaction. */
      audit?: AuditRecorder;
    },
  ) {
    this.audit = options.audit ?? noAudit;
    this.database = options.database;
    this.employees = options.employees;
    this.clock = options.clock ?? Date.now;
  }

  async list(account: Account): Promise<EventRuleView[]> {
    return (await listRules(this.database.db, account.id)).map((rule) => toView(rule, account.timeZone));
  }

  async get(account: Account, id: number): Promise<EventRuleView> {
    return toView(await this.load(this.database.db, account, id), account.timeZone);
  }

  async create(principal: Principal, input: EventRuleWrite): Promise<EventRuleView> {
    const { account } = principal;
    const rule = await this.build(account, 0, input);
    return this.database.transaction(async (tx) => {
      const id = await insertRule(tx, account.id, rule, this.clock());
      const created = toView({ ...rule, id }, account.timeZone);
      await this.audit.record(tx, account.id, { kind: 'rule.create', objectId: id, after: created });
      return created;
    });
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
    const { account } = principal;
    await this.database.transaction(async (tx) => {
      const before = await findRule(tx, account.id, id);
      if (!before || !(await deleteRule(tx, account.id, id))) throw notFound(id);
      await this.audit.record(tx, account.id, { kind: 'rule.delete', objectId: id, before: toView(before, account.timeZone) });
    });
  }

  private async load(executor: Db, account: Account, id: number): Promise<StoredRule> {
    const rule = await findRule(executor, account.id, id);
    if (!rule) throw notFound(id);
    return rule;
  }

  private async save(account: Account, rule: StoredRule): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await this.load(tx, account, rule.id);
      await updateRule(tx, account.id, rule, this.clock());
      await this.audit.record(tx, account.id, { kind: 'rule.update', objectId: rule.id, before: toView(before, account.timeZone), after: toView(rule, account.timeZone) });
    });
  }

  /** A complete rule from a body, with every check of CONTRACT §4; omitted fields take defaults. */
  private async build(account: Account, id: number, input: EventRuleWrite): Promise<StoredRule> {
    if (input.name.includes('\\')) throw invalidField('name', 'must not contain the backslash character');
    const kind = input.kind;
    const parameters = input.parameters ?? {};
    const validate = parameterValidators.get(String(kind))!;
    if (!validate(parameters)) {
      const error = validate.errors![0]!;
      const field = `parameters${error.instancePath.replace(/\//g, '.')}${error.keyword === 'required' ? `.${String(error.params.missingProperty)}` : ''}`;
      if (error.keyword === 'required') throw missingField(field);
      throw invalidField(field, error.message ?? 'is invalid');
    }
    ruleKindOf(kind)!.checkParameters?.(parameters);
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
      alertWorkspace: input.alertWorkspace ?? true,
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
    const known = new Set(await this.employees.livingIds(this.database.db, account.id, ids));
    const problems: ValidationErrors = {};
    ids.forEach((id, i) => {
      if (!known.has(id)) problems[`subscriberIDs[${i}]`] = `no subscriber ${id}`;
    });
    if (Object.keys(problems).length > 0) throw new ApiError('BAD_REQUEST', 'subscriberIDs names unknown subscribers', problems);
  }
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
