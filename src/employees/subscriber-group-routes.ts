import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { SubscriberGroupList, SubscriberGroupPatch, SubscriberGroupWithExample, SubscriberGroupWrite } from './subscriber-group-schema.js';
import type { SubscriberGroupService } from './subscriber-group-service.js';

const tags = ['Employee management'];
const ById = Type.Object({ subscriberGroupID: withExamples(Id, 2) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** `/v6/api/subscriberManagement/subscriberGroups`: employee groups. */
export function subscriberGroupRoutes(groups: SubscriberGroupService) {
  return async (api: Api) => {
    const base = '/subscriberManagement/subscriberGroups';
    const one = `${base}/:subscriberGroupID`;

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Employee groups',
          description:
            'The account’s employee groups: what an employee’s `subscriberGroupID` names, and what the employee, report and rule filters take as ' +
            '`subscriberGroupIDs`.',
          response: { 200: described(SubscriberGroupList, 'the groups'), ...errors },
        },
      },
      async (request) => groups.list(request.principal.account),
    );

    api.get(
      one,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One employee group',
          description: 'The group. Another account’s is 404 code 1018, as a missing one.',
          params: ById,
          response: { 200: described(SubscriberGroupWithExample, 'the group'), ...errors },
        },
      },
      async (request) => groups.get(request.principal.account, request.params.subscriberGroupID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create an employee group',
          description: '`name` is required; `regionID` defaults to null and `comment` to "".',
          body: SubscriberGroupWrite,
          response: { 201: described(SubscriberGroupWithExample, 'the created group; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await groups.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.subscriberGroupID}`).send(created);
      },
    );

    api.put(
      one,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace an employee group',
          description: 'The whole group: fields left out take their defaults.',
          params: ById,
          body: SubscriberGroupWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await groups.replace(request.principal.account, request.params.subscriberGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      one,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of an employee group',
          description: 'Only the fields in the body change.',
          params: ById,
          body: SubscriberGroupPatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await groups.patch(request.principal.account, request.params.subscriberGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      one,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete an employee group',
          description: 'A group that still has employees is kept: 409 code 1019, and nothing is deleted. Move its employees to another group (or none) first.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await groups.delete(request.principal.account, request.params.subscriberGroupID);
        return reply.code(204).send(null);
      },
    );
  };
}
