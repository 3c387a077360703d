import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { SubscriberGroup, SubscriberGroupPatch, SubscriberGroupWrite } from './subscriber-group-schema.js';
import type { SubscriberGroupService } from './subscriber-group-service.js';

const tags = ['employees'];
const ById = Type.Object({ subscriberGroupID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** `/v6/api/subscriberManagement/subscriberGroups`: employee groups. */
export function subscriberGroupRoutes(groups: SubscriberGroupService) {
  return async (api: Api) => {
    const base = '/subscriberManagement/subscriberGroups';
    const one = `${base}/:subscriberGroupID`;

    api.get(base, { schema: { tags, summary: 'Employee groups', response: { 200: Type.Array(SubscriberGroup), ...errors } } }, async (request) =>
      groups.list(request.principal.account),
    );

    api.get(one, { schema: { tags, summary: 'One employee group', params: ById, response: { 200: SubscriberGroup, ...errors } } }, async (request) =>
      groups.get(request.principal.account, request.params.subscriberGroupID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create an employee group', body: SubscriberGroupWrite, response: { 201: SubscriberGroup, ...errors } } },
      async (request, reply) => {
        const created = await groups.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.subscriberGroupID}`).send(created);
      },
    );

    api.put(
      one,
      { schema: { tags, summary: 'Replace an employee group', params: ById, body: SubscriberGroupWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await groups.replace(request.principal.account, request.params.subscriberGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      one,
      { schema: { tags, summary: 'Change some fields of an employee group', params: ById, body: SubscriberGroupPatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await groups.patch(request.principal.account, request.params.subscriberGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      one,
      { schema: { tags, summary: 'Delete an employee group (409 while it has employees)', params: ById, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await groups.delete(request.principal.account, request.params.subscriberGroupID);
        return reply.code(204).send(null);
      },
    );
  };
}
