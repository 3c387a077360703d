import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isValidTimeZone } from '../http/datetime.js';
import { ApiError, invalidField } from '../http/errors.js';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { Account, AccountService } from './account-service.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy.js';
import type { SessionService } from './session-service.js';
import { isUniqueViolation } from '../store/errors.js';
import { MAX_RETENTION_DAYS } from './retention-policy.js';
import { safeEqual } from './secrets.js';

const RetentionDays = Type.Union([Type.Integer({ minimum: 0, maximum: MAX_RETENTION_DAYS }), Type.Null()], {
  description: 'days of fixes the account keeps; null: the server default (RETENTION_DAYS); 0: for ever',
});
const AccountView = Type.Object({
  accountID: Type.Integer(),
  name: Type.String(),
  timeZone: Type.String(),
  smsEnabled: Type.Boolean(),
  retentionDays: RetentionDays,
});
const CreatedAccount = Type.Object({ accountID: Type.Integer(), name: Type.String(), timeZone: Type.String(), token: Type.String() });
const CreatedUser = Type.Object({ accountID: Type.Integer(), userID: Type.Integer(), login: Type.String() });
const tags = ['Operator'];
const accountExample = { accountID: 2, name: 'Rapid Couriers', timeZone: 'Europe/Moscow', smsEnabled: false, retentionDays: null };
const createdExample = { accountID: 2, name: 'Rapid Couriers', timeZone: 'Europe/Moscow', token: 'lk_3mXo9Qb2VfK7tR1yHc8wZp4LdN6sJg0aUe5iTq2kWbY' };

/** The operator's provisioning routes (CONTRACT §6); registered only when LOKATOR_ADMIN_TOKEN is set. */
export function adminRoutes(accounts: AccountService, sessions: SessionService, adminToken: string) {
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
          description:
            'A new tenant: its own employees, zones, rules and users, seen by no other account. ' +
            'Answers the account’s first API token, shown this once (kept only as a hash): hand it to the account’s integrator. ' +
            '`timeZone` is an IANA name (default UTC).',
          body: withExamples(
            Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), timeZone: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false }),
            { name: 'Rapid Couriers', timeZone: 'Europe/Moscow' },
          ),
          response: { 201: described(withExamples(CreatedAccount, createdExample), 'the account and its token, shown once'), 400: ErrorBody, 401: ErrorBody },
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

    api.post(
      '/admin/v1/accounts/:accountID/users',
      {
        schema: {
          tags,
          summary: 'Add a workspace user to an account',
          description:
            'A user signs in to the workspace with this login and password and sees this one account. ' +
            `Logins are unique across the server (409 code 1008 when taken); the password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
          params: Type.Object({ accountID: withExamples(Id, 2) }),
          body: withExamples(
            Type.Object(
              {
                login: Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S+$' }),
                password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `at least ${PASSWORD_MIN_LENGTH} characters` }),
              },
              { additionalProperties: false },
            ),
            { login: 'dispatcher.anna', password: 'correct horse battery staple' },
          ),
          response: { 201: described(withExamples(CreatedUser, { accountID: 2, userID: 5, login: 'dispatcher.anna' }), 'the user'), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        const account = await accounts.get(request.params.accountID);
        if (!account) throw new ApiError('ROUTE_NOT_FOUND', `no account ${request.params.accountID}`);
        const weak = passwordProblem(request.body.password);
        if (weak) throw invalidField('password', weak);
        try {
          const user = await sessions.createUser(account.id, request.body.login, request.body.password);
          return reply.code(201).send({ accountID: account.id, ...user });
        } catch (error) {
          if (isUniqueViolation(error, 'login', 'users_login_key')) throw new ApiError('CONFLICT', 'that login is taken');
          throw error;
        }
      },
    );

    api.patch(
      '/admin/v1/accounts/:accountID',
      {
        schema: {
          tags,
          summary: 'Change an account’s SMS option or retention',
          description:
            'Fields left out stay as they are. ' +
            '`smsEnabled` allows SMS in its event rules; `retentionDays` is how long its fixes are kept (null: the server default, 0: for ever). ' +
            'Tracks, vehicle events and statistics are kept four times as long as fixes.',
          params: Type.Object({ accountID: withExamples(Id, 2) }),
          body: withExamples(
            Type.Object({ smsEnabled: Type.Optional(Type.Boolean()), retentionDays: Type.Optional(RetentionDays) }, { additionalProperties: false }),
            { smsEnabled: true },
          ),
          response: { 200: described(withExamples(AccountView, { ...accountExample, smsEnabled: true }), 'the account as changed'), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => {
        const account = await accounts.change(request.params.accountID, request.body);
        if (!account) throw new ApiError('ROUTE_NOT_FOUND', `no account ${request.params.accountID}`);
        return accountView(account);
      },
    );

    api.get(
      '/admin/v1/accounts',
      {
        schema: {
          tags,
          summary: 'List accounts',
          description: 'Every account of the server, with its options.',
          response: { 200: described(withExamples(Type.Array(AccountView), [accountExample]), 'the accounts'), 401: ErrorBody },
        },
      },
      async () => (await accounts.listAccounts()).map(accountView),
    );
  };
}

function accountView(account: Account) {
  return { accountID: account.id, name: account.name, timeZone: account.timeZone, smsEnabled: account.smsEnabled, retentionDays: account.retentionDays };
}
