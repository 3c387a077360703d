import { Type, type Static } from 'typebox';
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
export const LocationBatch = Type.Array(LocationInput, { minItems: 1, maxItems: MAX_BATCH });

export const IngestResult = Type.Object({ accepted: Type.Integer() });

export const LocationListQuery = Type.Object({
  dateFrom: Type.Optional(DateTimeText),
  dateTo: Type.Optional(DateTimeText),
  subscriberIDs: Type.Optional(IdList),
  count: Type.Optional(Count),
  lastLocationID: Type.Optional(Id),
});
export type LocationListQuery = Static<typeof LocationListQuery>;
