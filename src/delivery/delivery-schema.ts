import { Type, type Static } from 'typebox';
import { Count, DateTimeText, Id, Offset } from '../http/list-params.js';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(DeliveryStatus),
  eventID: Type.Optional(Id),
  dateFrom: Type.Optional(DateTimeText),
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

export const DeliveryList = Type.Object({ data: Type.Array(Delivery) });

export const SigningSecret = Type.Object({ secret: Type.String({ description: '`whsec_` and the base64 of the HMAC key' }) });
