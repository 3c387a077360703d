import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
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

export const trackExample: Track = {
  trackID: 1207,
  subscriberID: 23,
  startDate: '2026-03-02T08:02:11+03:00',
  finishDate: '2026-03-02T08:41:50+03:00',
  startAddress: 'Warehouse Sokolniki',
  finishAddress: '55.75583, 37.61173',
  startLon: 37.6805,
  startLat: 55.7892,
  finishLon: 37.61173,
  finishLat: 55.75583,
  distance: 7412,
  duration: 2379,
};
export const TrackWithExample = withExamples(Track, trackExample);
export const TrackList = withExamples(Type.Array(Track), [
  trackExample,
  {
    ...trackExample,
    trackID: 1210,
    startDate: '2026-03-02T09:05:30+03:00',
    finishDate: '2026-03-02T09:31:02+03:00',
    startAddress: '55.75583, 37.61173',
    finishAddress: 'Warehouse Sokolniki',
    startLon: 37.61173,
    startLat: 55.75583,
    finishLon: 37.6805,
    finishLat: 55.7892,
    distance: 7690,
    duration: 1532,
  },
]);

export const TrackListQuery = Type.Object({
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  subscriberIDs: Type.Optional(withExamples(IdList, [23])),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
  lastTrackID: Type.Optional(withExamples(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), 1206)),
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
export const VehicleEvents = withExamples(
  Type.Object({
    data: Type.Array(Type.Object({ subscriberID: Type.Integer(), events: Type.Array(VehicleEvent) })),
  }),
  {
    data: [
      {
        subscriberID: 23,
        events: [
          { type: 1, latitude: 55.7892, longitude: 37.6805, value: 38.5, eventDate: '2026-03-02T07:40:12+03:00' },
          { type: 4, latitude: 55.77121, longitude: 37.65234, value: 97, eventDate: '2026-03-02T08:15:40+03:00' },
        ],
      },
    ],
  },
);

export const EventListQuery = Type.Object({
  startDate: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  finishDate: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  subscriberIDs: withExamples(IdList, [23]),
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
export const Statistics = withExamples(
  Type.Object({
    data: Type.Array(Type.Object({ subscriberID: Type.Integer(), statistics: Type.Array(StatisticsRecord) })),
  }),
  {
    data: [
      {
        subscriberID: 23,
        statistics: [
          { mileage: 84.3, fuelConsumption: 11.2, engineMotohours: 3.5, endFuelLevel: 50.3, totalVehicleDistance: 128534.5, locationDate: '2026-03-02T18:55:02+03:00' },
        ],
      },
    ],
  },
);

export const StatisticsQuery = Type.Object({
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  subscriberIDs: withExamples(IdList, [23]),
  // Checked by the service: the contract answers code 2, not 52, when it is missing.
  interval: Type.Optional(withExamples(Type.Integer({ description: 'required: 1 latest record of the period; 2 hourly; 3 every fix' }), 1)),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
});
export type StatisticsQuery = Static<typeof StatisticsQuery>;

export const TrackParams = Type.Object({ trackID: withExamples(Id, 1207) });

export const TrackExportQuery = Type.Object({
  subscriberIDs: withExamples(IdList, [23]),
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T08:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T09:00:00+03:00')),
  format: withExamples(Type.Union([Type.Literal('gpx'), Type.Literal('kml')], { description: '`gpx` (GPX 1.1) or `kml` (KML 2.2)' }), 'gpx'),
});
export type TrackExportQuery = Static<typeof TrackExportQuery>;
