import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Count, DateTimeText, Id, Offset } from '../http/list-params.js';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(withExamples(DeliveryStatus, 'failed')),
  eventID: Type.Optional(withExamples(Id, 14)),
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(DateTimeText),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
  lastDeliveryID: Type.Optional(Id),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const DeliveryAttempt = Type.Object({
  attemptedAt: Type.String(),
  statusCode: nullable(Type.Integer({ description: 'HTTP status; for e-mail the SMTP reply code' })),
  durationMs: Type.Integer(),
  error: nullable(Type.String()),
});

export const Delivery = Type.Object({
  deliveryID: Type.Integer(),
  eventID: nullable(Type.Integer({ description: 'the event rule that made it' })),
  channel: Type.String({ description: 'webhook, email, sms, messenger or messenger2' }),
  target: Type.String({ description: 'URL, e-mail address, phone number or messenger user id' }),
  messageID: Type.String({ description: 'the `webhook-id` header: the same on every attempt and resend' }),
  status: DeliveryStatus,
  createdAt: Type.String(),
  nextAttemptAt: nullable(Type.String({ description: 'pending only' })),
  finishedAt: nullable(Type.String()),
  attemptCount: Type.Integer({ description: 'attempts since it was last queued' }),
  lastStatusCode: nullable(Type.Integer()),
  lastError: nullable(Type.String()),
  payload: Type.Unknown({ description: 'the JSON body of a webhook; for the other channels what the message was made from' }),
  attempts: Type.Array(DeliveryAttempt, { description: 'every attempt, oldest first' }),
});
export type Delivery = Static<typeof Delivery>;

export const deliveryExample: Delivery = {
  deliveryID: 5120,
  eventID: 14,
  channel: 'webhook',
  target: 'https://erp.example.com/lokator/signals',
  messageID: 'msg_Zk3vQ1r8TnXo2bWc9yLhA4dE7fGs5uJp',
  status: 'failed',
  createdAt: '2026-03-02T07:58:03+03:00',
  nextAttemptAt: null,
  finishedAt: '2026-03-03T12:59:40+03:00',
  attemptCount: 8,
  lastStatusCode: 503,
  lastError: 'HTTP 503',
  payload: {
    signalID: 1042,
    signalDate: '2026-03-02T07:58:02+03:00',
    signalTypeID: 2,
    subscriberID: 23,
    subscriberExternalID: 'TRUCK-12',
    zoneID: 5,
    zoneName: 'Warehouse Sokolniki',
    zoneEventType: 1,
    eventID: 14,
    latitude: 55.7892,
    longitude: 37.6805,
    velocity: 8,
  },
  attempts: [
    { attemptedAt: '2026-03-02T07:58:03+03:00', statusCode: 503, durationMs: 212, error: 'HTTP 503' },
    { attemptedAt: '2026-03-02T07:58:09+03:00', statusCode: null, durationMs: 10000, error: 'timeout: no answer within 10000 ms' },
  ],
};

export const DeliveryWithExample = withExamples(Delivery, deliveryExample);
export const DeliveryList = withExamples(Type.Object({ data: Type.Array(Delivery) }), { data: [deliveryExample] });

export const SigningSecret = withExamples(Type.Object({ secret: Type.String({ description: '`whsec_` and the base64 of the HMAC key' }) }), {
  secret: 'whsec_MfKQ9r8GKjHaYdq3dRxzO8Uq2x6GGH3JMhEpRuGm6aw=',
});
