import { randomBytes } from 'node:crypto';
import type { Database } from '../store/database.js';
import { hashPassword, hashToken, newApiToken } from './secrets.js';

export interface Account {
  id: number;
  name: string;
  timeZone: string;
  smsEnabled: boolean;
  /** The account's own settings document; each module reads its part and applies its defaults. */
  settings: AccountSettings;
  /** Days of fixes kept (see retention-policy.ts): null follows the server's RETENTION_DAYS, 0 keeps them for ever. */
  retentionDays: number | null;
}

/** Settings an account may change; what is absent takes the default of the module it belongs to. */
export interface AccountSettings {
  /** Track thresholds of CONTRACT §2 (positioning), by name: moveSpeedKmh, stopSeconds, … */
  track?: Readonly<Record<string, number>>;
}

type AccountRow = { id: number; name: string; time_zone: string; sms_enabled: number; settings: string; retention_days: number | null };

/** Who made an authenticated request: the account and the workspace user behind the token. */
export interface Principal {
  account: Account;
  userID: number;
}

export interface CreatedAccount {
  account: Account;
  token: string;
  userLogin: string;
  password?: string;
}

/**
 * How long a resolved token is trusted without asking the database again. Every request carries
 * a token and the lookup is most of a small request's cost; a revoked token or changed account
 * settings take effect within this time on every server.
 */
const PRINCIPAL_CACHE_MS = 5_000;
const PRINCIPAL_CACHE_SIZE = 10_000;

export class AccountService {
  private readonly principals = new Map<string, { principal: Principal; until: number }>();
  private readonly accounts = new Map<number, { account: Account; until: number }>();

  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Resolves a bearer token to its principal; null for unknown or revoked tokens. */
  async authenticate(token: string): Promise<Principal | null> {
    const hash = hashToken(token);
    const now = Date.now();
    const cached = this.principals.get(hash);
    if (cached && cached.until > now) return cached.principal;
    const principal = await this.lookup(hash);
    if (principal) {
      if (this.principals.size >= PRINCIPAL_CACHE_SIZE) this.principals.clear();
      this.principals.set(hash, { principal, until: now + PRINCIPAL_CACHE_MS });
    } else {
      this.principals.delete(hash);
    }
    return principal;
  }

  private async lookup(tokenHash: string): Promise<Principal | null> {
    const row = await this.database.db
      .selectFrom('api_tokens as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .select(['a.id', 'a.name', 'a.time_zone', 'a.sms_enabled', 'a.settings', 'a.retention_days', 't.user_id'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    return { account: toAccount(row), userID: row.user_id };
  }

  async get(accountId: number): Promise<Account | null> {
    const row = await this.database.db
      .selectFrom('accounts')
      .select(['id', 'name', 'time_zone', 'sms_enabled', 'settings', 'retention_days'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  /**
   * `get` for the ingest queue, which reads the account for every group it commits: trusted for
   * as long as a resolved token is (PRINCIPAL_CACHE_MS), so a change of the account's settings
   * reaches ingestion within that time on every server, as it reaches the API.
   */
  async getCached(accountId: number): Promise<Account | null> {
    const now = Date.now();
    const cached = this.accounts.get(accountId);
    if (cached && cached.until > now) return cached.account;
    const account = await this.get(accountId);
    if (this.accounts.size >= PRINCIPAL_CACHE_SIZE) this.accounts.clear();
    if (account) this.accounts.set(accountId, { account, until: now + PRINCIPAL_CACHE_MS });
    else this.accounts.delete(accountId);
    return account;
  }

  /**
   * The operator's changes to an account: its paid SMS option (CONTRACT §4) and how many days of
   * fixes it keeps (null: the server's RETENTION_DAYS; 0: for ever). Fields left out stay.
   */
  async change(accountId: number, change: { smsEnabled?: boolean; retentionDays?: number | null }): Promise<Account | null> {
    const set = {
      ...(change.smsEnabled === undefined ? {} : { sms_enabled: change.smsEnabled ? 1 : 0 }),
      ...(change.retentionDays === undefined ? {} : { retention_days: change.retentionDays }),
    };
    if (Object.keys(set).length > 0) await this.database.db.updateTable('accounts').set(set).where('id', '=', accountId).execute();
    this.principals.clear();
    this.accounts.delete(accountId);
    return this.get(accountId);
  }

  async hasAnyAccount(): Promise<boolean> {
    const row = await this.database.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.database.db
      .selectFrom('accounts')
      .select(['id', 'name', 'time_zone', 'sms_enabled', 'settings', 'retention_days'])
      .orderBy('id')
      .execute();
    return rows.map(toAccount);
  }

  /**
   * A new account with its first workspace user and API token. The token is returned here and
   * never again; only its hash is kept. `login` defaults to `admin@<accountID>`; the user can
   * sign in only once it has a password.
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
      const account = await tx
        .insertInto('accounts')
        .values({ name: input.name, time_zone: input.timeZone, sms_enabled: 0, created_at: now })
        .returning(['id', 'name', 'time_zone', 'sms_enabled', 'settings', 'retention_days'])
        .executeTakeFirstOrThrow();
      const login = input.login ?? `admin@${account.id}`;
      const user = await tx
        .insertInto('users')
        .values({ account_id: account.id, login, password_hash: passwordHash, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('api_tokens')
        .values({ account_id: account.id, user_id: user.id, token_hash: hashToken(token), label: 'first token', created_at: now })
        .execute();
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
  };
}
