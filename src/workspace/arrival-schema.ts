import { Type, type Static } from 'typebox';

/**
 * One task's estimated arrival as `GET /workspace/api/arrivals` answers it. Its own file, with
 * nothing but the schema, so that the workspace's pages read the same type (web/src imports it).
 */
export const TaskArrival = Type.Object({
  taskID: Type.Integer(),
  subscriberID: Type.Integer({ description: 'the assignee' }),
  estimatedArrivalDate: Type.String({ description: 'the latest fix’s time plus the travel time from it, in the account’s time zone' }),
  travelSeconds: Type.Integer(),
  latitude: Type.Number({ description: 'where the estimate starts: the assignee’s latest fix' }),
  longitude: Type.Number(),
  locationDate: Type.String(),
});
export type TaskArrival = Static<typeof TaskArrival>;
