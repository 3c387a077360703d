import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Count, DateTimeText, Id, IdList } from '../http/list-params.js';

/** Interface 2.1, exactly: what GET …/locations answers. */
export const Location = Type.Object({
  locationDate: Type.String(),
  subscriberID: Type.Integer(),
  locationID: Type.Integer(),
  isValid: Type.Boolean(),
  longitude: Type.Number(),
  latitude: Type.Number(),
  angle: Type.Integer(),
  velocity: Type.Number(),
});
export type Location = Static<typeof Location>;

export const locationExamples: Location[] = [
  { locationDate: '2026-03-02T09:14:05+03:00', subscriberID: 17, locationID: 905512, isValid: true, longitude: 37.61173, latitude: 55.75583, angle: 90, velocity: 32.5 },
  { locationDate: '2026-03-02T09:13:35+03:00', subscriberID: 17, locationID: 905511, isValid: true, longitude: 37.60651, latitude: 55.75571, angle: 88, velocity: 31 },
];
export const LocationWithExample = withExamples(Location, locationExamples[0]!);
export const LocationList = withExamples(Type.Array(Location), locationExamples);

const reading = (max: number, description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: max, description }));

/**
 * One fix to ingest: interface 2.1 without `locationID`, plus the vehicle readings of CONTRACT §2.
 * `isValid` defaults to true, `angle` and `velocity` to 0.
 */
export const LocationInput = Type.Object(
  {
    subscriberID: Id,
    locationDate: DateTimeText,
    isValid: Type.Optional(Type.Boolean()),
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
    angle: Type.Optional(Type.Integer({ minimum: 0, maximum: 360, description: 'degrees' })),
    velocity: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000, description: 'km/h' })),
    fuelLevel: reading(1e6, 'litres'),
    ignition: Type.Optional(Type.Boolean()),
    externalPower: Type.Optional(Type.Boolean()),
    odometer: reading(1e9, 'km'),
    engineHours: reading(1e7, 'hours'),
    sensors: Type.Optional(
      Type.Array(
        Type.Object(
          { sensorID: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), value: Type.Number({ minimum: -1e12, maximum: 1e12 }) },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type LocationInput = Static<typeof LocationInput>;

export const MAX_BATCH = 10_000;
export const LocationBatch = withExamples(Type.Array(LocationInput, { minItems: 1, maxItems: MAX_BATCH }), [
  { subscriberID: 17, locationDate: '2026-03-02T09:14:05+03:00', latitude: 55.75583, longitude: 37.61173, angle: 90, velocity: 32.5 },
  {
    subscriberID: 23,
    locationDate: '2026-03-02T06:14:07Z',
    latitude: 55.7963,
    longitude: 37.5378,
    angle: 270,
    velocity: 54.2,
    ignition: true,
    fuelLevel: 61.5,
    odometer: 128450.2,
    sensors: [{ sensorID: 1, value: 4.2 }],
  },
]);

export const IngestResult = withExamples(Type.Object({ accepted: Type.Integer({ description: 'how many fixes were stored' }) }), { accepted: 2 });

export const LocationListQuery = Type.Object({
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  subscriberIDs: Type.Optional(withExamples(IdList, [17, 23])),
  count: Type.Optional(withExamples(Count, 100)),
  lastLocationID: Type.Optional(withExamples(Id, 905511)),
});
export type LocationListQuery = Static<typeof LocationListQuery>;

/** A fix the employee's app took with the browser's geolocation; its employee is the device key's. */
export const AppLocationInput = Type.Object(
  {
    locationDate: DateTimeText,
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
    accuracy: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6, description: 'metres (coords.accuracy); 0: unknown' })),
    angle: Type.Optional(Type.Integer({ minimum: 0, maximum: 360, description: 'degrees (coords.heading)' })),
    velocity: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000, description: 'km/h (coords.speed × 3.6)' })),
  },
  { additionalProperties: false },
);
export type AppLocationInput = Static<typeof AppLocationInput>;

export const AppLocationBatch = withExamples(Type.Array(AppLocationInput, { minItems: 1, maxItems: 1000 }), [
  { locationDate: '2026-03-02T09:14:05+03:00', latitude: 55.75583, longitude: 37.61173, accuracy: 12, velocity: 4.3 },
]);
