import type { NewAlert } from '../alerts/alerts.js';
import { catalogueOf, type Locale } from '../i18n/catalogue.js';
import { formatSpeed } from '../i18n/format.js';
import type { StoredRule } from './event-rule-schema.js';
import { isObject } from './kinds/change-lines.js';
import { ruleKindOf } from './kinds/rule-kinds.js';

/**
 * The workspace alert of one signal body (6.3) or change element (6.4, 6.5) a rule fired: the
 * employee, when, and where (the zone of a zone signal, the task's address and point, the signal's
 * point). Null when the rule does not alert the workspace.
 */
export function alertOf(rule: StoredRule, element: unknown, firedAtMs: number): NewAlert | null {
  if (!rule.alertWorkspace || !isObject(element)) return null;
  const meta = isObject(element.signalMetadataInfo) ? element.signalMetadataInfo : null;
  const task = isObject(element.task) ? element.task : null;
  const subscriber = isObject(element.subscriber) ? element.subscriber : null;
  const place = task ?? element;
  const date = meta?.signalDate ?? element.signalDate;
  const occurredAtMs = typeof date === 'string' ? Date.parse(date) : NaN;
  return {
    kind: String(rule.kind),
    eventRuleId: rule.id,
    ruleName: rule.name,
    subscriberId: numberOf(element.subscriberID) ?? numberOf(task?.subscriberID) ?? numberOf(subscriber?.subscriberID) ?? employeeOfChange(rule, meta),
    occurredAtMs: Number.isFinite(occurredAtMs) ? occurredAtMs : firedAtMs,
    latitude: numberOf(place.latitude),
    longitude: numberOf(place.longitude),
    zoneName: typeof element.zoneName === 'string' ? element.zoneName : null,
    address: typeof task?.address === 'string' && task.address ? task.address : null,
    facts: element,
  };
}

/** What happened, in words: a signal's headline, a change's first line (the delivery messages' words). */
export function alertHeadline(kind: string, facts: Record<string, unknown>, locale: Locale): string {
  const words = catalogueOf(locale).message;
  const definition = ruleKindOf(kind);
  if (definition?.source === 'changes') return definition.message.lines(facts, words, () => null)[0] ?? kind;
  if (!definition) return words.otherSignal(kind).trim();
  const speed = typeof facts.velocity === 'number' ? formatSpeed(locale, facts.velocity) : null;
  return definition.message.headline(facts, words, locale, speed);
}

/** An employee change names its employee by the entity id (a deleted one has no element). */
function employeeOfChange(rule: StoredRule, meta: Record<string, unknown> | null): number | null {
  return rule.kind === 'employeeChanges' ? numberOf(meta?.entityID) : null;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
