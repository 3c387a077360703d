import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { FormFill, MobileIdentity, MobileTaskList, MobileTaskQuery, mobileTaskListExample, StatusChange, Task, taskExample } from './task-schema.js';
import type { TaskService } from './task-service.js';

/** Task 311 as the employee's phone leaves it: done, with a comment and the payment answered. */
const doneExample: Task = {
  ...taskExample,
  status: 3,
  statusComment: 'Handed to the client in person',
  lastStatusChangeDate: '2026-03-02T11:20:31+03:00',
  customFieldFormItems: [{ externalID: 'payment', name: 'Payment', value: 'cash', type: 'select' }],
};

const tags = ['Employee app'];
const authentication = 'Authenticated by the employee’s device key, `Authorization: Device <deviceKey>` (401 code 1 without a valid one), not by a bearer token.';
const writes =
  'The time the employee acted is `actedAt` (a write queued offline sends it later): the change is dated so in `lastStatusChangeDate`, ' +
  'the task history and the change event’s `signalDate`. With an `Idempotency-Key`, a repeat changes nothing and gets the first answer.';
const taskParams = Type.Object({ taskID: withExamples(Id, 311) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/**
 * The employee's phone and app (CONTRACT §5, §7) under `/mobile/v1`, where the device key has
 * already named the employee (`request.device`). Only the employee's own tasks; each change is
 * initiated by the employee (`subscriberID`).
 */
export function mobileTaskRoutes(tasks: TaskService) {
  return async (mobile: Api) => {
    mobile.get(
      '/mobile/v1/me',
      {
        schema: {
          tags,
          summary: 'Whose device key this is',
          description: `${authentication} The employee and the account the key belongs to: the app shows whose it is. A replaced key answers 401.`,
          security: [],
          response: {
            200: described(withExamples(MobileIdentity, { subscriberID: 17, name: 'Ivan Petrov', accountName: 'Courier Co', timeZone: 'Europe/Moscow', locale: 'ru' }), 'the employee'),
            401: ErrorBody,
          },
        },
      },
      async (request) => tasks.employeeOfDevice(request.device.account, request.device.subscriberID),
    );

    mobile.get(
      '/mobile/v1/tasks',
      {
        schema: {
          tags,
          summary: 'The employee’s tasks of today and the coming days',
          description:
            `${authentication} The employee’s tasks planned from the start of today (in the account’s zone) to the end of the \`days\`-th day ` +
            'after (default 7), or changed within that time, by start date, then id; each with its form’s template (`form`, null without one) ' +
            'and the task statuses the app offers.',
          security: [],
          querystring: MobileTaskQuery,
          response: { 200: described(withExamples(MobileTaskList, mobileTaskListExample), 'the tasks'), 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request) => tasks.listForEmployee(request.device.account, request.device.subscriberID, request.query.days ?? 7),
    );

    mobile.post(
      '/mobile/v1/tasks/:taskID/status',
      {
        schema: {
          tags,
          summary: 'The employee sets the status of one of their tasks',
          description:
            `${authentication} Only a task assigned to this employee can be changed (404 code 18 otherwise). ` +
            'A comment is required where the task’s `commentPolicy` asks for one; custom fields are answered by `externalID`. ' +
            `${writes} Answers the task as changed and fires the task-changed event, initiated by the employee.`,
          // Not the bearer token of /v6/api: the phone has only its device key.
          security: [],
          params: taskParams,
          body: StatusChange,
          response: { 200: described(withExamples(Task, doneExample), 'the task as changed'), ...errors },
        },
      },
      async (request) => tasks.setStatusByEmployee(request.device.account, request.device.subscriberID, request.params.taskID, request.body),
    );

    mobile.post(
      '/mobile/v1/tasks/:taskID/form',
      {
        schema: {
          tags,
          summary: 'The employee fills the form of one of their tasks',
          description:
            `${authentication} The values are merged into the task’s custom fields by \`externalID\` and checked against its template as every ` +
            'form is (400 code 2 naming the item). A picture or file field’s value is the `fileID` of a file uploaded for this task, or a comma ' +
            `list of them. The status is left as it is. ${writes}`,
          security: [],
          params: taskParams,
          body: FormFill,
          response: { 200: described(withExamples(Task, doneExample), 'the task with its form'), ...errors },
        },
      },
      async (request) => tasks.saveFormByEmployee(request.device.account, request.device.subscriberID, request.params.taskID, request.body),
    );
  };
}
