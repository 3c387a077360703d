import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import { groupIdsOf, type Account, type Principal } from './account-service.js';
import { passwordProblem } from './password-policy.js';
import { roleOf, type Role } from './roles.js';
import { hashPassword } from './secrets.js';
import { insertUser } from './session-store.js';
import { replaceRecoveryCodes } from './two-factor-store.js';
import * as store from './user-store.js';

/** A user as `/v6/api/userManagement/users` shows it. */
export interface User {
  userID: number;
  login: string;
  name: string;
  role: Role;
  subscriberGroupIDs: number[] | null;
  isActive: boolean;
  lastSignInDate: string | null;
}

export interface NewUser {
  login: string;
  name?: string;
  role: Role;
  subscriberGroupIDs?: number[] | null;
  /** Temporary: the user must change it at the first sign-in. */
  password: string;
}

export interface UserChange {
  name?: string;
  role?: Role;
  subscriberGroupIDs?: number[] | null;
  isActive?: boolean;
  /** A new temporary password (the user forgot theirs): their sessions end and they must change it at sign-in. */
  password?: string;
}

/** Which of these ids name an employee group of the account (the employees module answers). */
export type GroupCheck = (accountId: number, ids: readonly number[]) => Promise<number[]>;

const notFound = (id: number) => new ApiError('USER_NOT_FOUND', `no user ${id}`);

/**
 * An account's users, managed by its admins. The account always keeps one active admin: the last
 * one cannot be removed, turned off or made another role (409 code 1008). Each change is in the
 * audit log, in its transaction; a password given shows there as set, never its value.
 */
