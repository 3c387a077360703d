import { Type, type Static } from 'typebox';
import { Id } from '../http/list-params.js';
import { nullable, text } from './zone-schema.js';

const name = text(200, 1);
const fields = {
  parentID: Type.Optional(nullable(Id)),
  regionID: Type.Optional(nullable(Id)),
};

/** POST and PUT (interface 2.7): `name` required; an omitted parentID or regionID is null. */
export const ZoneGroupWrite = Type.Object({ name, ...fields }, { additionalProperties: false });
export type ZoneGroupWrite = Static<typeof ZoneGroupWrite>;

/** PATCH: any subset; only the fields present change. */
export const ZoneGroupPatch = Type.Object({ name: Type.Optional(name), ...fields }, { additionalProperties: false });
export type ZoneGroupPatch = Static<typeof ZoneGroupPatch>;

export const ZoneGroup = Type.Object({
  zoneGroupID: Type.Integer(),
  name: Type.String(),
  parentID: nullable(Type.Integer()),
  regionID: nullable(Type.Integer()),
});
export type ZoneGroup = Static<typeof ZoneGroup>;
