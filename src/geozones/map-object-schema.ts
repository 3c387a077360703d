import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id, IdList } from '../http/list-params.js';
import { Latitude, Longitude, nullable, text } from './zone-schema.js';

const optionalFields = {
  address: Type.Optional(text(1000)),
  externalID: Type.Optional(nullable(text(200))),
  comment: Type.Optional(text(10_000)),
  mapObjectGroupID: Type.Optional(nullable(Id)),
};
const name = text(200, 1);

/** POST and PUT (CONTRACT §3): `name`, `latitude` and `longitude` required; the rest default to "" or null. */
const mapObjectFields = {
  name: 'Pharmacy on Tverskaya',
  address: 'Tverskaya St, 7, Moscow',
  latitude: 55.75583,
  longitude: 37.61173,
  externalID: 'SHOP-0193',
  comment: 'Deliveries through the courtyard',
  mapObjectGroupID: null,
};
export const MapObjectWrite = withExamples(
  Type.Object({ name, latitude: Latitude, longitude: Longitude, ...optionalFields }, { additionalProperties: false }),
  mapObjectFields,
);
export type MapObjectWrite = Static<typeof MapObjectWrite>;

/** PATCH: any subset; only the fields present change. */
export const MapObjectPatch = withExamples(
  Type.Object(
    { name: Type.Optional(name), latitude: Type.Optional(Latitude), longitude: Type.Optional(Longitude), ...optionalFields },
    { additionalProperties: false },
  ),
  { comment: 'Ring the bell at the back door' },
);
export type MapObjectPatch = Static<typeof MapObjectPatch>;

export const MapObject = Type.Object({
  mapObjectID: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  externalID: nullable(Type.String()),
  comment: Type.String(),
  mapObjectGroupID: nullable(Type.Integer({ description: 'the group as the client gave it; not checked' })),
});
export type MapObject = Static<typeof MapObject>;

export const MapObjectWithExample = withExamples(MapObject, { mapObjectID: 8, ...mapObjectFields });
export const MapObjectList = withExamples(Type.Array(MapObject), [{ mapObjectID: 8, ...mapObjectFields }]);

export const MapObjectListQuery = Type.Object({
  address: Type.Optional(
    withExamples(
      Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'objects whose address contains every word of this text, in any order, ignoring case (Latin and Cyrillic alike; ё and е are different ' +
        'letters). Words are runs of letters and digits: spaces, commas, full stops, hyphens and other punctuation separate them ("д. 1" is the ' +
        'words "д" and "1"); each word may occur inside a longer one ("примор" finds "Приморский"); `%`, `_` and `\\` are plain characters. ' +
        'A text with no letter or digit: 400 code 2.',
      }),
      'tverskaya 7',
    ),
  ),
  mapObjectIDs: Type.Optional(IdList),
  mapObjectGroupIDs: Type.Optional(IdList),
});
export type MapObjectListQuery = Static<typeof MapObjectListQuery>;
