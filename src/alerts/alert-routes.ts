import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { AlertList, AlertListQuery } from './alert-schema.js';
import type { AlertService } from './alert-service.js';

const tags = ['Event management'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** The account's alerts and their handling (CONTRACT §7). */
export function alertRoutes(service: AlertService) {
  return async (api: Api) => {
    api.get(
      '/eventManagement/alerts',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Alerts: what the event rules fired, newest first',
          description:
            'Every signal and task or employee change fired by a rule with `alertWorkspace` (true by default), whatever its delivery ' +
            'channels: the employee, what happened (`what`, in `lang` or the account’s language), where (the zone, else the address, ' +
            'else the coordinates), when, and who marked it handled when. Filters: `kind`, `subscriberIDs`, `subscriberGroupIDs`, `dateFrom`/`dateTo` ' +
            '(when it happened; no bound when omitted), `handled`. Newest first by `alertID`: pass the last id seen as `lastAlertID` for ' +
            'the next `count`.',
          querystring: AlertListQuery,
          response: { 200: described(AlertList, 'the alerts, newest first'), ...errors },
        },
      },
      async (request) => service.list(request.principal.account, request.query),
    );

    api.post(
      '/eventManagement/alerts/:alertID/handled',
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Mark an alert handled',
          description:
            'Records who (the token’s or session’s user) and when; an alert already handled keeps its first handler and answers 204 ' +
            'again. Another account’s alert, or none, is 404 code 1028.',
          params: Type.Object({ alertID: withExamples(Id, 3071) }),
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await service.handle(request.principal, request.params.alertID);
        return reply.code(204).send(null);
      },
    );
  };
}
