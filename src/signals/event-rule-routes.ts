import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { EventRuleList, EventRulePatch, EventRuleWithExample, EventRuleWrite } from './event-rule-schema.js';
import type { EventRuleService } from './event-rule-service.js';

const tags = ['Event management'];
const ById = Type.Object({ eventID: withExamples(Id, 14) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/eventManagement/events`: the event rules of interface 6.1 (CONTRACT §4). */
export function eventRuleRoutes(rules: EventRuleService) {
  return async (api: Api) => {
    const base = '/eventManagement/events';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List event rules',
          description:
            'The account’s event rules: what fires (`kind` and its `parameters`), for whom, when (validity, weekdays, daily window in the ' +
            'account’s time zone), and where it goes (e-mail, SMS, messengers, your `apiUrl`).',
          response: { 200: described(EventRuleList, 'the rules'), ...errors },
        },
      },
      async (request) => rules.list(request.principal.account),
    );

    api.get(
      `${base}/:eventID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One event rule',
          description: 'The rule. Another account’s is 404 code 1006.',
          params: ById,
          response: { 200: described(EventRuleWithExample, 'the rule'), ...errors },
        },
      },
      async (request) => rules.get(request.principal.account, request.params.eventID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create an event rule',
          description:
            '`name` (without a backslash) and `kind` are required: a signal type of interface 6.3 (1 speed, 2 zones, 3 stops, 7 power off, 9 ' +
            'waste loading, 10 sensor, 11 trip end, 24 estimated arrival) with its `parameters`, or `taskChanges` / `employeeChanges` for the ' +
            'change events of 6.4 and 6.5. No `subscriberIDs` means every employee. ' +
            'With `sendToApi`, each signal is a signed POST to `apiUrl` (https; see Delivery of events), retried until it is answered 2xx.',
          body: EventRuleWrite,
          response: { 201: described(EventRuleWithExample, 'the created rule; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await rules.create(request.principal, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.eventID}`).send(created);
      },
    );

    api.put(
      `${base}/:eventID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace an event rule',
          description: 'The whole rule: fields left out take their defaults. Applies to what happens from then on.',
          params: ById,
          body: EventRuleWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await rules.replace(request.principal, request.params.eventID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:eventID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of an event rule',
          description: 'Only the fields in the body change; `enabled: false` pauses a rule without losing it.',
          params: ById,
          body: EventRulePatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await rules.patch(request.principal, request.params.eventID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:eventID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete an event rule',
          description: 'The rule fires no more; deliveries it already made stay in the log.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await rules.delete(request.principal, request.params.eventID);
        return reply.code(204).send(null);
      },
    );
  };
}
