import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.js';
import { described, withExamples } from '../http/examples.js';
import { IdList } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { TaskArrival } from './arrival-schema.js';

/** Estimated arrival of tasks' assignees (the signals module's, composed in app.ts). */
export interface ArrivalEstimates {
  estimate(account: Account, taskIDs: number[]): Promise<TaskArrival[]>;
}

const arrivalExample: TaskArrival = {
  taskID: 311,
  subscriberID: 17,
  estimatedArrivalDate: '2026-03-02T09:26:40+03:00',
  travelSeconds: 755,
  latitude: 55.7892,
  longitude: 37.6805,
  locationDate: '2026-03-02T09:14:05+03:00',
};

/**
 * `GET /workspace/api/arrivals?taskIDs=…`: for the Tasks tab's map, when each task's assignee is
 * expected at its point. A workspace route, not /v6/api: the interface has estimated arrival only
 * as signal 24, and this answer is for the map, not for integrators.
 */
export function arrivalRoutes(authenticate: (request: FastifyRequest) => Promise<void>, arrivals: ArrivalEstimates) {
  return async (api: Api) => {
    api.addHook('onRequest', authenticate);
    api.get(
      '/workspace/api/arrivals',
      {
        config: { permission: 'view' },
        schema: {
          tags: ['Workspace'],
          summary: 'Estimated arrival of the assignees of these tasks',
          description:
            'For the Tasks tab’s map, with the workspace’s session cookie: open, assigned tasks with a point whose assignee has a fix; others are ' +
            'left out. The estimate is the one of signal 24 (ROUTER_URL when set, else the straight line at the employee’s speed, at least 15 ' +
            'km/h); none beyond 12 hours of travel.',
          querystring: Type.Object({ taskIDs: withExamples(IdList, [311]) }),
          response: { 200: described(withExamples(Type.Array(TaskArrival), [arrivalExample]), 'the estimates'), 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request) => arrivals.estimate(request.principal.account, request.query.taskIDs),
    );
  };
}
