import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { nullable, text } from './zone-schema.js';

const name = text(200, 1);
const fields = {
  parentID: Type.Optional(nullable(Id)),
  regionID: Type.Optional(nullable(Id)),
};

/** POST and PUT (interface 2.7): `name` required; an omitted parentID or regionID is null. */
export const ZoneGroupWrite = withExamples(Type.Object({ name, ...fields }, { additionalProperties: false }), { name: 'Depots', parentID: 1, regionID: null });
export type ZoneGroupWrite = Static<typeof ZoneGroupWrite>;

/** PATCH: any subset; only the fields present change. */
export const ZoneGroupPatch = withExamples(Type.Object({ name: Type.Optional(name), ...fields }, { additionalProperties: false }), { name: 'Depots and warehouses' });
export type ZoneGroupPatch = Static<typeof ZoneGroupPatch>;

export const ZoneGroup = Type.Object({
  zoneGroupID: Type.Integer(),
  name: Type.String(),
  parentID: nullable(Type.Integer()),
  regionID: nullable(Type.Integer()),
});
export type ZoneGroup = Static<typeof ZoneGroup>;

const zoneGroupExample: ZoneGroup = { zoneGroupID: 3, name: 'Depots', parentID: 1, regionID: null };
export const ZoneGroupWithExample = withExamples(ZoneGroup, zoneGroupExample);
export const ZoneGroupList = withExamples(Type.Array(ZoneGroup), [{ zoneGroupID: 1, name: 'Moscow', parentID: null, regionID: 77 }, zoneGroupExample]);
