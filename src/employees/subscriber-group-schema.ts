import { Type, type Static, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const name = Type.String({ minLength: 1, maxLength: 200 });
const fields = {
  regionID: Type.Optional(nullable(Id)),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
};

/** An employee group: what interface 2.9's `subscriberGroupID` names. */
export const SubscriberGroup = Type.Object({
  subscriberGroupID: Type.Integer(),
  name: Type.String(),
  regionID: nullable(Type.Integer()),
  comment: Type.String(),
});
export type SubscriberGroup = Static<typeof SubscriberGroup>;

const groupExample: SubscriberGroup = { subscriberGroupID: 2, name: 'Couriers', regionID: null, comment: 'Day shift, north districts' };
export const SubscriberGroupWithExample = withExamples(SubscriberGroup, groupExample);
export const SubscriberGroupList = withExamples(Type.Array(SubscriberGroup), [
  groupExample,
  { subscriberGroupID: 5, name: 'Drivers', regionID: null, comment: '' },
]);

/** POST and PUT: `name` required; omitted fields take their defaults (regionID null, comment ""). */
export const SubscriberGroupWrite = withExamples(Type.Object({ name, ...fields }, { additionalProperties: false }), {
  name: 'Couriers',
  comment: 'Day shift, north districts',
});
export type SubscriberGroupWrite = Static<typeof SubscriberGroupWrite>;

/** PATCH: only the fields present change. */
export const SubscriberGroupPatch = withExamples(Type.Object({ name: Type.Optional(name), ...fields }, { additionalProperties: false }), {
  comment: 'Day shift, all districts',
});
export type SubscriberGroupPatch = Static<typeof SubscriberGroupPatch>;
