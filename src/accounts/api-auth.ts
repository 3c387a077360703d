// `request.cookies` is typed by the cookie plugin's augmentation (registered in app.ts).
import type {} from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { AccountService, Principal } from './account-service.js';
import { csrfMatches, type Session, type SessionService } from './session-service.js';
import { ApiError } from '../http/errors.js';
import { permissionOf, requirePermission } from './roles.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on every /v6/api request, and on /workspace/api's but signing in. */
    principal: Principal;
    /** The workspace session of a /workspace/api request (its cookie's), set with `principal`. */
    workspaceSession?: { token: string; session: Session };
  }
}

/** The workspace's session cookie: HttpOnly, SameSite=Strict, set by POST /workspace/api/session. */
export const SESSION_COOKIE = 'lokator_session';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a user whose password is a temporary one may do: see who they are, change it, sign out. */
const OWN_SESSION_ROUTES = new Set(['/workspace/api/session', '/workspace/api/password']);
/**
 * What a user may do whose account requires a second factor they have not set up: the same, and
 * set it up.
 */
const SETUP_ROUTES = new Set([...OWN_SESSION_ROUTES, '/workspace/api/twoFactor/setup', '/workspace/api/twoFactor/enable', '/workspace/api/twoFactor/disable']);
const TEMPORARY_PASSWORD = 'the password is a temporary one: change it first (PUT /workspace/api/password)';

const unauthorized = (message: string) =>
  new ApiError('USER_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Bearer' });

/**
 * Every /v6/api call is authenticated (CONTRACT §1): by `Authorization: Bearer <token>`, or, for
 * the workspace in the browser, by its session cookie. A cookie is sent by the browser whoever
 * made the page, so a change made with it must also carry the session's CSRF token. Then the
 * role is checked against the route's declared permission (roles.ts), before the body is read.
 */
export function apiAuth(accounts: AccountService, sessions: SessionService) {
  const bearer = bearerAuth(accounts);
  return async (request: FastifyRequest): Promise<void> => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!request.headers.authorization && cookie) {
      request.principal = await sessionPrincipal(sessions, request, cookie);
    } else {
      await bearer(request);
    }
    requirePermission(request);
  };
}

/**
 * The `/workspace/api` onRequest hook: the session of the cookie for every route but signing in
 * (401 code 1 without one), then the role against the route's permission, as for /v6/api. A
 * session with a temporary password may only change it; one that must set up its second factor
 * may only do that (and change a temporary password first).
 */
export function workspaceAuth(sessions: SessionService) {
  return async (request: FastifyRequest): Promise<void> => {
    if (permissionOf(request) === 'public') return;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await sessions.authenticate(token) : null;
    if (!token || !session) throw unauthorized('not signed in');
    const url = request.routeOptions.url ?? '';
    if (session.mustChangePassword && !OWN_SESSION_ROUTES.has(url)) throw new ApiError('NOT_PERMITTED', TEMPORARY_PASSWORD);
    if (session.setupOnly && !SETUP_ROUTES.has(url)) throw new ApiError('FORBIDDEN', 'the account requires two-factor sign-in: set it up first');
    request.workspaceSession = { token, session };
    request.principal = session.principal;
    requirePermission(request);
  };
}

/** `Authorization: Bearer <token>`; anything else is a 401. */
export function bearerAuth(accounts: AccountService) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Authorization header is missing');
    const match = /^Bearer +([\x21-\x7e]{1,512})$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Authorization header must be "Bearer <token>"');
    const principal = await accounts.authenticate(match[1]);
    if (!principal) throw unauthorized('token is unknown or revoked');
    request.principal = principal;
  };
}

async function sessionPrincipal(sessions: SessionService, request: FastifyRequest, cookie: string): Promise<Principal> {
  const session = await sessions.authenticate(cookie);
  if (!session) throw unauthorized('the workspace session has ended; sign in again');
  if (session.setupOnly) throw new ApiError('FORBIDDEN', 'the account requires two-factor sign-in: set it up in the workspace first');
  if (!SAFE_METHODS.has(request.method) && !csrfMatches(cookie, headerOf(request, CSRF_HEADER))) {
    throw new ApiError('FORBIDDEN', `a change made with the session cookie needs the session's ${CSRF_HEADER} header`);
  }
  // A temporary password is the admin's, not the user's: nothing is done with it but changing it.
  if (session.mustChangePassword) throw new ApiError('NOT_PERMITTED', TEMPORARY_PASSWORD);
  return session.principal;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
