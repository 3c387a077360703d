/** The face of accounts: what other modules may use of it (see .dependency-cruiser.mjs). */
import type { FastifyRequest } from 'fastify';
import { noAudit, type AuditActor, type AuditRecorder } from '../audit/audit.js';
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { accountRoutes } from './account-routes.js';
import { AccountService } from './account-service.js';
import { adminRoutes } from './admin-routes.js';
import { apiAuth, workspaceAuth } from './api-auth.js';
import { requestActor } from './audit-actor.js';
import { retentionRoutes } from './retention-routes.js';
import { RoutePermissions } from './route-permissions.js';
import { SessionService } from './session-service.js';
import { userLogins } from './session-store.js';
import { tokenRoutes } from './token-routes.js';
import { TokenService } from './token-service.js';
import { TwoFactorService } from './two-factor-service.js';
import { userRoutes } from './user-routes.js';
import { UserService, type GroupCheck } from './user-service.js';

/** An account as other modules read it; `getCached` may be up to a few seconds old (see AccountService). */
export type AccountReader = Pick<AccountService, 'get' | 'getCached' | 'listAccounts'>;
/** A module storing its own part of the account's settings document (positioning's GPS filter). */
export type AccountSettingsWriter = Pick<AccountService, 'changeSettings'>;
/** What the operator does (the admin routes, the first start, tests): accounts and their users. */
export type AccountProvisioning = Pick<AccountService, 'hasAnyAccount' | 'createAccount' | 'change' | 'changeProfile'> & Pick<SessionService, 'createUser'>;
/** Sign-in of the workspace's users, their second factor, and the ended sessions retention forgets. */
export type WorkspaceSessions = Pick<SessionService, 'signIn' | 'authenticate' | 'changePassword' | 'signOut' | 'forgetEnded'> & {
  twoFactor: Pick<TwoFactorService, 'status' | 'beginSetup' | 'enable' | 'disable'>;
};

/** The logins of an account's users, by user id: who handled, changed or made something. */
export type UserLogins = (accountId: number, userIds: readonly number[]) => Promise<Map<number, string>>;

export interface AccountsDependencies {
  database: Database;
  clock?: () => number;
  /** RETENTION_DAYS: what an account keeps unless it chose otherwise. */
  serverRetentionDays: number;
  /** Which of these ids name an employee group of the account: the scopes of users and tokens are checked with it. */
  groups: GroupCheck;
  /** Where changes of the account, its users and tokens, and sign-ins are logged. */
  audit?: AuditRecorder;
}

export interface Accounts extends AccountReader, AccountSettingsWriter, AccountProvisioning {
  sessions: WorkspaceSessions;
  loginsOf: UserLogins;
  /**
   * The `/v6/api` onRequest hook: a bearer token, or the workspace's session cookie with its CSRF
   * header; then the principal's role against the route's declared permission.
   */
  authenticateRequest: (request: FastifyRequest) => Promise<void>;
  /** The same for `/workspace/api`: its session cookie (but for signing in), then the role. */
  authenticateWorkspaceRequest: (request: FastifyRequest) => Promise<void>;
  /** The server's `onRoute` hook and what it recorded: every route with its declared permission. */
  routePermissions: RoutePermissions;
  /** Under `/v6/api`: the account's name, time zone and language, how long its data is kept, its users and API tokens. */
  routes: Routes;
  /** The operator's `/admin/v1` routes, behind LOKATOR_ADMIN_TOKEN. */
  adminRoutes(adminToken: string): Routes;
  /** Who a request's principal is in the audit log (set by either authentication hook); null before. */
  actorOf(request: FastifyRequest): AuditActor | null;
}

export function createAccounts({ database, clock = Date.now, serverRetentionDays, groups, audit = noAudit }: AccountsDependencies): Accounts {
  const accounts = new AccountService(database, clock, audit);
  const sessionService = new SessionService(database, accounts, clock, audit);
  const twoFactor = new TwoFactorService(database, audit, clock);
  const users = new UserService(database, groups, clock, audit);
  const tokens = new TokenService(database, groups, clock, audit);
  const sessions: WorkspaceSessions = {
    signIn: (login, password, address, code) => sessionService.signIn(login, password, address, code),
    authenticate: (token) => sessionService.authenticate(token),
    changePassword: (token, principal, current, next) => sessionService.changePassword(token, principal, current, next),
    signOut: (token) => sessionService.signOut(token),
    forgetEnded: () => sessionService.forgetEnded(),
    twoFactor,
  };
  return {
    get: (accountId) => accounts.get(accountId),
    getCached: (accountId) => accounts.getCached(accountId),
    listAccounts: () => accounts.listAccounts(),
    changeSettings: (accountId, part) => accounts.changeSettings(accountId, part),
    hasAnyAccount: () => accounts.hasAnyAccount(),
    createAccount: (input) => accounts.createAccount(input),
    change: (accountId, change) => accounts.change(accountId, change),
    changeProfile: (accountId, change) => accounts.changeProfile(accountId, change),
    createUser: (accountId, login, password) => sessionService.createUser(accountId, login, password),
    sessions,
    loginsOf: async (accountId, userIds) => new Map((await userLogins(database.db, accountId, userIds)).map((u) => [u.id, u.login])),
    authenticateRequest: apiAuth(accounts, sessionService),
    authenticateWorkspaceRequest: workspaceAuth(sessionService),
    routePermissions: new RoutePermissions(),
    actorOf: (request) => requestActor(request),
    routes: async (api) => {
      await api.register(retentionRoutes(accounts, serverRetentionDays));
      await api.register(accountRoutes(accounts));
      await api.register(userRoutes(users));
      await api.register(tokenRoutes(tokens));
    },
    adminRoutes: (adminToken) => adminRoutes(accounts, sessionService, adminToken),
  };
}

export type { Account, AccountLocale, Principal } from './account-service.js';
export { ACCOUNT_LOCALES, FIRST_TOKEN_NAME } from './account-service.js';
export { PERMISSIONS, ROLES, permits } from './roles.js';
export type { Permission, Role } from './roles.js';
export { CHECKED_PREFIXES } from './route-permissions.js';
export type { DeclaredRoute } from './route-permissions.js';
export { CSRF_HEADER, SESSION_COOKIE } from './api-auth.js';
export { bootstrapFirstAccount } from './bootstrap.js';
export { csrfMatches, SESSION_IDLE_MS } from './session-service.js';
export type { Session } from './session-service.js';
export { hashPassword, verifyPassword } from './secrets.js';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy.js';
export { cutoffMs, DAY_MS, DERIVED_RETENTION_FACTOR, MAX_RETENTION_DAYS, retentionOf } from './retention-policy.js';
export type { Retention } from './retention-policy.js';
