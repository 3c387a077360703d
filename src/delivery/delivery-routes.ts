import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { DeliveryLog } from './delivery-log.js';
import { Delivery, DeliveryList, DeliveryListQuery, SigningSecret } from './delivery-schema.js';
import type { SigningSecrets } from './signing-secrets.js';

const tags = ['events'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** The deliveries log, resend, and the account's signing secret (CONTRACT §4). */
export function deliveryRoutes(log: DeliveryLog, secrets: SigningSecrets) {
  return async (api: Api) => {
    const base = '/eventManagement';

    api.get(
      `${base}/deliveries`,
      {
        schema: {
          tags,
          summary: 'Deliveries of events, newest first, each with its attempts',
          description: 'Filters: `status`, `eventID` (the rule), `dateFrom`/`dateTo` (when the delivery was made; default the last 72 h). Page with `count` and `offset`, or pass the last `deliveryID` seen as `lastDeliveryID`.',
          querystring: DeliveryListQuery,
          response: { 200: DeliveryList, ...errors },
        },
      },
      async (request) => log.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/deliveries/:deliveryID`,
      {
        schema: {
          tags,
          summary: 'One delivery with its attempts',
          params: Type.Object({ deliveryID: Id }),
          response: { 200: Delivery, ...errors },
        },
      },
      async (request) => log.get(request.principal.account, request.params.deliveryID),
    );

    api.post(
      `${base}/deliveries/:deliveryID/resend`,
      {
        schema: {
          tags,
          summary: 'Send a failed or delivered delivery again, with the same webhook-id',
          params: Type.Object({ deliveryID: Id }),
          response: { 202: Delivery, ...errors, 409: ErrorBody },
        },
      },
      async (request, reply) => reply.code(202).send(await log.resend(request.principal.account, request.params.deliveryID)),
    );

    api.get(
      `${base}/signingSecret`,
      { schema: { tags, summary: 'The secret that signs webhooks (Standard Webhooks)', response: { 200: SigningSecret, ...errors } } },
      async (request) => ({ secret: await secrets.current(request.principal.account.id) }),
    );

    api.post(
      `${base}/signingSecret/rotate`,
      {
        schema: {
          tags,
          summary: 'Make a new signing secret; for 24 h the old one signs too',
          response: { 200: SigningSecret, ...errors },
        },
      },
      async (request) => ({ secret: await secrets.rotate(request.principal.account.id) }),
    );
  };
}
