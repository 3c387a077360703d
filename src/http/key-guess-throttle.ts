import { hash } from 'node:crypto';

/**
 * A device key is a phone's or tracker's only credential, so guessing keys is throttled per client
 * address: after `maxFailures` unknown keys within `windowMs`, the address is refused for `lockMs`
 * every key it has not already proven (refusing only unknown keys would tell a guesser when a
 * guess hits). Keys that authenticated from the address within the last hour still pass: a fleet
 * behind one carrier NAT address is not locked out by one misconfigured device or one guesser.
 */
export interface KeyGuessLimits {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export const defaultKeyGuessLimits: KeyGuessLimits = { maxFailures: 20, windowMs: 60_000, lockMs: 60_000 };

/** Addresses remembered at most; past this, entries whose window and lock have passed are swept. */
const MAX_ADDRESSES = 10_000;
/** How long a key that authenticated from an address keeps passing its locks, and how many are kept per address. */
const PROVEN_KEY_MS = 3_600_000;
const MAX_PROVEN_KEYS = 10_000;

interface Tries {
  windowStartMs: number;
  failures: number;
  lockedUntilMs: number;
}

export class KeyGuessThrottle {
  private readonly tries = new Map<string, Tries>();
  /** Per address, digests of the keys that authenticated from it, with when they last did. */
  private readonly proven = new Map<string, Map<string, number>>();

  constructor(
    private readonly limits: KeyGuessLimits = defaultKeyGuessLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Seconds the address must wait before this key is heard from it; 0 when it may go on. Asked
   * before the key is looked up, with the key's digest (`keyFingerprint`).
   */
  retryAfterSeconds(address: string, keyDigest: string): number {
    const entry = this.tries.get(address);
    const waitMs = entry ? entry.lockedUntilMs - this.clock() : 0;
    if (waitMs <= 0) return 0;
    const provenAt = this.proven.get(address)?.get(keyDigest);
    return provenAt !== undefined && this.clock() - provenAt < PROVEN_KEY_MS ? 0 : Math.ceil(waitMs / 1000);
  }

  /** A known key authenticated from the address: it passes the address's locks for the next hour. */
  succeeded(address: string, keyDigest: string): void {
    let keys = this.proven.get(address);
    if (!keys) {
      if (this.proven.size >= MAX_ADDRESSES) this.proven.clear();
      keys = new Map();
      this.proven.set(address, keys);
    }
    if (keys.size >= MAX_PROVEN_KEYS && !keys.has(keyDigest)) keys.clear();
    keys.set(keyDigest, this.clock());
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

/**
 * How a device key appears in logs: never in clear, a short digest that tells keys apart. Taken
 * for every request of the OsmAnd listener: the one-shot `hash` costs 0.4 µs, a Hash object 0.9.
 */
export function keyFingerprint(deviceKey: string): string {
  return `sha256:${hash('sha256', deviceKey).slice(0, 12)}`;
}
