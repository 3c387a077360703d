import type { FastifyRequest } from 'fastify';
import type { AccountService, Principal } from '../accounts/account-service.js';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer-token hook on every /v6/api request. */
    principal: Principal;
  }
}

const unauthorized = (message: string) =>
  new ApiError('USER_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Bearer' });

/** `Authorization: Bearer <token>` on every /v6/api call; anything else is a 401 (CONTRACT §1). */
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
