import type { FastifyRequest } from 'fastify';
import type { Account, AccountReader } from '../accounts/accounts.js';
import { ApiError } from '../http/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the mobile routes: the employee whose device key the request carries. */
    device: { account: Account; subscriberID: number };
  }
}

const unauthorized = (message: string) => new ApiError('USER_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Device' });

/**
 * The employee's app and phone (`/mobile/v1`): `Authorization: Device <deviceKey>`, the key the
 * phone also sends on the OsmAnd port, in a header so that it stays out of URLs and access logs.
 * Settled before the body is read: a stranger learns nothing from a 400, and uploads nothing.
 */
export function deviceRequestAuthenticator(accounts: Pick<AccountReader, 'get'>, findByDeviceKey: (key: string) => Promise<{ accountId: number; subscriberId: number } | null>) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Authorization header is missing');
    const match = /^Device +([\x21-\x7e]{1,128})$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Authorization header must be "Device <deviceKey>"');
    const owner = await findByDeviceKey(match[1]);
    const account = owner ? await accounts.get(owner.accountId) : null;
    if (!owner || !account) throw unauthorized('the device key is unknown');
    request.device = { account, subscriberID: owner.subscriberId };
  };
}
