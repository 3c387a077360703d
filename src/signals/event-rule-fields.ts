import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { DateTimeText, Id } from '../http/list-params.js';

/*
 * The fields of an event rule that do not depend on the list of kinds: event-rule-schema.ts
 * completes them with the `kind` of the list (kinds/rule-kinds.ts); the workspace types its
 * rules by them and takes the kinds from its generated module, so its types never reach the
 * kinds' detectors.
 */

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Time = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:mm in the account time zone' });

/** Every field of a rule as written but its name and kind. */
export const ruleFields = {
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
  alertWorkspace: Type.Optional(
    Type.Boolean({ description: 'each signal or change it fires is an alert in the workspace (eventManagement/alerts), whatever its delivery channels; default true' }),
  ),
};

// The interface forbids the backslash in names; the check is the service's so that it answers code 2.
export const RuleName = Type.String({ minLength: 1, maxLength: 200 });

/** A rule as written, but its kind. */
export type EventRuleFields = Static<TObject<{ name: typeof RuleName } & typeof ruleFields>>;

/** A rule as the API answers it; its `kind` typed loosely (the write schemas let in only the kinds listed). */
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
  alertWorkspace: Type.Boolean(),
});
