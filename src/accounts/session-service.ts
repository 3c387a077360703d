import { createHash, randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { noAudit, REDACTED, type AuditRecorder } from '../audit/audit.js';
import type { Database } from '../store/database.js';
import { groupIdsOf, toAccount, type Account, type AccountService, type Principal } from './account-service.js';
import { roleOf } from './roles.js';
import { hashPassword, hashToken, safeEqual, verifyPassword } from './secrets.js';
import { checkSecondFactor } from './two-factor.js';
import { findTwoFactor } from './two-factor-store.js';
import {
  clearTries,
  countTry,
  deleteEndedSessions,
  deleteOtherSessions,
  deleteSession,
  deleteTriesBefore,
  extendSession,
  findPasswordHash,
  findSession,
  findUserByLogin,
  insertSession,
  insertUser,
  setPasswordHash,
  type UserRow,
} from './session-store.js';
import { recordSignIn } from './user-store.js';

/** A session lasts this long after its last use. */
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
/** Its expiry is moved forward at most this often, so reads do not each write. */
const SESSION_TOUCH_MS = 3_600_000;
/** Failed sign-ins per login and address before further tries are refused for a while. */
const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;

export interface Session {
  principal: Principal;
  login: string;
  /** The password is a temporary one an admin set: the workspace asks for a new one, and /v6/api refuses the session until then. */
  mustChangePassword: boolean;
  /** Sent back by the workspace in `X-CSRF-Token` on every change; derived from the session token. */
  csrfToken: string;
  /**
   * The account requires a second factor the user has not set up: the session may only set it up
   * (the workspace's own routes); every other request is refused.
   */
  setupOnly: boolean;
}

/**
 * A sign-in's outcome. A user with a second factor gets `secondFactor: 'required'` until the
 * request carries a code too, and `'wrong'` for a wrong one; no session exists before.
 */
export type SignIn =
  | { ok: true; token: string; session: Session }
  | { ok: false; retryAfterSeconds?: number; secondFactor?: 'required' | 'wrong' };

/**
 * Sign-in of workspace users (CONTRACT §6). A user belongs to one account and acts as that
 * account's principal; passwords are scrypt hashes, sessions random tokens kept as SHA-256.
 */
export class SessionService {
  /** When this server next forgets tries whose window has passed (any server may; one is enough). */
  private nextSweepMs = 0;
  /** Compared against when the login is unknown, so timing does not tell which logins exist. */
  private readonly decoyHash = hashPassword(randomBytes(16).toString('hex'));

  constructor(
    private readonly database: Database,
    private readonly accounts: AccountService,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  /**
   * `address` is the client's (request.ip: behind a proxy listed in TRUST_PROXY, the one it
   * forwards), so one client's wrong passwords lock that login for that client only. A user with
   * a second factor also sends `code`: a TOTP code or a recovery code, whose wrong tries are
   * limited per user as passwords are. Sign-ins and failed sign-ins of a known login are logged.
   */
  async signIn(login: string, password: string, address: string, code?: string): Promise<SignIn> {
    const now = this.clock();
    const key = `${login}\n${clientOf(address)}`;
    const retryAfterSeconds = await this.beginTry(key, now);
    if (retryAfterSeconds !== null) return { ok: false, retryAfterSeconds };
    const user = await findUserByLogin(this.database.db, login);
    const good = await verifyPassword(password, user?.password_hash ?? (await this.decoyHash));
    if (!user) return { ok: false };
    const actor = { kind: 'user' as const, id: user.id, name: user.login };
    const failed = async (reason: 'password' | 'inactive' | 'code'): Promise<void> => {
      await this.audit.recordAs(this.database.db, user.account_id, actor, address, {
        kind: 'session.signInFailed',
        objectId: user.id,
        changes: { login: { before: null, after: login }, reason: { before: null, after: reason } },
      });
    };
    if (!good) {
      await failed('password');
      return { ok: false };
    }
    // A turned-off user is told what a wrong password is told: the answer does not say which logins exist.
    if (user.is_active !== 1) {
      await failed('inactive');
      return { ok: false };
    }
    await clearTries(this.database.db, digestOf(key));
    const account = await this.accounts.get(user.account_id);
    if (!account) return { ok: false };
    const secret = (await findTwoFactor(this.database.db, account.id, user.id))?.totp_secret ?? null;
    let secondFactor: 'totp' | 'recovery' | null = null;
    if (secret !== null) {
      if (code === undefined || code.trim() === '') return { ok: false, secondFactor: 'required' };
      const codeKey = `second factor ${user.id}`;
      const wait = await this.beginTry(codeKey, now);
      if (wait !== null) return { ok: false, retryAfterSeconds: wait };
      secondFactor = await checkSecondFactor(this.database.db, { accountId: account.id, userId: user.id, secret }, code, now);
      if (!secondFactor) {
        await failed('code');
        return { ok: false, secondFactor: 'wrong' };
      }
      await clearTries(this.database.db, digestOf(codeKey));
    }
    const setupOnly = secret === null && account.settings.security?.twoFactorRequired === true;
    const token = randomBytes(32).toString('base64url');
    await this.database.transaction(async (tx) => {
      // Ended sessions are forgotten as new ones begin.
      await deleteEndedSessions(tx, now);
      await insertSession(tx, { tokenHash: hashToken(token), accountId: account.id, userId: user.id, createdAt: now, expiresAt: now + SESSION_IDLE_MS, setupOnly });
      await recordSignIn(tx, account.id, user.id, now);
      if (secondFactor === 'recovery') await this.audit.recordAs(tx, account.id, actor, address, { kind: 'twoFactor.recoveryCodeUsed', objectId: user.id, changes: {} });
      await this.audit.recordAs(tx, account.id, actor, address, {
        kind: 'session.signIn',
        objectId: user.id,
        changes: secondFactor ? { secondFactor: { before: null, after: secondFactor } } : {},
      });
    });
    return { ok: true, token, session: sessionOf(account, user.id, { ...user, setup_only: setupOnly ? 1 : 0 }, token) };
  }

  /** The session of a cookie's token; null when unknown or expired. */
  async authenticate(token: string): Promise<Session | null> {
    const now = this.clock();
    const hash = hashToken(token);
    const row = await findSession(this.database.db, hash);
    if (!row || row.expires_at <= now || row.is_active !== 1) return null;
    const account = toAccount(row);
    if (row.expires_at - SESSION_IDLE_MS < now - SESSION_TOUCH_MS) await extendSession(this.database.db, account.id, hash, now + SESSION_IDLE_MS);
    return sessionOf(account, row.user_id, row, token);
  }

  /**
   * Changes the signed-in user's password after checking the current one; every other session of
   * the user ends. False when the current password is wrong.
   */
  async changePassword(
    token: string,
    principal: Principal,
    currentPassword: string,
    newPassword: string,
  ): Promise<'changed' | 'wrong' | { retryAfterSeconds: number }> {
    const accountId = principal.account.id;
    const userId = principal.userID;
    if (userId === null) return 'wrong';
    // Guesses of the current password are limited as sign-ins are: a held session must not be a
    // way to try passwords without end.
    const key = `user ${userId}`;
    const retryAfterSeconds = await this.beginTry(key, this.clock());
    if (retryAfterSeconds !== null) return { retryAfterSeconds };
    const stored = await findPasswordHash(this.database.db, accountId, userId);
    if (stored === null || !(await verifyPassword(currentPassword, stored))) return 'wrong';
    await clearTries(this.database.db, digestOf(key));
    const passwordHash = await hashPassword(newPassword);
    await this.database.transaction(async (tx) => {
      await setPasswordHash(tx, accountId, userId, passwordHash);
      await deleteOtherSessions(tx, accountId, userId, hashToken(token));
      await this.audit.record(tx, accountId, { kind: 'user.passwordChange', objectId: userId, changes: { password: { before: REDACTED, after: REDACTED } } });
    });
    return 'changed';
  }

  /**
   * Counts a password try under `key` in the database, so every server sharing it counts the same
   * tries; the seconds to wait when the key is locked, else null. The try counts as failed before
   * the password is checked (a success clears the key): tries sent at once would otherwise all
   * pass the check and each record the same first failure. Refused tries are counted too, which
   * changes nothing: the window is fixed from its first try.
   */
  private async beginTry(key: string, now: number): Promise<number | null> {
    if (now >= this.nextSweepMs) {
      this.nextSweepMs = now + FAILURE_WINDOW_MS;
      await deleteTriesBefore(this.database.db, now - FAILURE_WINDOW_MS);
    }
    const { tries, since } = await countTry(this.database.db, digestOf(key), now, FAILURE_WINDOW_MS);
    return tries > MAX_FAILURES ? Math.ceil((since + FAILURE_WINDOW_MS - now) / 1000) : null;
  }

  /** Removes the sessions that have ended (sign-in does it too; retention runs it hourly); the number removed. */
  async forgetEnded(): Promise<number> {
    return deleteEndedSessions(this.database.db, this.clock());
  }

  async signOut(token: string): Promise<void> {
    await deleteSession(this.database.db, hashToken(token));
  }

  /** A workspace user of an account, an admin (operators add them; the first is `admin`). */
  async createUser(accountId: number, login: string, password: string): Promise<{ userID: number; login: string }> {
    const userID = await insertUser(this.database.db, accountId, { login, passwordHash: await hashPassword(password) }, this.clock());
    return { userID, login };
  }
}

function sessionOf(
  account: Account,
  userId: number,
  user: Pick<UserRow, 'login' | 'role' | 'subscriber_group_ids' | 'must_change_password'> & { setup_only: number },
  token: string,
): Session {
  return {
    principal: { account, role: roleOf(user.role), userID: userId, tokenID: null, subscriberGroupIDs: groupIdsOf(user.subscriber_group_ids), name: user.login },
    login: user.login,
    mustChangePassword: user.must_change_password === 1,
    csrfToken: csrfTokenOf(token),
    setupOnly: user.setup_only === 1,
  };
}

/** Whether a request's `X-CSRF-Token` belongs to the session of its cookie. */
export function csrfMatches(token: string, presented: string | undefined): boolean {
  return presented !== undefined && safeEqual(csrfTokenOf(token), presented);
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

/** Tries are kept under a digest: what was typed as a login (a password, by mistake) is not stored. */
function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/**
 * The CSRF token is a hash of the session token: the page learns it from the session route, a
 * third-party page cannot (the cookie is HttpOnly and the answer is same-origin), and nothing
 * more has to be stored.
 */
function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}
