import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Task, TaskChange, TaskListQuery, TaskWrite } from './task-schema.js';
import type { TaskService } from './task-service.js';

const tags = ['tasks'];
const ById = Type.Object({ taskID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/taskManagement/tasks` (CONTRACT §5). */
export function taskRoutes(tasks: TaskService) {
  return async (api: Api) => {
    const base = '/taskManagement/tasks';

    api.get(
      base,
      { schema: { tags, summary: 'List tasks, by start date', querystring: TaskListQuery, response: { 200: Type.Array(Task), ...errors } } },
      async (request) => tasks.list(request.principal.account, request.query),
    );

    api.get(`${base}/:taskID`, { schema: { tags, summary: 'One task', params: ById, response: { 200: Task, ...errors } } }, async (request) =>
      tasks.get(request.principal.account, request.params.taskID),
    );

    api.get(
      `${base}/:taskID/history`,
      {
        schema: {
          tags,
          summary: 'The task’s changes, oldest first: who changed which fields, from what to what (ours)',
          params: ById,
          response: { 200: Type.Array(TaskChange), ...errors },
        },
      },
      async (request) => tasks.history(request.principal.account, request.params.taskID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create a task (title and startDate required)', body: TaskWrite, response: { 201: Task, ...errors } } },
      async (request, reply) => {
        const created = await tasks.create(request.principal, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.taskID}`).send(created);
      },
    );

    api.put(
      `${base}/:taskID`,
      { schema: { tags, summary: 'Replace a task', params: ById, body: TaskWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await tasks.replace(request.principal, request.params.taskID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:taskID`,
      { schema: { tags, summary: 'Change some fields of a task', params: ById, body: TaskWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await tasks.patch(request.principal, request.params.taskID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(`${base}/:taskID`, { schema: { tags, summary: 'Delete a task', params: ById, response: { 204: NoContent, ...errors } } }, async (request, reply) => {
      await tasks.delete(request.principal, request.params.taskID);
      return reply.code(204).send(null);
    });
  };
}
