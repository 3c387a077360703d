import { Type, type Static, type TSchema } from 'typebox';
import { DateTimeText, Id } from '../http/list-params.js';
import { RULE_KINDS, type RuleKind } from './kinds/rule-kinds.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export type { RuleKind, SignalKind } from './kinds/rule-kinds.js';

const signalSummaries = RULE_KINDS.filter((k) => k.source === 'fixes').map((k) => k.summary);
const feedSummaries = RULE_KINDS.filter((k) => k.source === 'changes').map((k) => k.summary);
/** The kinds of the list; typed as `RuleKind`, which a union made of a list's values is not. */
const Kind = Type.Unsafe<RuleKind>(
  Type.Union(
    RULE_KINDS.map((k) => Type.Literal(k.kind)),
    { description: `${signalSummaries.join(', ')}, or ${feedSummaries.join(' / ')}` },
  ),
);

const Time = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:mm in the account time zone' });

const fields = {
  kind: Kind,
  subscriberIDs: Type.Optional(Type.Array(Id, { maxItems: 10_000, description: 'empty: every employee' })),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  validFrom: Type.Optional(nullable(DateTimeText)),
  validTo: Type.Optional(nullable(DateTimeText)),
  weekdays: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7, uniqueItems: true, description: 'ISO: 1 Monday … 7 Sunday' })),
  timeFrom: Type.Optional(Time),
  timeTo: Type.Optional(Time),
  emails: Type.Optional(Type.Array(Type.String({ format: 'email', maxLength: 254 }), { maxItems: 100 })),
  smsPhones: Type.Optional(Type.Array(Type.String({ pattern: '^\\+?\\d{7,15}$' }), { maxItems: 100 })),
  messengerUserIDs: Type.Optional(
    Type.Array(Id, { maxItems: 100, description: 'first messenger channel (the service’s bot): user ids, each sent as `to` to MESSENGER_GATEWAY_URL' }),
  ),
  messenger2UserIDs: Type.Optional(Type.Array(Id, { maxItems: 100, description: 'second messenger channel: user ids, each sent as `to` to MESSENGER2_GATEWAY_URL' })),
  sendToApi: Type.Optional(Type.Boolean()),
  apiUrl: Type.Optional(nullable(Type.String({ maxLength: 2048 }))),
  batch: Type.Optional(Type.Boolean({ description: 'deliver arrays of signals instead of one object per POST' })),
  enabled: Type.Optional(Type.Boolean()),
};

// The interface forbids the backslash in names; the check is the service's so that it answers code 2.
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const EventRuleWrite = Type.Object({ name: Name, ...fields }, { additionalProperties: false });
export type EventRuleWrite = Static<typeof EventRuleWrite>;
export const EventRulePatch = Type.Object({ name: Type.Optional(Name), ...fields, kind: Type.Optional(Kind) }, { additionalProperties: false });
export type EventRulePatch = Static<typeof EventRulePatch>;

export const EventRule = Type.Object({
  eventID: Type.Integer(),
  name: Type.String(),
  kind: Type.Union([Type.Integer(), Type.String()]),
  subscriberIDs: Type.Array(Type.Integer()),
  parameters: Type.Record(Type.String(), Type.Unknown()),
  validFrom: nullable(Type.String()),
  validTo: nullable(Type.String()),
  weekdays: Type.Array(Type.Integer()),
  timeFrom: Type.String(),
  timeTo: Type.String(),
  emails: Type.Array(Type.String()),
  smsPhones: Type.Array(Type.String()),
  messengerUserIDs: Type.Array(Type.Integer()),
  messenger2UserIDs: Type.Array(Type.Integer()),
  sendToApi: Type.Boolean(),
  apiUrl: nullable(Type.String()),
  batch: Type.Boolean(),
  enabled: Type.Boolean(),
});

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
