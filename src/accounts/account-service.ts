import { randomBytes } from 'node:crypto';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import type { Database, Db } from '../store/database.js';
import * as store from './account-store.js';
import type { AccountRow } from './account-store.js';
import { roleOf, type Role } from './roles.js';
import { insertUser } from './session-store.js';
import { hashPassword, hashToken, newApiToken } from './secrets.js';
import { findTokenPrincipal, insertToken, touchToken } from './token-store.js';

export interface Account {
  id: number;
  name: string;
  timeZone: string;
  smsEnabled: boolean;
  /** The account's own settings document; each module reads its part and applies its defaults. */
  settings: AccountSettings;
  /** Days of fixes kept (see retention-policy.ts): null follows the server's RETENTION_DAYS, 0 keeps them for ever. */
  retentionDays: number | null;
  /** The account's language: what its reports, e-mails and texts are written in, and the workspace's default. */
  locale: AccountLocale;
  /** Whether an admin has confirmed the zone and language; until then the workspace asks at sign-in. */
  settingsConfirmed: boolean;
}

export const ACCOUNT_LOCALES = ['ru', 'en'] as const;
export type AccountLocale = (typeof ACCOUNT_LOCALES)[number];

/** Settings an account may change; what is absent takes the default of the module it belongs to. */
export interface AccountSettings {
  /** Track thresholds of CONTRACT §2 (positioning), by name: moveSpeedKmh, stopSeconds, … */
  track?: Readonly<Record<string, number>>;
  /** The GPS filter (positioning), by name: zeroCoordinates, duplicates, maxAccuracyM, maxSpeedKmh, confirmFixes. */
  gpsFilter?: Readonly<Record<string, number | boolean>>;
  /** Sign-in: whether every user of the account must use a second factor (TOTP). */
  security?: Readonly<{ twoFactorRequired?: boolean }>;
}

/** Who made an authenticated request: a workspace user's session, or an API token, of an account. */
export interface Principal {
  account: Account;
  /** What it may do (roles.ts); checked for every route by `requirePermission`. */
  role: Role;
  /**
   * The signed-in user; for an API token, the user who made it (the initiator of the changes it
   * makes), or null once that user is removed.
   */
  userID: number | null;
  /** The API token of the request; null for a workspace session. */
  tokenID: number | null;
  /** The employee groups the user or token is limited to; null: the whole account. */
  subscriberGroupIDs: number[] | null;
  /** Who it is to people (the audit log's actor): the user's login, or the token's name. */
  name: string;
}

/** The name the first start's token and every new account's first token get. */
export const FIRST_TOKEN_NAME = 'First token';
/** A token's lastUsedDate moves at most this often: one write a minute per token, not one per request. */
export const TOKEN_TOUCH_MS = 60_000;

export interface CreatedAccount {
  account: Account;
  token: string;
  userLogin: string;
  password?: string;
}

/**
 * How long `getCached` trusts an account read (the ingest queue reads it for every group it
 * commits): a change of the account's settings reaches ingestion within this time on every server.
 */
const ACCOUNT_CACHE_MS = 5_000;
const ACCOUNT_CACHE_SIZE = 10_000;

export class AccountService {
  private readonly accounts = new Map<number, { account: Account; until: number }>();

  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  /**
   * Resolves a bearer token to its principal; null for unknown or revoked tokens. Looked up on
   * every request, in the primary (authentication runs before a request is sent to a replica): a
   * revocation, or a new role or scope, holds from the next request on every server. The lookup
   * is one indexed read; the last use is written at most once a minute.
   */
  async authenticate(token: string): Promise<Principal | null> {
    const row = await findTokenPrincipal(this.database.db, hashToken(token));
    if (!row) return null;
    const now = this.clock();
    if (row.last_used_at === null || row.last_used_at < now - TOKEN_TOUCH_MS) await touchToken(this.database.db, row.id, row.token_id, now, now - TOKEN_TOUCH_MS);
    return {
      account: toAccount(row),
      role: roleOf(row.role),
      userID: row.user_id,
      tokenID: row.token_id,
      subscriberGroupIDs: groupIdsOf(row.subscriber_group_ids),
      name: row.token_label,
    };
  }

  async get(accountId: number): Promise<Account | null> {
    const row = await store.findAccount(this.database.db, accountId);
    return row ? toAccount(row) : null;
  }

  /** `get` for the ingest queue, which reads the account for every group it commits: up to ACCOUNT_CACHE_MS old. */
  async getCached(accountId: number): Promise<Account | null> {
    const now = Date.now();
    const cached = this.accounts.get(accountId);
    if (cached && cached.until > now) return cached.account;
    const account = await this.get(accountId);
    if (this.accounts.size >= ACCOUNT_CACHE_SIZE) this.accounts.clear();
    if (account) this.accounts.set(accountId, { account, until: now + ACCOUNT_CACHE_MS });
    else this.accounts.delete(accountId);
    return account;
  }

