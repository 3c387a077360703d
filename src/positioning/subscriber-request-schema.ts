import { Type, type Static, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Count, DateTimeText, Id, IdList, Offset } from '../http/list-params.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The original's result codes of a location request that Lokator can give (docs/integrators/clients.md, "Locate now"). */
export const resultCodes = {
  SUCCESS: 0,
  SUBSCRIBER_OFFLINE: 5,
  CANNOT_LOCATE: 585,
  REQUESTED_TOO_OFTEN: 588,
  LOCATE_DISABLED: 906,
} as const;
export type ResultName = keyof typeof resultCodes;

export const SubscriberRequestWrite = withExamples(Type.Object({ subscriberID: Id }, { additionalProperties: false }), { subscriberID: 17 });
export type SubscriberRequestWrite = Static<typeof SubscriberRequestWrite>;

export const SubscriberRequest = Type.Object({
  requestID: Type.Integer(),
  subscriberID: Type.Integer(),
  requestDate: Type.String(),
  resultCode: Type.Integer({ description: '0 located; 5 offline; 585 cannot locate; 588 requested too often; 906 location detection disabled' }),
  resultDescription: Type.String(),
  message: Type.String(),
  locationID: nullable(Type.Integer({ description: 'for result 0: the fix, also in lastLocations' })),
});
export type SubscriberRequest = Static<typeof SubscriberRequest>;

export const subscriberRequestExamples: SubscriberRequest[] = [
  {
    requestID: 88,
    subscriberID: 17,
    requestDate: '2026-03-02T09:14:30+03:00',
    resultCode: 0,
    resultDescription: 'SUCCESS',
    message: 'located: the phone’s latest fix is under a minute old (OsmAnd HTTP phones cannot be asked for a fix, they report on their own interval)',
    locationID: 905512,
  },
  {
    requestID: 87,
    subscriberID: 23,
    requestDate: '2026-03-02T09:02:10+03:00',
    resultCode: 5,
    resultDescription: 'SUBSCRIBER_OFFLINE',
    message: 'the employee’s phone is offline: no fixes within the online timeout',
    locationID: null,
  },
];

export const SubscriberRequestListQuery = Type.Object({
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  subscriberIDs: Type.Optional(withExamples(IdList, [17, 23])),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
});
export type SubscriberRequestListQuery = Static<typeof SubscriberRequestListQuery>;
