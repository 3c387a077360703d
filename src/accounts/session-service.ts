import { createHash, randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Database } from '../store/database.js';
import { toAccount, type AccountService, type Principal } from './account-service.js';
import { hashPassword, hashToken, safeEqual, verifyPassword } from './secrets.js';

/** A session lasts this long after its last use. */
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
/** Its expiry is moved forward at most this often, so reads do not each write. */
const SESSION_TOUCH_MS = 3_600_000;
/** Failed sign-ins per login and address before further tries are refused for a while. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
/** Past this many counted keys, keys whose window has passed are swept before a new one is added. */
const FAILURE_SWEEP_SIZE = 10_000;

export interface Session {
  principal: Principal;
  login: string;
  /** Sent back by the workspace in `X-CSRF-Token` on every change; derived from the session token. */
  csrfToken: string;
}

export type SignIn = { ok: true; token: string; session: Session } | { ok: false; retryAfterSeconds?: number };

/**
 * Sign-in of workspace users (CONTRACT §6). A user belongs to one account and acts as that
 * account's principal; passwords are scrypt hashes, sessions random tokens kept as SHA-256.
 */
export class SessionService {
  private readonly failures = new Map<string, { count: number; since: number }>();
  /** Compared against when the login is unknown, so timing does not tell which logins exist. */
  private readonly decoyHash = hashPassword(randomBytes(16).toString('hex'));

  constructor(
    private readonly database: Database,
    private readonly accounts: AccountService,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * `address` is the client's (request.ip: behind a proxy listed in TRUST_PROXY, the one it
   * forwards), so one client's wrong passwords lock that login for that client only.
   */
  async signIn(login: string, password: string, address: string): Promise<SignIn> {
    const now = this.clock();
    const key = `${login}\n${clientOf(address)}`;
    const retryAfterSeconds = this.beginTry(key, now);
    if (retryAfterSeconds !== null) return { ok: false, retryAfterSeconds };
    const user = await this.database.db
      .selectFrom('users')
      .select(['id', 'account_id', 'login', 'password_hash'])
      .where('login', '=', login)
      .executeTakeFirst();
    const good = await verifyPassword(password, user?.password_hash ?? (await this.decoyHash));
    if (!user || !good) return { ok: false };
    this.failures.delete(key);
    const account = await this.accounts.get(user.account_id);
    if (!account) return { ok: false };
    const token = randomBytes(32).toString('base64url');
    await this.database.transaction(async (tx) => {
      // Ended sessions are forgotten as new ones begin.
      await tx.deleteFrom('workspace_sessions').where('expires_at', '<=', now).execute();
      await tx
        .insertInto('workspace_sessions')
        .values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + SESSION_IDLE_MS })
        .execute();
    });
    return { ok: true, token, session: { principal: { account, userID: user.id }, login: user.login, csrfToken: csrfTokenOf(token) } };
  }

  /** The session of a cookie's token; null when unknown or expired. */
  async authenticate(token: string): Promise<Session | null> {
    const now = this.clock();
    const hash = hashToken(token);
    const row = await this.database.db
      .selectFrom('workspace_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['s.user_id', 's.expires_at', 'u.login', 'a.id', 'a.name', 'a.time_zone', 'a.sms_enabled', 'a.settings', 'a.retention_days'])
      .where('s.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.expires_at <= now) return null;
    const account = toAccount(row);
    if (row.expires_at - SESSION_IDLE_MS < now - SESSION_TOUCH_MS) {
      await this.database.db.updateTable('workspace_sessions').set({ expires_at: now + SESSION_IDLE_MS }).where('token_hash', '=', hash).execute();
    }
    return { principal: { account, userID: row.user_id }, login: row.login, csrfToken: csrfTokenOf(token) };
  }

  /**
   * Changes the signed-in user's password after checking the current one; every other session of
   * the user ends. False when the current password is wrong.
   */
  async changePassword(
    token: string,
    userId: number,
    currentPassword: string,
    newPassword: string,
  ): Promise<'changed' | 'wrong' | { retryAfterSeconds: number }> {
    // Guesses of the current password are limited as sign-ins are: a held session must not be a
    // way to try passwords without end.
    const key = `user ${userId}`;
    const retryAfterSeconds = this.beginTry(key, this.clock());
    if (retryAfterSeconds !== null) return { retryAfterSeconds };
    const user = await this.database.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    if (!user || !(await verifyPassword(currentPassword, user.password_hash))) return 'wrong';
    this.failures.delete(key);
    const passwordHash = await hashPassword(newPassword);
    await this.database.transaction(async (tx) => {
      await tx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      await tx.deleteFrom('workspace_sessions').where('user_id', '=', userId).where('token_hash', '!=', hashToken(token)).execute();
    });
    return 'changed';
  }

  /**
   * Counts a password try under `key`; the seconds to wait when the key is locked, else null. The
   * try counts as failed before the password is checked (a success clears the key): tries sent at
   * once would otherwise all pass the check and each record the same first failure.
   */
  private beginTry(key: string, now: number): number | null {
    const failed = this.failures.get(key);
    if (failed && now - failed.since < FAILURE_WINDOW_MS && failed.count >= MAX_FAILURES) {
      return Math.ceil((failed.since + FAILURE_WINDOW_MS - now) / 1000);
    }
    const fresh = !failed || now - failed.since >= FAILURE_WINDOW_MS;
    if (fresh && this.failures.size >= FAILURE_SWEEP_SIZE) this.forgetOldFailures(now);
    this.failures.set(key, fresh ? { count: 1, since: now } : { count: failed.count + 1, since: failed.since });
    return null;
  }

  /** Tries counted longer ago than the window no longer lock anything. */
  private forgetOldFailures(now: number): void {
    for (const [key, failed] of this.failures) {
      if (now - failed.since >= FAILURE_WINDOW_MS) this.failures.delete(key);
    }
  }

  /** Removes the sessions that have ended (sign-in does it too; retention runs it hourly); the number removed. */
  async forgetEnded(): Promise<number> {
    const result = await this.database.db.deleteFrom('workspace_sessions').where('expires_at', '<=', this.clock()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async signOut(token: string): Promise<void> {
    await this.database.db.deleteFrom('workspace_sessions').where('token_hash', '=', hashToken(token)).execute();
  }

  /** Whether a request's `X-CSRF-Token` belongs to the session of its cookie. */
  static csrfMatches(token: string, presented: string | undefined): boolean {
    return presented !== undefined && safeEqual(csrfTokenOf(token), presented);
  }

  /** A workspace user of an account (operators add them; the first is `admin`). */
  async createUser(accountId: number, login: string, password: string): Promise<{ userID: number; login: string }> {
    const row = await this.database.db
      .insertInto('users')
      .values({ account_id: accountId, login, password_hash: await hashPassword(password), created_at: this.clock() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { userID: row.id, login };
  }
}

/**
 * Whom failed sign-ins are counted against: an IPv4 address, or the /64 network of an IPv6 one,
 * since a single IPv6 client commonly holds a whole /64 and could otherwise take a fresh address
 * for every five guesses. IPv4-mapped IPv6 (a dual-stack socket's view of IPv4) counts as IPv4.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/**
 * The CSRF token is a hash of the session token: the page learns it from the session route, a
 * third-party page cannot (the cookie is HttpOnly and the answer is same-origin), and nothing
 * more has to be stored.
 */
function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}
