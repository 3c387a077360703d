import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { DeliveryLog } from './delivery-log.js';
import { Delivery, deliveryExample, DeliveryList, DeliveryListQuery, DeliveryWithExample, SigningSecret } from './delivery-schema.js';
import type { SigningSecrets } from './signing-secrets.js';

const tags = ['Event management'];
const ById = Type.Object({ deliveryID: withExamples(Id, 5120) });
const resentExample = { ...deliveryExample, status: 'pending' as const, nextAttemptAt: '2026-03-03T13:05:00+03:00', finishedAt: null, attemptCount: 0 };
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** The deliveries log, resend, and the account's signing secret (CONTRACT §4). */
export function deliveryRoutes(log: DeliveryLog, secrets: SigningSecrets) {
  return async (api: Api) => {
    const base = '/eventManagement';

    api.get(
      `${base}/deliveries`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Deliveries of events, newest first, each with its attempts',
          description:
            'Every message an event rule sent or is sending (webhooks, e-mail, SMS, messengers) and every attempt: when, the status code, how ' +
            'long, what went wrong. ' +
            'Filters: `status`, `eventID` (the rule), `dateFrom`/`dateTo` (when the delivery was made; the last 72 h by default). ' +
            'Page with `count` and `offset`, or pass the last `deliveryID` seen as `lastDeliveryID`. ' +
            'A delivery is retried for about 28 hours, then `failed` and kept.',
          querystring: DeliveryListQuery,
          response: { 200: described(DeliveryList, 'the deliveries, newest first'), ...errors },
        },
      },
      async (request) => log.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/deliveries/:deliveryID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One delivery with its attempts',
          description: 'The delivery, its body and its attempts, oldest first. Another account’s is 404 code 1015.',
          params: ById,
          response: { 200: described(DeliveryWithExample, 'the delivery'), ...errors },
        },
      },
      async (request) => log.get(request.principal.account, request.params.deliveryID),
    );

    api.post(
      `${base}/deliveries/:deliveryID/resend`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Send a delivery again',
          description:
            'Queues the delivery again now, with the same body and the same `webhook-id`, so a receiver that deduplicates by it can tell. ' +
            'One still pending is 409 code 1008. Answers 202: the sending happens after the answer.',
          params: ById,
          response: { 202: described(withExamples(Delivery, resentExample), 'queued again'), ...errors, 409: ErrorBody },
        },
      },
      async (request, reply) => reply.code(202).send(await log.resend(request.principal.account, request.params.deliveryID)),
    );

    api.get(
      `${base}/signingSecret`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'The secret that signs webhooks',
          description:
            'Each webhook carries `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` made ' +
            'with this secret: check it before you trust a body. See Delivery of events in the docs for code that does.',
          response: { 200: described(SigningSecret, 'the current secret'), ...errors },
        },
      },
      async (request) => ({ secret: await secrets.current(request.principal.account.id) }),
    );

    api.post(
      `${base}/signingSecret/rotate`,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Rotate the signing secret',
          description:
            'Answers the new secret. For 24 hours every webhook is signed with both, each as its own `v1,` entry in `webhook-signature`, so a ' +
            'receiver can switch without losing a message.',
          response: { 200: described(SigningSecret, 'the new secret'), ...errors },
        },
      },
      async (request) => ({ secret: await secrets.rotate(request.principal.account.id) }),
    );
  };
}
