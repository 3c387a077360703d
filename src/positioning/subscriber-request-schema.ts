import { Type, type Static, type TSchema } from 'typebox';
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

export const SubscriberRequestWrite = Type.Object({ subscriberID: Id }, { additionalProperties: false });
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

export const SubscriberRequestListQuery = Type.Object({
  dateFrom: Type.Optional(DateTimeText),
  dateTo: Type.Optional(DateTimeText),
  subscriberIDs: Type.Optional(IdList),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
});
export type SubscriberRequestListQuery = Static<typeof SubscriberRequestListQuery>;
