import type { StoredRule } from './event-rule-schema.js';
import type { BatchSource } from './kinds/rule-kind.js';
import { SIGNAL_KINDS } from './kinds/rule-kinds.js';

/**
 * One subscriber's rules of each signal kind, with their parameters typed (`rule` of the kind's
 * definition): the i-th list holds the rules of `SIGNAL_KINDS[i]`.
 */
export type SubscriberRules = readonly (readonly { id: number }[])[];

const indexOf = new Map(SIGNAL_KINDS.map((definition, i) => [String(definition.kind), i]));

/**
 * The account's enabled signal rules, read once per batch. A rule applies to the employees it
 * names (all when it names none); its schedule is checked when a signal is about to be sent, not
 * here, so that what a rule watches (an excursion, a stop, zone membership) is followed across
 * the edges of its window and a signal is not sent late when the window opens.
 */
export class SignalRuleSet {
  private readonly byId = new Map<number, StoredRule>();
  private readonly forAll: StoredRule[] = [];
  private readonly named = new Map<number, StoredRule[]>();
  private readonly sources = new Set<BatchSource>();
  /** What `forSubscriber` answered: the same arrays each time, so units can keep what they derive from them. */
  private readonly bySubscriber = new Map<number, SubscriberRules | null>();
  private everyone: SubscriberRules | null | undefined;

  constructor(rules: readonly StoredRule[]) {
    for (const rule of rules) {
      const index = indexOf.get(String(rule.kind));
      if (index === undefined) continue;
      this.byId.set(rule.id, rule);
      for (const source of SIGNAL_KINDS[index]!.detector.uses ?? []) this.sources.add(source);
      if (rule.subscriberIDs.length === 0) this.forAll.push(rule);
      for (const id of rule.subscriberIDs) {
        const list = this.named.get(id);
        if (list) list.push(rule);
        else this.named.set(id, [rule]);
      }
    }
  }

  get size(): number {
    return this.byId.size;
  }

  /** Some rule's detector reads this of the batch. */
  uses(source: BatchSource): boolean {
    return this.sources.has(source);
  }

  rule(id: number): StoredRule {
    const rule = this.byId.get(id);
    if (!rule) throw new Error(`no signal rule ${id} in this batch`);
    return rule;
  }

  /** The rules that apply to this employee, by kind; null when none does. Employees no rule names share one answer. */
  forSubscriber(subscriberId: number): SubscriberRules | null {
    const own = this.named.get(subscriberId);
    if (!own) return this.everyone === undefined ? (this.everyone = typed(this.forAll)) : this.everyone;
    let rules = this.bySubscriber.get(subscriberId);
    if (rules === undefined) {
      rules = typed([...this.forAll, ...own].sort((a, b) => a.id - b.id));
      this.bySubscriber.set(subscriberId, rules);
    }
    return rules;
  }
}

/** The rules of each kind with their parameters typed. */
function typed(rules: readonly StoredRule[]): SubscriberRules | null {
  if (rules.length === 0) return null;
  const result: { id: number }[][] = SIGNAL_KINDS.map(() => []);
  for (const rule of rules) {
    const index = indexOf.get(String(rule.kind))!;
    result[index]!.push(SIGNAL_KINDS[index]!.rule(rule.id, rule.parameters));
  }
  return result;
}
