import { Type, type Static } from 'typebox';
import { Count, DateTimeText, Id, IdList, Offset } from '../http/list-params.js';

/** Interface 2.2. */
export const Track = Type.Object({
  trackID: Type.Integer(),
  subscriberID: Type.Integer(),
  startDate: Type.String(),
  finishDate: Type.String(),
  startAddress: Type.String(),
  finishAddress: Type.String(),
  startLon: Type.Number(),
  startLat: Type.Number(),
  finishLon: Type.Number(),
  finishLat: Type.Number(),
  distance: Type.Integer({ description: 'metres' }),
  duration: Type.Integer({ description: 'seconds' }),
});
export type Track = Static<typeof Track>;

export const TrackListQuery = Type.Object({
  dateFrom: Type.Optional(DateTimeText),
  dateTo: Type.Optional(DateTimeText),
  subscriberIDs: Type.Optional(IdList),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
  lastTrackID: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});
export type TrackListQuery = Static<typeof TrackListQuery>;

/** Interface 2.3, grouped per vehicle. */
export const VehicleEvent = Type.Object({
  type: Type.Integer({ description: '1 fuel filling; 2 fuel drain; 3 sensor value violation; 4 speed exceeded; 5 prolonged speed exceeded' }),
  latitude: Type.Number(),
  longitude: Type.Number(),
  value: Type.Number(),
  eventDate: Type.String(),
});
export const VehicleEvents = Type.Object({
  data: Type.Array(Type.Object({ subscriberID: Type.Integer(), events: Type.Array(VehicleEvent) })),
});

export const EventListQuery = Type.Object({
  startDate: Type.Optional(DateTimeText),
  finishDate: Type.Optional(DateTimeText),
  subscriberIDs: IdList,
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
});
export type EventListQuery = Static<typeof EventListQuery>;

/** Interface 2.4, grouped per vehicle. */
export const StatisticsRecord = Type.Object({
  mileage: Type.Number({ description: 'km' }),
  fuelConsumption: Type.Number({ description: 'litres' }),
  engineMotohours: Type.Number({ description: 'hours' }),
  endFuelLevel: Type.Union([Type.Number(), Type.Null()], { description: 'litres; null when the vehicle reports no fuel level' }),
  totalVehicleDistance: Type.Number({ description: 'km' }),
  locationDate: Type.String(),
});
export type StatisticsRecord = Static<typeof StatisticsRecord>;
export const Statistics = Type.Object({
  data: Type.Array(Type.Object({ subscriberID: Type.Integer(), statistics: Type.Array(StatisticsRecord) })),
});

export const StatisticsQuery = Type.Object({
  dateFrom: Type.Optional(DateTimeText),
  dateTo: Type.Optional(DateTimeText),
  subscriberIDs: IdList,
  // Checked by the service: the contract answers code 2, not 52, when it is missing.
  interval: Type.Optional(Type.Integer({ description: 'required: 1 latest record of the period; 2 hourly; 3 every fix' })),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
});
export type StatisticsQuery = Static<typeof StatisticsQuery>;

export const TrackParams = Type.Object({ trackID: Id });
