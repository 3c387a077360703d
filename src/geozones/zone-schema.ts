import { Type, type Static, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';

export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Text that PostgreSQL can store: it refuses the NUL character, so it is refused here for both stores. */
export const text = (maxLength: number, minLength = 0) => Type.String({ minLength, maxLength, pattern: '^[^\\u0000]*$' });
export const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'degrees' });
export const Longitude = Type.Number({ minimum: -180, maximum: 180, description: 'degrees' });

/** Custom-field types (interface 2.8), matched case-insensitively and stored as given (CONTRACT §3). */
export const customFieldTypes = ['string', 'text', 'date', 'time', 'integer', 'double', 'boolean', 'select', 'picture', 'file'];

/** Bounds beyond this many points are refused; real outlines of cities and regions need a few thousand. */
export const MAX_BOUNDS_POINTS = 20_000;

const BoundsPoint = Type.Object({ longitude: Longitude, latitude: Latitude }, { additionalProperties: false });
const Bounds = Type.Array(BoundsPoint, {
  maxItems: MAX_BOUNDS_POINTS,
  description: 'a ring of at least 3 points (a closing point equal to the first is accepted, not stored twice); empty: the zone contains nothing',
});

const CustomFieldItemInput = Type.Object(
  {
    externalID: text(200),
    name: text(200),
    value: Type.Optional(nullable(text(10_000))),
    type: Type.String({ maxLength: 20, description: customFieldTypes.join(', ') + ' (any case)' }),
  },
  { additionalProperties: false },
);

const name = text(200, 1);

/** Zone fields of interface 2.5 a client writes; both spellings of the template id are accepted. */
const writableFields = {
  color: Type.Optional(Type.Integer({ minimum: -2_147_483_648, maximum: 4_294_967_295, description: 'RGB or ARGB, signed or unsigned 32 bits' })),
  enabled: Type.Optional(Type.Boolean()),
  zoneGroupID: Type.Optional(nullable(Id)),
  comment: Type.Optional(text(10_000)),
  customFieldsFormTemplateID: Type.Optional(nullable(Id)),
  customFieldFormTemplateID: Type.Optional(nullable(Id)),
  bounds: Type.Optional(Bounds),
  customFieldFormItems: Type.Optional(Type.Array(CustomFieldItemInput, { maxItems: 200 })),
};

const bounds = [
  { longitude: 37.679, latitude: 55.7885 },
  { longitude: 37.6822, latitude: 55.7885 },
  { longitude: 37.6822, latitude: 55.7901 },
  { longitude: 37.679, latitude: 55.7901 },
];
const zoneFields = {
  name: 'Warehouse Sokolniki',
  color: 16711680,
  enabled: true,
  zoneGroupID: 3,
  comment: 'Loading bays on the north side',
  bounds,
  customFieldsFormTemplateID: 4,
  customFieldFormItems: [{ externalID: 'opening-hours', name: 'Opening hours', value: '08:00-20:00', type: 'string' }],
};

/** POST and PUT: `name` required; every other field optional and, when omitted, its default. */
export const ZoneWrite = withExamples(Type.Object({ name, ...writableFields }, { additionalProperties: false }), zoneFields);
export type ZoneWrite = Static<typeof ZoneWrite>;

/** PATCH: any subset; only the fields present change. */
export const ZonePatch = withExamples(Type.Object({ name: Type.Optional(name), ...writableFields }, { additionalProperties: false }), {
  enabled: false,
  comment: 'Closed for repairs until 10 March',
});
export type ZonePatch = Static<typeof ZonePatch>;

export const CustomFieldItem = Type.Object({
  externalID: Type.String(),
  name: Type.String(),
  value: Type.Optional(nullable(Type.String())),
  type: Type.String(),
});
export type CustomFieldItem = Static<typeof CustomFieldItem>;

export const Zone = Type.Object({
  zoneID: Type.Integer(),
  name: Type.String(),
  color: Type.Integer(),
  enabled: Type.Boolean(),
  zoneGroupID: nullable(Type.Integer()),
  comment: Type.String(),
  bounds: Type.Array(Type.Object({ longitude: Type.Number(), latitude: Type.Number() })),
  customFieldsFormTemplateID: nullable(Type.Integer()),
  customFieldFormItems: Type.Optional(Type.Array(CustomFieldItem)),
});
export type Zone = Static<typeof Zone>;

export const zoneExample: Zone = { zoneID: 5, ...zoneFields };
export const ZoneWithExample = withExamples(Zone, zoneExample);
export const ZoneList = withExamples(Type.Array(Zone), [
  zoneExample,
  { zoneID: 6, name: 'Depot Lyublino', color: 65280, enabled: true, zoneGroupID: 3, comment: '', bounds: [], customFieldsFormTemplateID: null, customFieldFormItems: [] },
]);

export const ZoneListQuery = Type.Object({
  withCustomTemplateItems: withExamples(Type.Boolean({ description: 'required: true returns custom fields, false omits them' }), true),
});

/** Routes 10 and 11 share a path: either `mapObjectID` (and optionally `zoneGroupID`) or `latitude` and `longitude`. */
export const ZoneLookupQuery = Type.Object({
  mapObjectID: Type.Optional(Id),
  zoneGroupID: Type.Optional(Id),
  latitude: Type.Optional(withExamples(Latitude, 55.7892)),
  longitude: Type.Optional(withExamples(Longitude, 37.6805)),
});
export type ZoneLookupQuery = Static<typeof ZoneLookupQuery>;

export const ZoneLookupResult = withExamples(
  Type.Object({
    zones: Type.Array(Type.Object({ zoneID: Type.Integer(), name: Type.String(), zoneGroupID: nullable(Type.Integer()) })),
  }),
  { zones: [{ zoneID: 5, name: 'Warehouse Sokolniki', zoneGroupID: 3 }] },
);
