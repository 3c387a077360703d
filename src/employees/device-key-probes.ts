import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../http/errors.js';
import { defaultKeyGuessLimits, KeyGuessThrottle, type KeyGuessLimits } from '../http/key-guess-throttle.js';

/**
 * "deviceKey is already in use" tells whoever writes an employee that some account, perhaps
 * another, has that key: a tracker's IMEI, guessed by trying. Those answers are throttled as the
 * listeners' unknown keys are (src/http/key-guess-throttle.ts), per account and per client
 * address: past the limit, every write that names a device key answers 429 with Retry-After
 * until the lock passes. Each such answer is logged, without the key.
 */
export class DeviceKeyProbes {
  private readonly accounts: KeyGuessThrottle;
  private readonly addresses: KeyGuessThrottle;

  constructor(limits: KeyGuessLimits = defaultKeyGuessLimits, clock: () => number = Date.now) {
    this.accounts = new KeyGuessThrottle(limits, clock);
    this.addresses = new KeyGuessThrottle(limits, clock);
  }

  /** Runs a write naming a device key, refused at once while the account or the address is locked. */
  async guard<T>(accountId: number, address: string, log: FastifyBaseLogger, write: () => Promise<T>): Promise<T> {
    const account = `account:${accountId}`;
    // No key passes a lock here: the throttle's "proven keys" are for terminals, not for writes.
    const wait = Math.max(this.accounts.retryAfterSeconds(account, ''), this.addresses.retryAfterSeconds(address, ''));
    if (wait > 0) {
      throw new ApiError('RATE_LIMITED', 'too many device keys already in use were tried; try again later', undefined, { 'retry-after': String(wait) });
    }
    try {
      return await write();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'CONFLICT' && error.validationErrors?.deviceKey !== undefined) {
        const lockedAccount = this.accounts.failed(account);
        const lockedAddress = this.addresses.failed(address);
        log.warn(
          { accountId, address, ...(lockedAccount ? { lockedAccount } : {}), ...(lockedAddress ? { lockedAddress } : {}) },
          'device key already in use: answered 409',
        );
      }
      throw error;
    }
  }
}
