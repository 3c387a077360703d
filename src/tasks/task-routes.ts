import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Task, TaskChange, taskExample, taskHistoryExample, TaskListQuery, TaskWrite } from './task-schema.js';
import type { TaskService } from './task-service.js';

const tags = ['Task management'];
const ById = Type.Object({ taskID: withExamples(Id, 311) });
const OneTask = described(withExamples(Task, taskExample), 'the task');
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/taskManagement/tasks` (CONTRACT §5). */
export function taskRoutes(tasks: TaskService) {
  return async (api: Api) => {
    const base = '/taskManagement/tasks';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List tasks, by start date',
          description:
            'The tasks whose `startDate` falls in the period, filtered by employee, status and task type, ordered by start date. ' +
            'Page with `count` and `offset`.',
          querystring: TaskListQuery,
          response: { 200: described(withExamples(Type.Array(Task), [taskExample]), 'the tasks, by start date'), ...errors },
        },
      },
      async (request) => tasks.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/:taskID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One task',
          description: 'The task with its route items, work orders and custom fields. Another account’s is 404 code 18.',
          params: ById,
          response: { 200: OneTask, ...errors },
        },
      },
      async (request) => tasks.get(request.principal.account, request.params.taskID),
    );

    api.get(
      `${base}/:taskID/history`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The history of a task',
          description:
            'Every change of the task: when, by whom (`userID` a person or token, `subscriberID` the employee’s phone, `agentID` the service), ' +
            'the fields as they were (`changedValues`, as the task-changed event carries them) and as they became (`newValues`). ' +
            'An extension of the interface.',
          params: ById,
          response: { 200: described(withExamples(Type.Array(TaskChange), taskHistoryExample), 'the changes, oldest first'), ...errors },
        },
      },
      async (request) => tasks.history(request.principal.account, request.params.taskID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create a task',
          description:
            '`title` (400 code 22 when missing or blank) and `startDate` (400 code 52) are required; the rest take their defaults. ' +
            '`subscriberID` assigns it to an employee, whose phone sees it. `latitude` and `longitude` go together. ' +
            'Fires the task-added event (interface 6.4).',
          body: TaskWrite,
          response: { 201: described(withExamples(Task, taskExample), 'the created task; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await tasks.create(request.principal, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.taskID}`).send(created);
      },
    );

    api.put(
      `${base}/:taskID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace a task',
          description:
            'The whole task: `title` and `startDate` are required, and fields left out take their defaults. Any status may follow any status. ' +
            'Fires the task-changed event with the previous values of the changed fields.',
          params: ById,
          body: TaskWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await tasks.replace(request.principal, request.params.taskID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:taskID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of a task',
          description:
            'Only the fields in the body change; `title` and `startDate` cannot be set to null. A status change records `lastStatusChangeDate`. ' +
            'Fires the task-changed event with the previous values of the changed fields.',
          params: ById,
          body: withExamples(TaskWrite, { status: 1, subscriberID: 23 }),
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await tasks.patch(request.principal, request.params.taskID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:taskID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete a task',
          description: 'The task is gone (404 code 18 from then on). Fires the task-deleted event.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await tasks.delete(request.principal, request.params.taskID);
        return reply.code(204).send(null);
      },
    );
  };
}
