import { createHash } from 'node:crypto';

/**
 * A device key is a phone's or tracker's only credential, so guessing keys is throttled per client
 * address: after `maxFailures` unknown keys within `windowMs`, the address is refused everything
 * for `lockMs` (refusing only unknown keys would still tell a guesser when a guess hits).
 */
export interface KeyGuessLimits {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export const defaultKeyGuessLimits: KeyGuessLimits = { maxFailures: 20, windowMs: 60_000, lockMs: 60_000 };

/** Addresses remembered at most; past this, entries whose window and lock have passed are swept. */
const MAX_ADDRESSES = 10_000;

interface Tries {
  windowStartMs: number;
  failures: number;
  lockedUntilMs: number;
}

export class KeyGuessThrottle {
  private readonly tries = new Map<string, Tries>();

  constructor(
    private readonly limits: KeyGuessLimits = defaultKeyGuessLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Seconds the address must wait before it is heard again; 0 when it may go on. */
  retryAfterSeconds(address: string): number {
    const entry = this.tries.get(address);
    const waitMs = entry ? entry.lockedUntilMs - this.clock() : 0;
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  /** Counts an unknown key; true when this failure locked the address. */
  failed(address: string): boolean {
    const now = this.clock();
    let entry = this.tries.get(address);
    if (!entry || now - entry.windowStartMs > this.limits.windowMs) {
      if (!entry && this.tries.size >= MAX_ADDRESSES) this.sweep(now);
      entry = { windowStartMs: now, failures: 0, lockedUntilMs: entry?.lockedUntilMs ?? 0 };
      this.tries.set(address, entry);
    }
    entry.failures += 1;
    if (entry.failures < this.limits.maxFailures) return false;
    entry.lockedUntilMs = now + this.limits.lockMs;
    entry.failures = 0;
    entry.windowStartMs = now;
    return true;
  }

  private sweep(now: number): void {
    for (const [address, entry] of this.tries) {
      if (entry.lockedUntilMs <= now && now - entry.windowStartMs > this.limits.windowMs) this.tries.delete(address);
    }
  }
}

/** How a device key appears in logs: never in clear, a short digest that tells keys apart. */
export function keyFingerprint(deviceKey: string): string {
  return `sha256:${createHash('sha256').update(deviceKey).digest('hex').slice(0, 12)}`;
}
