import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Count, DateTimeText, Id, IdList } from '../http/list-params.js';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const AlertListQuery = Type.Object({
  kind: Type.Optional(
    withExamples(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50, description: 'the rules’ kinds: signal types of 6.3 (`1`, `2`, …) or `taskChanges`, `employeeChanges`; repeated or comma-separated' }), ['1']),
  ),
  subscriberIDs: Type.Optional(IdList),
  subscriberGroupIDs: Type.Optional(Type.Array(Id, { maxItems: 1000, description: 'employee groups: alerts of the employees in them now' })),
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(DateTimeText),
  handled: Type.Optional(Type.Boolean({ description: 'true: handled ones only; false: unhandled ones only' })),
  lang: Type.Optional(Type.Union([Type.Literal('ru'), Type.Literal('en')], { description: 'the language of `what`; the account’s by default' })),
  count: Type.Optional(Count),
  lastAlertID: Type.Optional(Id),
});
export type AlertListQuery = Static<typeof AlertListQuery>;

export const Alert = Type.Object({
  alertID: Type.Integer(),
  kind: Type.Union([Type.Integer(), Type.String()], { description: 'the kind of the rule that fired' }),
  eventID: Type.Integer({ description: 'the event rule' }),
  eventName: Type.String({ description: 'the rule’s name when it fired' }),
  subscriberID: nullable(Type.Integer()),
  subscriberName: nullable(Type.String({ description: 'the employee’s name now; null when deleted or none' })),
  what: Type.String({ description: 'what happened, in words' }),
  where: nullable(Type.String({ description: 'the zone, else the address, else the coordinates' })),
  zoneName: nullable(Type.String()),
  address: nullable(Type.String()),
  latitude: nullable(Type.Number()),
  longitude: nullable(Type.Number()),
  occurredAt: Type.String({ description: 'when it happened' }),
  createdAt: Type.String({ description: 'when the alert was made' }),
  handledAt: nullable(Type.String()),
  handledByUserID: nullable(Type.Integer()),
  handledBy: nullable(Type.String({ description: 'the login of the user who marked it handled' })),
  facts: Type.Record(Type.String(), Type.Unknown(), { description: 'the signal body (6.3) or change element (6.4, 6.5) it was made from' }),
});
export type Alert = Static<typeof Alert>;

export const alertExample: Alert = {
  alertID: 3071,
  kind: 1,
  eventID: 14,
  eventName: 'Speeding on the ring road',
  subscriberID: 23,
  subscriberName: 'Truck 12 (Ivanov)',
  what: 'Speeding: 97 km/h',
  where: '55.78920, 37.68050',
  zoneName: null,
  address: null,
  latitude: 55.7892,
  longitude: 37.6805,
  occurredAt: '2026-03-02T07:58:02+03:00',
  createdAt: '2026-03-02T07:58:03+03:00',
  handledAt: null,
  handledByUserID: null,
  handledBy: null,
  facts: {
    signalID: 1042,
    signalDate: '2026-03-02T07:58:02+03:00',
    signalTypeID: 1,
    subscriberID: 23,
    subscriberExternalID: 'TRUCK-12',
    eventID: 14,
    latitude: 55.7892,
    longitude: 37.6805,
    velocity: 97,
  },
};

export const AlertList = withExamples(Type.Object({ data: Type.Array(Alert) }), { data: [alertExample] });
