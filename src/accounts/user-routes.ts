import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-policy.js';
import { ROLES } from './roles.js';
import type { UserService } from './user-service.js';

const tags = ['User management'];
export const Role = Type.Union(
  [Type.Literal(ROLES[0]), Type.Literal(ROLES[1]), Type.Literal(ROLES[2])],
  { description: '`admin`: everything, users, tokens and account settings included; `dispatcher`: employees, tasks, zones, rules and reports; `viewer`: reads only' },
);
export const Scope = Type.Union([Type.Array(Id, { maxItems: 1000, uniqueItems: true }), Type.Null()], {
  description: 'the employee groups (subscriberGroupIDs) it is limited to; null: the whole account',
});
const UserView = Type.Object({
  userID: Type.Integer(),
  login: Type.String(),
  name: Type.String(),
  role: Role,
  subscriberGroupIDs: Scope,
  isActive: Type.Boolean({ description: 'false: the user cannot sign in' }),
  lastSignInDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const userExample = {
  userID: 5,
  login: 'dispatcher.anna',
  name: 'Anna Petrova',
  role: 'dispatcher' as const,
  subscriberGroupIDs: [3],
  isActive: true,
  lastSignInDate: '2026-03-02T09:14:05+03:00',
};
const Password = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: `a temporary password, at least ${PASSWORD_MIN_LENGTH} characters: the user must change it at the first sign-in`,
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const NewUser = withExamples(
  Type.Object({
    login: Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S+$', description: 'unique across the server' }),
    name: Type.Optional(Name),
    role: Role,
    subscriberGroupIDs: Type.Optional(Scope),
    password: Password,
  }),
  { login: 'dispatcher.anna', name: 'Anna Petrova', role: 'dispatcher', subscriberGroupIDs: [3], password: 'correct horse battery staple' },
);
const UserPatch = withExamples(
  Type.Object({
    name: Type.Optional(Name),
    role: Type.Optional(Role),
    subscriberGroupIDs: Type.Optional(Scope),
    isActive: Type.Optional(Type.Boolean()),
    password: Type.Optional(Password),
  }),
  { role: 'viewer', subscriberGroupIDs: null },
  { isActive: false },
);
const params = Type.Object({ userID: withExamples(Id, 5) });

/** `/v6/api/userManagement/users`: an account's users, for its admins (CONTRACT §7). */
export function userRoutes(users: UserService) {
  return async (api: Api) => {
    const path = '/userManagement/users';

    api.get(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'List the account’s users',
          description: 'Every user of the account who signs in to the workspace, in the order they were added.',
          response: { 200: described(withExamples(Type.Array(UserView), [userExample]), 'the users'), 401: ErrorBody, 403: ErrorBody },
        },
      },
      async (request) => users.list(request.principal.account),
    );

    api.get(
      `${path}/:userID`,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'One user',
          description: 'A user of the account; another account’s, or one removed, is 404 code 1026.',
          params,
          response: { 200: described(withExamples(UserView, userExample), 'the user'), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => users.get(request.principal.account, request.params.userID),
    );

    api.post(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Add a user',
          description:
            'A new user with a role, an optional scope of employee groups, and a temporary password the user must change at the first sign-in ' +
            `(at least ${PASSWORD_MIN_LENGTH} characters). Logins are unique across the server: a taken one is 409 code 1008. ` +
            'Every id of `subscriberGroupIDs` must name a group of the account (400 code 2).',
          body: NewUser,
          response: { 201: described(withExamples(UserView, { ...userExample, lastSignInDate: null }), 'the user'), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        const user = await users.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${path}/${user.userID}`).send(user);
      },
    );

    api.patch(
      `${path}/:userID`,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Change a user',
          description:
            'Fields left out stay. `isActive: false` turns the user off: they cannot sign in and their sessions end. A new `password` is temporary: ' +
            'the user’s sessions end and they must change it at the next sign-in. The account’s last active admin cannot be turned off or made ' +
            'another role (409 code 1008).',
          params,
          body: UserPatch,
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        await users.change(request.principal, request.params.userID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${path}/:userID`,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Remove a user',
          description:
            'The user can no longer sign in; their sessions end. The API tokens they made stay the account’s. ' +
            'The account’s last active admin cannot be removed (409 code 1008).',
          params,
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        await users.remove(request.principal, request.params.userID);
        return reply.code(204).send(null);
      },
    );
  };
}
