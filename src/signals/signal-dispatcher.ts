import type { Account } from '../accounts/accounts.js';
import type { AlertWriter, NewAlert } from '../alerts/alerts.js';
import type { OutboxWriter, OutgoingMessage } from '../delivery/delivery.js';
import type { Tx } from '../store/database.js';
import type { RuleKind, StoredRule } from './event-rule-schema.js';
import { activeRules } from './event-rule-store.js';
import { ruleKindOf } from './kinds/rule-kinds.js';
import { alertOf } from './signal-alerts.js';

/** Something that happened to one employee (or to the account, when `subscriberId` is null) at an instant. */
export interface Occurrence {
  subscriberId: number | null;
  atMs: number;
  /** The element for this rule: a signal body of 6.3, or a change element of 6.4 / 6.5; null: not for this rule. */
  bodyFor(rule: StoredRule): unknown;
}

/**
 * Turns occurrences into outbox messages for every active rule of their kind, in the caller's
 * transaction (CONTRACT §4: an event is written in the same transaction as its cause).
 * Webhooks: task and employee changes are a JSON array per POST (6.4, 6.5); signals are one object
 * per POST as the samples show, or an array when the rule asks for `batch`. E-mail, SMS and
 * messengers get one message per element. A rule that alerts the workspace makes an alert of
 * each element too, in the same transaction, whatever its channels.
 */
export class SignalDispatcher {
  constructor(
    private readonly outbox: OutboxWriter,
    private readonly alerts: AlertWriter,
    private readonly clock: () => number = Date.now,
  ) {}

  async dispatch(tx: Tx, account: Account, kind: RuleKind, occurrences: Occurrence[]): Promise<number> {
    if (occurrences.length === 0) return 0;
    const messages: OutgoingMessage[] = [];
    const rulesBySubscriber = new Map<string, StoredRule[]>();
    const elementsByRule = new Map<number, { rule: StoredRule; elements: unknown[] }>();
    for (const occurrence of occurrences) {
      const key = `${occurrence.subscriberId}:${occurrence.atMs}`;
      let rules = rulesBySubscriber.get(key);
      if (!rules) {
        rules = await activeRules(tx, account, kind, occurrence.subscriberId, occurrence.atMs);
        rulesBySubscriber.set(key, rules);
      }
      for (const rule of rules) {
        const element = occurrence.bodyFor(rule);
        if (element === null || element === undefined) continue;
        const entry = elementsByRule.get(rule.id) ?? { rule, elements: [] };
        entry.elements.push(element);
        elementsByRule.set(rule.id, entry);
      }
    }
    // The change feeds' elements go as arrays (6.4, 6.5).
    const asArray = ruleKindOf(kind)?.source === 'changes';
    const alerts: NewAlert[] = [];
    for (const { rule, elements } of elementsByRule.values()) {
      messages.push(...messagesOf(account.id, rule, elements, asArray || rule.batch));
      alerts.push(...this.alertsOf(rule, elements));
    }
    await this.outbox.enqueue(tx, messages);
    await this.alerts.record(tx, account.id, alerts);
    return messages.length;
  }

  /**
   * Signals whose rule is already decided (the signal pipeline checks employees and schedules per
   * fix), in the caller's transaction. Messages keep the signals' order, so deliveries to one
   * address keep it too; a `batch` rule's signals go as one array, where its first one was.
   */
  async enqueueSignals(tx: Tx, accountId: number, signals: { rule: StoredRule; body: unknown }[]): Promise<number> {
    const batched = new Map<number, unknown[]>();
    for (const { rule, body } of signals) {
      if (!rule.batch) continue;
      const elements = batched.get(rule.id);
      if (elements) elements.push(body);
      else batched.set(rule.id, [body]);
    }
    const messages: OutgoingMessage[] = [];
    const alerts = signals.flatMap(({ rule, body }) => this.alertsOf(rule, [body]));
    for (const { rule, body } of signals) {
      if (!rule.batch) {
        messages.push(...messagesOf(accountId, rule, [body], false));
      } else if (batched.has(rule.id)) {
        messages.push(...messagesOf(accountId, rule, batched.get(rule.id)!, true));
        batched.delete(rule.id);
      }
    }
    await this.outbox.enqueue(tx, messages);
    await this.alerts.record(tx, accountId, alerts);
    return messages.length;
  }

  private alertsOf(rule: StoredRule, elements: unknown[]): NewAlert[] {
    if (!rule.alertWorkspace) return [];
    const now = this.clock();
    return elements.map((element) => alertOf(rule, element, now)).filter((alert): alert is NewAlert => alert !== null);
  }
}

export function messagesOf(accountId: number, rule: StoredRule, elements: unknown[], asArray: boolean): OutgoingMessage[] {
  const base = { accountId, eventRuleId: rule.id };
  const messages: OutgoingMessage[] = [];
  if (rule.sendToApi && rule.apiUrl) {
    if (asArray) messages.push({ ...base, channel: 'webhook', target: rule.apiUrl, payload: elements });
    else for (const element of elements) messages.push({ ...base, channel: 'webhook', target: rule.apiUrl, payload: element });
  }
  for (const element of elements) {
    const payload = { eventName: rule.name, kind: rule.kind, body: element };
    for (const email of rule.emails) messages.push({ ...base, channel: 'email', target: email, payload });
    for (const phone of rule.smsPhones) messages.push({ ...base, channel: 'sms', target: phone, payload });
    for (const userId of rule.messengerUserIDs) messages.push({ ...base, channel: 'messenger', target: String(userId), payload });
    for (const userId of rule.messenger2UserIDs) messages.push({ ...base, channel: 'messenger2', target: String(userId), payload });
  }
  return messages;
}
