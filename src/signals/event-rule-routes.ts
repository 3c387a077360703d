import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { EventRule, EventRulePatch, EventRuleWrite } from './event-rule-schema.js';
import type { EventRuleService } from './event-rule-service.js';

const tags = ['events'];
const ById = Type.Object({ eventID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/eventManagement/events`: the event rules of interface 6.1 (CONTRACT §4). */
export function eventRuleRoutes(rules: EventRuleService) {
  return async (api: Api) => {
    const base = '/eventManagement/events';

    api.get(base, { schema: { tags, summary: 'List event rules', response: { 200: Type.Array(EventRule), ...errors } } }, async (request) =>
      rules.list(request.principal.account),
    );

    api.get(`${base}/:eventID`, { schema: { tags, summary: 'One event rule', params: ById, response: { 200: EventRule, ...errors } } }, async (request) =>
      rules.get(request.principal.account, request.params.eventID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create an event rule', body: EventRuleWrite, response: { 201: EventRule, ...errors } } },
      async (request, reply) => {
        const created = await rules.create(request.principal, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.eventID}`).send(created);
      },
    );

    api.put(
      `${base}/:eventID`,
      { schema: { tags, summary: 'Replace an event rule', params: ById, body: EventRuleWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await rules.replace(request.principal, request.params.eventID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:eventID`,
      { schema: { tags, summary: 'Change some fields of an event rule', params: ById, body: EventRulePatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await rules.patch(request.principal, request.params.eventID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(`${base}/:eventID`, { schema: { tags, summary: 'Delete an event rule', params: ById, response: { 204: NoContent, ...errors } } }, async (request, reply) => {
      await rules.delete(request.principal, request.params.eventID);
      return reply.code(204).send(null);
    });
  };
}
