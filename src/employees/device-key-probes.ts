import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../http/errors.js';
import { defaultKeyGuessLimits, KeyGuessThrottle, type KeyGuessLimits } from '../http/key-guess-throttle.js';

/**
 * "deviceKey is already in use" tells whoever writes an employee that some account, perhaps
 * another, has that key: a tracker's IMEI, guessed by trying. Those answers are throttled as the
 * listeners' unknown keys are (src/http/key-guess-throttle.ts), per account: past the limit,
 * every write of that account that names a device key answers 429 with Retry-After until the lock
 * passes. Only an account's token can ask, so the account is the prober; counting per client
 * address as well would let one tenant lock out every tenant behind the same address (a proxy, a
 * NAT). Each such answer is logged with the client's address, without the key.
 */
export class DeviceKeyProbes {
  private readonly accounts: KeyGuessThrottle;

  constructor(limits: KeyGuessLimits = defaultKeyGuessLimits, clock: () => number = Date.now) {
    this.accounts = new KeyGuessThrottle(limits, clock);
  }

  /** Runs a write naming a device key, refused at once while the account is locked. */
  async guard<T>(accountId: number, address: string, log: FastifyBaseLogger, write: () => Promise<T>): Promise<T> {
    const account = `account:${accountId}`;
    // No key passes a lock here: the throttle's "proven keys" are for terminals, not for writes.
    const wait = this.accounts.retryAfterSeconds(account, '');
    if (wait > 0) {
      throw new ApiError('RATE_LIMITED', 'too many device keys already in use were tried; try again later', undefined, { 'retry-after': String(wait) });
    }
    try {
      return await write();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'CONFLICT' && error.validationErrors?.deviceKey !== undefined) {
        const lockedAccount = this.accounts.failed(account);
        log.warn({ accountId, address, ...(lockedAccount ? { lockedAccount } : {}) }, 'device key already in use: answered 409');
      }
      throw error;
    }
  }
}
