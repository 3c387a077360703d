import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database } from '../store/database.js';
import { type Account, type Principal } from './account-service.js';
import { groupIdsOf } from './account-service.js';
import { roleOf, type Role } from './roles.js';
import { hashToken, newApiToken } from './secrets.js';
import * as store from './token-store.js';
import { storedScope, type GroupCheck } from './user-service.js';

/** An API token as `/v6/api/userManagement/tokens` shows it; its value only in the answer that creates it. */
export interface ApiToken {
  tokenID: number;
  name: string;
  role: Role;
  subscriberGroupIDs: number[] | null;
  createdDate: string;
  /** To the minute: it moves at most once a minute. */
  lastUsedDate: string | null;
  isRevoked: boolean;
}

export interface TokenChange {
  name?: string;
  role?: Role;
  subscriberGroupIDs?: number[] | null;
}

const notFound = (id: number) => new ApiError('TOKEN_NOT_FOUND', `no token ${id}`);

/**
 * An account's API tokens, managed by its admins: named, each with a role and an optional scope;
 * the value is shown once and kept as its SHA-256. Revoked tokens stay listed (revoked) and are
 * refused from the next request on (they are looked up on every request). Each change is in the
 * audit log, in its transaction, without the token's value.
 */
export class TokenService {
  constructor(
    private readonly database: Database,
    private readonly groups: GroupCheck,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  async list(account: Account): Promise<ApiToken[]> {
    return (await store.listTokens(this.database.db, account.id)).map((row) => toToken(row, account));
  }

  async create(principal: Principal, input: { name: string; role: Role; subscriberGroupIDs?: number[] | null }): Promise<ApiToken & { token: string }> {
    const { account } = principal;
    const name = input.name.trim();
    if (name === '') throw invalidField('name', 'must not be empty');
    const scope = await storedScope(this.groups, account, input.subscriberGroupIDs ?? null);
    const token = newApiToken();
    const row = await this.database.transaction(async (tx) => {
      const created = await store.insertToken(tx, { accountId: account.id, userId: principal.userID, tokenHash: hashToken(token), label: name, role: input.role, subscriberGroupIds: scope }, this.clock());
      await this.audit.record(tx, account.id, { kind: 'token.create', objectId: created.id, after: auditView(created) });
      return created;
    });
    return { ...toToken(row, account), token };
  }

  async change(account: Account, id: number, change: TokenChange): Promise<void> {
    const name = change.name?.trim();
    if (name === '') throw invalidField('name', 'must not be empty');
    const scope = change.subscriberGroupIDs === undefined ? undefined : await storedScope(this.groups, account, change.subscriberGroupIDs);
    await this.database.transaction(async (tx) => {
      const before = await store.findToken(tx, account.id, id);
      if (!before) throw notFound(id);
      await store.changeToken(tx, account.id, id, {
        ...(name === undefined ? {} : { label: name }),
        ...(change.role === undefined ? {} : { role: change.role }),
        ...(scope === undefined ? {} : { subscriberGroupIds: scope }),
      });
      const after = await store.findToken(tx, account.id, id);
      if (after) await this.audit.record(tx, account.id, { kind: 'token.update', objectId: id, before: auditView(before), after: auditView(after) });
    });
  }

  /** Revokes the token (again: nothing more happens). */
  async revoke(account: Account, id: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await store.findToken(tx, account.id, id);
      if (!before) throw notFound(id);
      if (before.revoked_at !== null) return;
      await store.revokeToken(tx, account.id, id, this.clock());
      await this.audit.record(tx, account.id, { kind: 'token.revoke', objectId: id, before: auditView(before), after: { ...auditView(before), isRevoked: true } });
    });
  }
}

/** A token as the audit log compares it: what an admin sets; never its value. */
function auditView(row: store.TokenRecord): object {
  return { name: row.label, role: row.role, subscriberGroupIDs: groupIdsOf(row.subscriber_group_ids), isRevoked: row.revoked_at !== null };
}

function toToken(row: store.TokenRecord, account: Account): ApiToken {
  return {
    tokenID: row.id,
    name: row.label,
    role: roleOf(row.role),
    subscriberGroupIDs: groupIdsOf(row.subscriber_group_ids),
    createdDate: formatDateTime(row.created_at, account.timeZone),
    lastUsedDate: row.last_used_at === null ? null : formatDateTime(row.last_used_at, account.timeZone),
    isRevoked: row.revoked_at !== null,
  };
}