export class UserService {
  constructor(
    private readonly database: Database,
    private readonly groups: GroupCheck,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  async list(account: Account): Promise<User[]> {
    return (await store.listUsers(this.database.db, account.id)).map((row) => toUser(row, account));
  }

  async get(account: Account, id: number): Promise<User> {
    const row = await store.findUser(this.database.db, account.id, id);
    if (!row) throw notFound(id);
    return toUser(row, account);
  }

  async create(account: Account, input: NewUser): Promise<User> {
    const weak = passwordProblem(input.password);
    if (weak) throw invalidField('password', weak);
    const scope = await this.scopeOf(account, input.subscriberGroupIDs ?? null);
    const passwordHash = await hashPassword(input.password);
    const name = input.name?.trim() || input.login;
    try {
      const row = await this.database.transaction(async (tx) => {
        const id = await insertUser(tx, account.id, { login: input.login, passwordHash, name, role: input.role, subscriberGroupIds: scope, mustChangePassword: true }, this.clock());
        const created = await store.findUser(tx, account.id, id);
        if (!created) throw notFound(id);
        await this.audit.record(tx, account.id, { kind: 'user.create', objectId: id, after: { ...auditView(created), password: TEMPORARY } });
        return created;
      });
      return toUser(row, account);
    } catch (error) {
      if (isUniqueViolation(error, 'login', 'users_login_key')) throw new ApiError('CONFLICT', 'that login is taken', { login: 'is taken' });
      throw error;
    }
  }

  async change(principal: Principal, id: number, change: UserChange): Promise<void> {
    const { account } = principal;
    if (change.password !== undefined) {
      const weak = passwordProblem(change.password);
      if (weak) throw invalidField('password', weak);
    }
    const scope = change.subscriberGroupIDs === undefined ? undefined : await this.scopeOf(account, change.subscriberGroupIDs);
    const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
    const name = change.name?.trim();
    if (name === '') throw invalidField('name', 'must not be empty');
    await this.database.transaction(async (tx) => {
      const before = await store.findUser(tx, account.id, id, this.database.dialect === 'postgres');
      if (!before) throw notFound(id);
      const losesAdmin = (change.role !== undefined && change.role !== 'admin') || change.isActive === false;
      if (losesAdmin) await this.keepAnAdmin(tx, account.id, before, change.isActive === false ? 'turned off' : 'made another role');
      await store.changeUser(tx, account.id, id, {
        ...(name === undefined ? {} : { name }),
        ...(change.role === undefined ? {} : { role: change.role }),
        ...(scope === undefined ? {} : { subscriberGroupIds: scope }),
        ...(change.isActive === undefined ? {} : { isActive: change.isActive }),
        ...(passwordHash === undefined ? {} : { passwordHash, mustChangePassword: true }),
      });
      // Turned off or given a new password: whoever holds a session of the user is signed out.
      if (change.isActive === false || passwordHash !== undefined) await store.deleteUserSessions(tx, account.id, id);
      const after = await store.findUser(tx, account.id, id);
      if (!after) return;
      // A new password marks the field changed; neither value is kept.
      const password = passwordHash === undefined ? {} : { password: TEMPORARY };
      await this.audit.record(tx, account.id, { kind: 'user.update', objectId: id, before: { ...auditView(before), ...(passwordHash === undefined ? {} : { password: 'previous' }) }, after: { ...auditView(after), ...password } });
    });
  }

  async remove(principal: Principal, id: number): Promise<void> {
    const { account } = principal;
    await this.database.transaction(async (tx) => {
      const before = await store.findUser(tx, account.id, id, this.database.dialect === 'postgres');
      if (!before) throw notFound(id);
      await this.keepAnAdmin(tx, account.id, before, 'removed');
      await store.deleteUserSessions(tx, account.id, id);
      await store.forgetTokenMaker(tx, account.id, id);
      await replaceRecoveryCodes(tx, account.id, id, []);
      await store.deleteUser(tx, account.id, id);
      await this.audit.record(tx, account.id, { kind: 'user.delete', objectId: id, before: auditView(before) });
    });
  }

  /** 409 when `user` is the account's last active admin and would stop being one. */
  private async keepAnAdmin(tx: Parameters<typeof store.activeAdminIds>[0], accountId: number, user: store.UserRecord, what: string): Promise<void> {
    if (user.role !== 'admin' || user.is_active !== 1) return;
    const admins = await store.activeAdminIds(tx, accountId, this.database.dialect === 'postgres');
    if (admins.every((adminId) => adminId === user.id)) {
      throw new ApiError('CONFLICT', `user ${user.id} is the account's last active admin and cannot be ${what}; make another user an admin first`);
    }
  }

  /** A scope as stored: the ids, checked to name groups of the account, as JSON; null for the whole account. */
  async scopeOf(account: Account, ids: readonly number[] | null): Promise<string | null> {
    return storedScope(this.groups, account, ids);
  }
}

/** Checks that every id names a group of the account (400 code 2 naming the first that does not). */
export async function storedScope(groups: GroupCheck, account: Account, ids: readonly number[] | null): Promise<string | null> {
  if (ids === null) return null;
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const existing = new Set(await groups(account.id, unique));
  const missing = unique.find((id) => !existing.has(id));
  if (missing !== undefined) throw invalidField('subscriberGroupIDs', `no subscriber group ${missing}`);
  return JSON.stringify(unique);
}

/** What an audit entry shows of a password an admin set: that it is a temporary one (redacted there as every password is). */
const TEMPORARY = 'temporary';

/** A user as the audit log compares it: what an admin sets, without the last sign-in. */
function auditView(row: store.UserRecord): object {
  return { login: row.login, name: row.name, role: row.role, subscriberGroupIDs: groupIdsOf(row.subscriber_group_ids), isActive: row.is_active === 1 };
}

function toUser(row: store.UserRecord, account: Account): User {
  return {
    userID: row.id,
    login: row.login,
    name: row.name,
    role: roleOf(row.role),
    subscriberGroupIDs: groupIdsOf(row.subscriber_group_ids),
    isActive: row.is_active === 1,
    lastSignInDate: row.last_sign_in_at === null ? null : formatDateTime(row.last_sign_in_at, account.timeZone),
  };
}
