// `request.cookies` is typed by the cookie plugin's augmentation (registered in app.ts).
import type {} from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { AccountService, Principal } from './account-service.js';
import { csrfMatches, type Session, type SessionService } from './session-service.js';
import type { AuditActor } from '../audit/audit.js';
import { ApiError } from '../http/errors.js';
import { actorOf } from './audit-actor.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on every /v6/api request. */
    principal: Principal;
    /** The principal as the audit log names it (set with it). */
    actor?: AuditActor;
  }
}

/** The workspace's session cookie: HttpOnly, SameSite=Strict, set by POST /workspace/api/session. */
export const SESSION_COOKIE = 'lokator_session';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const unauthorized = (message: string) =>
  new ApiError('USER_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Bearer' });

/**
 * Every /v6/api call is authenticated (CONTRACT §1): by `Authorization: Bearer <token>`, or, for
 * the workspace in the browser, by its session cookie. A cookie is sent by the browser whoever
 * made the page, so a change made with it must also carry the session's CSRF token.
 */
export function apiAuth(accounts: AccountService, sessions: SessionService) {
  const bearer = bearerAuth(accounts);
  return async (request: FastifyRequest): Promise<void> => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!request.headers.authorization && cookie) {
      const session = await sessionOf(sessions, request, cookie);
      request.principal = session.principal;
      request.actor = actorOf(session.principal, session.login);
      return;
    }
    await bearer(request);
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
    request.actor = actorOf(principal);
  };
}

async function sessionOf(sessions: SessionService, request: FastifyRequest, cookie: string): Promise<Session> {
  const session = await sessions.authenticate(cookie);
  if (!session) throw unauthorized('the workspace session has ended; sign in again');
  if (session.setupOnly) throw new ApiError('FORBIDDEN', 'the account requires two-factor sign-in: set it up in the workspace first');
  if (!SAFE_METHODS.has(request.method) && !csrfMatches(cookie, headerOf(request, CSRF_HEADER))) {
    throw new ApiError('FORBIDDEN', `a change made with the session cookie needs the session's ${CSRF_HEADER} header`);
  }
  return session;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
