import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { EventRule, RuleName, ruleFields } from './event-rule-fields.js';
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

const exampleRule = {
  name: 'Trucks at the warehouse',
  kind: 2 as const,
  subscriberIDs: [23],
  parameters: { zoneIDs: [5], on: 'entry' },
  weekdays: [1, 2, 3, 4, 5],
  timeFrom: '07:00',
  timeTo: '21:00',
  emails: ['dispatch@example.com'],
  sendToApi: true,
  apiUrl: 'https://erp.example.com/lokator/signals',
};
export const EventRuleWrite = withExamples(Type.Object({ name: RuleName, kind: Kind, ...ruleFields }, { additionalProperties: false }), exampleRule);
export type EventRuleWrite = Static<typeof EventRuleWrite>;
export const EventRulePatch = withExamples(Type.Object({ name: Type.Optional(RuleName), kind: Type.Optional(Kind), ...ruleFields }, { additionalProperties: false }), {
  enabled: false,
});
export type EventRulePatch = Static<typeof EventRulePatch>;

const ruleExample = {
  eventID: 14,
  validFrom: null,
  validTo: null,
  smsPhones: [],
  messengerUserIDs: [],
  messenger2UserIDs: [],
  batch: false,
  enabled: true,
  alertWorkspace: true,
  ...exampleRule,
};
export const EventRuleWithExample = withExamples(EventRule, ruleExample);
export const EventRuleList = withExamples(Type.Array(EventRule), [
  ruleExample,
  {
    ...ruleExample,
    eventID: 15,
    name: 'Task changes to the ERP',
    kind: 'taskChanges',
    subscriberIDs: [],
    parameters: {},
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    timeFrom: '00:00',
    timeTo: '00:00',
    emails: [],
    apiUrl: 'https://erp.example.com/lokator/tasks',
  },
]);

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
  /** Its signals and changes are alerts in the workspace, whatever its delivery channels. */
  alertWorkspace: boolean;
}
