import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isValidTimeZone } from '../http/datetime.js';
import { ApiError, invalidField } from '../http/errors.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { AccountService } from './account-service.js';
import { safeEqual } from './secrets.js';

const AccountView = Type.Object({ accountID: Type.Integer(), name: Type.String(), timeZone: Type.String() });
const CreatedAccount = Type.Object({ accountID: Type.Integer(), name: Type.String(), timeZone: Type.String(), token: Type.String() });
const tags = ['operator'];

/** The operator's provisioning routes (CONTRACT §6); registered only when LOKATOR_ADMIN_TOKEN is set. */
export function adminRoutes(accounts: AccountService, adminToken: string) {
  return async (api: Api) => {
    api.addHook('onRequest', async (request: FastifyRequest) => {
      const match = /^Bearer +(.+)$/i.exec(request.headers.authorization ?? '');
      if (!match?.[1] || !safeEqual(match[1], adminToken)) {
        throw new ApiError('USER_UNAUTHORIZED', 'operator token required', undefined, { 'www-authenticate': 'Bearer' });
      }
    });

    api.post(
      '/admin/v1/accounts',
      {
        schema: {
          tags,
          summary: 'Create an account and its first API token',
          body: Type.Object(
            { name: Type.String({ minLength: 1, maxLength: 200 }), timeZone: Type.Optional(Type.String({ maxLength: 64 })) },
            { additionalProperties: false },
          ),
          response: { 201: CreatedAccount, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const timeZone = request.body.timeZone ?? 'UTC';
        if (!isValidTimeZone(timeZone)) throw invalidField('timeZone', 'must be an IANA time zone such as Europe/Moscow');
        const created = await accounts.createAccount({ name: request.body.name, timeZone });
        const { id, name } = created.account;
        return reply
          .code(201)
          .header('location', `/admin/v1/accounts/${id}`)
          .send({ accountID: id, name, timeZone, token: created.token });
      },
    );

    api.get(
      '/admin/v1/accounts',
      { schema: { tags, summary: 'List accounts', response: { 200: Type.Array(AccountView), 401: ErrorBody } } },
      async () => (await accounts.listAccounts()).map((a) => ({ accountID: a.id, name: a.name, timeZone: a.timeZone })),
    );
  };
}
