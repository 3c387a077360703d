import { noAudit, REDACTED, type AuditRecorder } from '../audit/audit.js';
import type { Database } from '../store/database.js';
import { newSigningSecret, signingKey } from './signing.js';
import { expireCurrentSecret, findCurrentSecret, insertCurrentSecret, liveSecrets } from './signing-secret-store.js';

/** A rotated-out secret keeps signing this long, so receivers can switch without losing a call. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** How long a worker reuses the keys it read; a rotation on another server shows within this. */
const CACHE_MS = 1000;

/**
 * The per-account `whsec_…` secrets (CONTRACT §4): one current secret, created on first use, and
 * for 24 h after a rotation the previous one too.
 */
export class SigningSecrets {
  private readonly cache = new Map<number, { keys: Buffer[]; until: number }>();

  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  /** The current secret, made now if the account has none yet. */
  async current(accountId: number): Promise<string> {
    const existing = await this.readCurrent(accountId);
    if (existing) return existing;
    // Two servers may get here at once; the unique index on the current secret keeps one.
    await insertCurrentSecret(this.database.db, accountId, newSigningSecret(), this.clock());
    return (await this.readCurrent(accountId))!;
  }

  /** Makes a new current secret; the old one signs too for ROTATION_OVERLAP_MS. Returns the new one. */
  async rotate(accountId: number): Promise<string> {
    await this.current(accountId);
    const now = this.clock();
    const secret = newSigningSecret();
    await this.database.transaction(async (tx) => {
      await expireCurrentSecret(tx, accountId, now + ROTATION_OVERLAP_MS);
      await insertCurrentSecret(tx, accountId, secret, now);
      // The log says a new secret was made; its value is redacted like every secret.
      await this.audit.record(tx, accountId, { kind: 'signingSecret.rotate', changes: { secret: { before: REDACTED, after: REDACTED } } });
    });
    this.cache.delete(accountId);
    return (await this.readCurrent(accountId))!;
  }

  /** The HMAC keys that sign a call now: the current secret first, then those still in their overlap. */
  async signingKeys(accountId: number): Promise<Buffer[]> {
    const now = this.clock();
    const cached = this.cache.get(accountId);
    if (cached && now < cached.until) return cached.keys;
    await this.current(accountId);
    const rows = await liveSecrets(this.database.db, accountId, now);
    rows.sort((a, b) => (a.expires_at === null ? -1 : b.expires_at === null ? 1 : 0));
    const keys = rows.map((row) => signingKey(row.secret));
    // Reread when a rotated-out secret ends, too, so it stops signing on time.
    const until = Math.min(now + CACHE_MS, ...rows.map((row) => row.expires_at ?? Infinity));
    this.cache.set(accountId, { keys, until });
    return keys;
  }

  private async readCurrent(accountId: number): Promise<string | undefined> {
    return (await findCurrentSecret(this.database.db, accountId)) ?? undefined;
  }
}
