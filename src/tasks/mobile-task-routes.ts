import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Account, AccountReader } from '../accounts/accounts.js';
import type { EmployeeDevices } from '../employees/employees.js';
import { ApiError } from '../http/errors.js';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { StatusChange, Task, taskExample } from './task-schema.js';
import type { TaskService } from './task-service.js';

const unauthorized = (message: string) => new ApiError('USER_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Device' });

/** Task 311 as the employee's phone leaves it: done, with a comment and the payment answered. */
const doneExample: Task = {
  ...taskExample,
  status: 3,
  statusComment: 'Handed to the client in person',
  lastStatusChangeDate: '2026-03-02T11:20:31+03:00',
  customFieldFormItems: [{ externalID: 'payment', name: 'Payment', value: 'cash', type: 'select' }],
};

/**
 * The employee's phone (CONTRACT §5): `POST /mobile/v1/tasks/{taskID}/status` with
 * `Authorization: Device <deviceKey>`, the key the phone already sends on the OsmAnd port. Only
 * the employee's own tasks; the change event names the employee (`subscriberID`) as initiator.
 */
export function mobileTaskRoutes(accounts: Pick<AccountReader, 'get'>, employees: Pick<EmployeeDevices, 'findByDeviceKey'>, tasks: TaskService) {
  const identify = async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Authorization header is missing');
    const match = /^Device +([\x21-\x7e]{1,128})$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Authorization header must be "Device <deviceKey>"');
    const owner = await employees.findByDeviceKey(match[1]);
    const account = owner ? await accounts.get(owner.accountId) : null;
    if (!owner || !account) throw unauthorized('the device key is unknown');
    return { account, subscriberID: owner.subscriberId };
  };

  return async (mobile: Api) => {
    mobile.post(
      '/mobile/v1/tasks/:taskID/status',
      {
        schema: {
          tags: ['Employee app'],
          summary: 'The employee sets the status of one of their tasks',
          description:
            'Authenticated by the employee’s device key, `Authorization: Device <deviceKey>` (401 code 1 without a valid one), not by a bearer ' +
            'token. Only a task assigned to this employee can be changed (404 code 18 otherwise). ' +
            'A comment is required where the task’s `commentPolicy` asks for one; custom fields are answered by `externalID`. ' +
            'Answers the task as changed and fires the task-changed event, initiated by the employee.',
          // Not the bearer token of /v6/api: the phone has only its device key.
          security: [],
          params: Type.Object({ taskID: withExamples(Id, 311) }),
          body: StatusChange,
          response: { 200: described(withExamples(Task, doneExample), 'the task as changed'), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
        // Who is asking is settled before the body is looked at: a stranger learns nothing from a 400.
        onRequest: async (request) => {
          request.device = await identify(request);
        },
      },
      async (request) => tasks.setStatusByEmployee(request.device.account, request.device.subscriberID, request.params.taskID, request.body),
    );
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the mobile routes: the employee whose device key the request carries. */
    device: { account: Account; subscriberID: number };
  }
}
