import { Type, type Static } from 'typebox';
import { RuleName, ruleFields } from './event-rule-fields.js';
import { RULE_KINDS, type RuleKind } from './kinds/rule-kinds.js';

export type { RuleKind, SignalKind } from './kinds/rule-kinds.js';
export { EventRule } from './event-rule-fields.js';

const signalSummaries = RULE_KINDS.filter((k) => k.source === 'fixes').map((k) => k.summary);
const feedSummaries = RULE_KINDS.filter((k) => k.source === 'changes').map((k) => k.summary);
/** The kinds of the list; typed as `RuleKind`, which a union made of a list's values is not. */
const Kind = Type.Unsafe<RuleKind>(
  Type.Union(
    RULE_KINDS.map((k) => Type.Literal(k.kind)),
    { description: `${signalSummaries.join(', ')}, or ${feedSummaries.join(' / ')}` },
  ),
);

export const EventRuleWrite = Type.Object({ name: RuleName, kind: Kind, ...ruleFields }, { additionalProperties: false });
export type EventRuleWrite = Static<typeof EventRuleWrite>;
export const EventRulePatch = Type.Object({ name: Type.Optional(RuleName), kind: Type.Optional(Kind), ...ruleFields }, { additionalProperties: false });
export type EventRulePatch = Static<typeof EventRulePatch>;

/** A rule as stored and evaluated: instants in UTC milliseconds. */
export interface StoredRule {
  id: number;
  name: string;
  kind: RuleKind;
  subscriberIDs: number[];
  parameters: Record<string, unknown>;
  validFromMs: number | null;
  validToMs: number | null;
  weekdays: number[];
  timeFrom: string;
  timeTo: string;
  emails: string[];
  smsPhones: string[];
  messengerUserIDs: number[];
  messenger2UserIDs: number[];
  sendToApi: boolean;
  apiUrl: string | null;
  batch: boolean;
  enabled: boolean;
}