  /**
   * The operator's changes to an account: its paid SMS option (CONTRACT §4) and how many days of
   * fixes it keeps (null: the server's RETENTION_DAYS; 0: for ever). Fields left out stay.
   */
  async change(accountId: number, change: { smsEnabled?: boolean; retentionDays?: number | null }): Promise<Account | null> {
    if (change.smsEnabled !== undefined || change.retentionDays !== undefined) {
      await this.changeLogged(accountId, (tx) => store.changeAccount(tx, accountId, change));
    }
    return this.changed(accountId);
  }

  /** One part of the account's settings document replaced (`gpsFilter`, …); the other parts stay. */
  async changeSettings(accountId: number, part: Partial<AccountSettings>): Promise<Account | null> {
    const account = await this.get(accountId);
    if (!account) return null;
    await this.changeLogged(accountId, (tx) => store.changeAccount(tx, accountId, { settings: JSON.stringify({ ...account.settings, ...part }) }));
    return this.changed(accountId);
  }

  /** A change of the account's row, logged with the account before and after in its transaction. */
  private async changeLogged(accountId: number, write: (tx: Db) => Promise<void>): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await store.findAccount(tx, accountId);
      await write(tx);
      const after = await store.findAccount(tx, accountId);
      if (!before || !after) return;
      await this.audit.record(tx, accountId, { kind: 'account.update', objectId: accountId, before: auditView(toAccount(before)), after: auditView(toAccount(after)) });
    });
  }

  /** The API reads the change at once (principals are read on every request); ingestion within ACCOUNT_CACHE_MS. */
  private async changed(accountId: number): Promise<Account | null> {
    this.accounts.delete(accountId);
    return this.get(accountId);
  }

  /**
   * The account's own change of its name, time zone and language (fields left out stay); the
   * values are checked by the route. A new zone cuts days from then on (docs/coordinators/time-zones.md).
   */
  async changeProfile(accountId: number, change: { name?: string; timeZone?: string; locale?: AccountLocale }): Promise<Account | null> {
    await this.changeLogged(accountId, (tx) => store.changeAccountProfile(tx, accountId, change, this.clock()));
    return this.changed(accountId);
  }

  async hasAnyAccount(): Promise<boolean> {
    return store.anyAccount(this.database.db);
  }

  async listAccounts(): Promise<Account[]> {
    return (await store.listAccounts(this.database.db)).map(toAccount);
  }

  /**
   * A new account with its first workspace user and API token, both admins (the token named
   * FIRST_TOKEN_NAME). The token is returned here and never again; only its hash is kept. `login`
   * defaults to `admin@<accountID>`; the user can sign in only once it has a password.
   */
  async createAccount(input: {
    name: string;
    timeZone: string;
    token?: string;
    login?: string;
    password?: string;
  }): Promise<CreatedAccount> {
    const now = this.clock();
    const token = input.token ?? newApiToken();
    const passwordHash = input.password ? await hashPassword(input.password) : `disabled$${randomBytes(8).toString('hex')}`;
    return this.database.transaction(async (tx) => {
      const account = await store.insertAccount(tx, input, now);
      const login = input.login ?? `admin@${account.id}`;
      const userId = await insertUser(tx, account.id, { login, passwordHash }, now);
      const tokenHash = hashToken(token);
      await insertToken(tx, { accountId: account.id, userId, tokenHash, label: FIRST_TOKEN_NAME, role: 'admin', subscriberGroupIds: null }, now);
      return { account: toAccount(account), token, userLogin: login, ...(input.password ? { password: input.password } : {}) };
    });
  }
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    timeZone: row.time_zone,
    smsEnabled: row.sms_enabled === 1,
    settings: JSON.parse(row.settings) as AccountSettings,
    retentionDays: row.retention_days,
    locale: row.locale === 'ru' ? 'ru' : 'en',
    settingsConfirmed: row.settings_confirmed_at !== null,
  };
}

/** The account as the audit log compares it: its settings, by part (`settings.gpsFilter`). */
function auditView(account: Account): Record<string, unknown> {
  const { id: _id, settings, settingsConfirmed: _confirmed, ...fields } = account;
  return { ...fields, ...Object.fromEntries(Object.entries(settings).map(([part, value]) => [`settings.${part}`, value])) };
}

/** A stored scope: a JSON array of group ids, or null for the whole account. */
export function groupIdsOf(stored: string | null): number[] | null {
  return stored === null ? null : (JSON.parse(stored) as number[]);
}
