import { Type, type Static, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { DateTimeText, Id } from '../http/list-params.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The signal types of interface 6.3, and the two change feeds of 6.4 and 6.5. */
export const signalKinds = [1, 2, 3, 7, 9, 10, 11, 24] as const;
export type SignalKind = (typeof signalKinds)[number];
export type RuleKind = SignalKind | 'taskChanges' | 'employeeChanges';

const Kind = Type.Union(
  [
    Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(7), Type.Literal(9), Type.Literal(10), Type.Literal(11), Type.Literal(24),
    Type.Literal('taskChanges'), Type.Literal('employeeChanges'),
  ],
  {
    description:
      '1 speed, 2 zone entry/exit, 3 stops, 7 power off, 9 waste loading, 10 sensor control, 11 trip end, 24 estimated arrival, or taskChanges / ' +
      'employeeChanges',
  },
);

const Time = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:mm in the account time zone' });

/** Parameters per kind (CONTRACT §4); checked by the service against the rule's kind. */
export const ruleParameters: Record<string, TSchema> = {
  '1': Type.Object(
    { speedLimit: Type.Number({ exclusiveMinimum: 0, maximum: 1000 }), minDurationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })) },
    { additionalProperties: false },
  ),
  '2': Type.Object(
    {
      zoneIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
      zoneGroupIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
      on: Type.Union([Type.Literal('entry'), Type.Literal('exit'), Type.Literal('both')]),
    },
    { additionalProperties: false },
  ),
  '3': Type.Object({ minStopMinutes: Type.Integer({ minimum: 1, maximum: 10_080 }) }, { additionalProperties: false }),
  '7': Type.Object({}, { additionalProperties: false }),
  '9': Type.Object({ sensorID: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }) }, { additionalProperties: false }),
  '10': Type.Object(
    {
      sensorID: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
      min: Type.Optional(nullable(Type.Number({ minimum: -1e12, maximum: 1e12 }))),
      max: Type.Optional(nullable(Type.Number({ minimum: -1e12, maximum: 1e12 }))),
    },
    { additionalProperties: false },
  ),
  '11': Type.Object({}, { additionalProperties: false }),
  '24': Type.Object({ minutesBefore: Type.Integer({ minimum: 1, maximum: 1440 }) }, { additionalProperties: false }),
  taskChanges: Type.Object({}, { additionalProperties: false }),
  employeeChanges: Type.Object({}, { additionalProperties: false }),
};

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

const ruleFields = {
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
export const EventRuleWrite = withExamples(Type.Object({ name: Name, ...fields }, { additionalProperties: false }), ruleFields);
export type EventRuleWrite = Static<typeof EventRuleWrite>;
export const EventRulePatch = withExamples(Type.Object({ name: Type.Optional(Name), ...fields, kind: Type.Optional(Kind) }, { additionalProperties: false }), {
  enabled: false,
});
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

const ruleExample = {
  eventID: 14,
  validFrom: null,
  validTo: null,
  smsPhones: [],
  messengerUserIDs: [],
  messenger2UserIDs: [],
  batch: false,
  enabled: true,
  ...ruleFields,
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
}
