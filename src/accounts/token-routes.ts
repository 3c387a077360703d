import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import type { TokenService } from './token-service.js';
import { Role, Scope } from './user-routes.js';

const tags = ['User management'];
const TokenView = Type.Object({
  tokenID: Type.Integer(),
  name: Type.String(),
  role: Role,
  subscriberGroupIDs: Scope,
  createdDate: Type.String({ format: 'date-time' }),
  lastUsedDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when it last authenticated a request; moves at most once a minute' }),
  isRevoked: Type.Boolean(),
});
const tokenExample = {
  tokenID: 4,
  name: 'Warehouse system',
  role: 'dispatcher' as const,
  subscriberGroupIDs: [3],
  createdDate: '2026-03-02T09:14:05+03:00',
  lastUsedDate: '2026-03-05T17:40:00+03:00',
  isRevoked: false,
};
const CreatedToken = Type.Object({ ...TokenView.properties, token: Type.String({ description: 'the token: shown in this answer only' }) });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const NewToken = withExamples(
  Type.Object({ name: Name, role: Role, subscriberGroupIDs: Type.Optional(Scope) }),
  { name: 'Warehouse system', role: 'dispatcher', subscriberGroupIDs: [3] },
);
const TokenPatch = withExamples(Type.Object({ name: Type.Optional(Name), role: Type.Optional(Role), subscriberGroupIDs: Type.Optional(Scope) }), { role: 'viewer' });
const params = Type.Object({ tokenID: withExamples(Id, 4) });

/** `/v6/api/userManagement/tokens`: an account's API tokens, for its admins (CONTRACT §7). */
export function tokenRoutes(tokens: TokenService) {
  return async (api: Api) => {
    const path = '/userManagement/tokens';

    api.get(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'List the account’s API tokens',
          description: 'Every token of the account, revoked ones included, without their values (kept only as hashes).',
          response: { 200: described(withExamples(Type.Array(TokenView), [tokenExample]), 'the tokens'), 401: ErrorBody, 403: ErrorBody },
        },
      },
      async (request) => tokens.list(request.principal.account),
    );

    api.post(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Issue an API token',
          description:
            'A new token with a name, a role and an optional scope of employee groups. Its value (`token`) is in this answer and never again: ' +
            'the server keeps only its hash.',
          body: NewToken,
          response: {
            201: described(withExamples(CreatedToken, { ...tokenExample, lastUsedDate: null, token: 'lk_3mXo9Qb2VfK7tR1yHc8wZp4LdN6sJg0aUe5iTq2kWbY' }), 'the token, its value shown once'),
            400: ErrorBody,
            401: ErrorBody,
            403: ErrorBody,
          },
        },
      },
      async (request, reply) => {
        const token = await tokens.create(request.principal, request.body);
        return reply.code(201).header('location', `/v6/api${path}/${token.tokenID}`).send(token);
      },
    );

    api.patch(
      `${path}/:tokenID`,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Rename a token or change its role or scope',
          description: 'Fields left out stay. The change holds from the token’s next request, on every server.',
          params,
          body: TokenPatch,
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        await tokens.change(request.principal.account, request.params.tokenID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${path}/:tokenID`,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Revoke a token',
          description:
            'From its next request, on every server, the token is refused (401 code 1). It stays listed with `isRevoked: true`. ' +
            'Revoking a revoked token changes nothing.',
          params,
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        await tokens.revoke(request.principal.account, request.params.tokenID);
        return reply.code(204).send(null);
      },
    );
  };
}
