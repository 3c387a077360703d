import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { Type } from 'typebox';

/** A Fastify instance whose route schemas type the handlers (TypeBox). */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The error envelope, for the OpenAPI document. */
export const ErrorBody = Type.Object(
  {
    status: Type.Integer(),
    code: Type.Integer(),
    description: Type.String(),
    message: Type.String(),
    validationErrors: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { description: 'error envelope' },
);

export const NoContent = Type.Null({ description: 'no content' });

/** A module's routes: a Fastify plugin the composition root registers (under `/v6/api` unless the module says otherwise). */
export type Routes = (api: Api) => Promise<void>;
