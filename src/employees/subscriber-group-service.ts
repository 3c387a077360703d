import type { Account } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Tx } from '../store/database.js';
import type { SubscriberGroup, SubscriberGroupPatch, SubscriberGroupWrite } from './subscriber-group-schema.js';
import { deleteGroup, findGroup, groupHasEmployees, groupIdsAmong, insertGroup, listGroups, updateGroup } from './subscriber-group-store.js';

const notFound = (id: number) => new ApiError('SUBSCRIBER_GROUP_NOT_FOUND', `no subscriber group ${id}`);

/** Employee groups (`/v6/api/subscriberManagement/subscriberGroups`). */
export class SubscriberGroupService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  list(account: Account): Promise<SubscriberGroup[]> {
    return listGroups(this.database.db, account.id);
  }

  /** Which of these ids name a group of the account. */
  existingIds(accountId: number, ids: readonly number[]): Promise<number[]> {
    return groupIdsAmong(this.database.db, accountId, ids);
  }

  async get(account: Account, id: number): Promise<SubscriberGroup> {
    const group = await findGroup(this.database.db, account.id, id);
    if (!group) throw notFound(id);
    return group;
  }

  async create(account: Account, input: SubscriberGroupWrite): Promise<SubscriberGroup> {
    const group = { name: input.name, regionID: input.regionID ?? null, comment: input.comment ?? '' };
    return this.database.transaction(async (tx) => {
      const created = { subscriberGroupID: await insertGroup(tx, account.id, group, this.clock()), ...group };
      await this.audit.record(tx, account.id, { kind: 'subscriberGroup.create', objectId: created.subscriberGroupID, after: created });
      return created;
    });
  }

  async replace(account: Account, id: number, input: SubscriberGroupWrite): Promise<void> {
    await this.update(account, id, () => ({ subscriberGroupID: id, name: input.name, regionID: input.regionID ?? null, comment: input.comment ?? '' }));
  }

  async patch(account: Account, id: number, input: SubscriberGroupPatch): Promise<void> {
    await this.update(account, id, (before) => ({
      subscriberGroupID: id,
      name: input.name ?? before.name,
      regionID: input.regionID !== undefined ? input.regionID : before.regionID,
      comment: input.comment ?? before.comment,
    }));
  }

  /** A group that still has employees is kept: 409 code 1019, like a zone group with zones; nothing is deleted. */
  async delete(account: Account, id: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await findGroup(tx, account.id, id, this.lock('update'));
      if (!before) throw notFound(id);
      if (await groupHasEmployees(tx, account.id, id)) {
        throw new ApiError('SUBSCRIBER_GROUP_NOT_EMPTY', `subscriber group ${id} still has employees; nothing was deleted`);
      }
      await deleteGroup(tx, account.id, id);
      await this.audit.record(tx, account.id, { kind: 'subscriberGroup.delete', objectId: id, before });
    });
  }

  /** In an employee write: `subscriberGroupID` names a group of the account (400 code 2 otherwise). */
  async checkExists(tx: Tx, accountId: number, id: number): Promise<void> {
    if (!(await findGroup(tx, accountId, id, this.lock('share')))) throw invalidField('subscriberGroupID', `no subscriber group ${id}`);
  }

  private async update(account: Account, id: number, change: (before: SubscriberGroup) => SubscriberGroup): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await findGroup(tx, account.id, id, this.lock('update'));
      if (!before) throw notFound(id);
      const after = change(before);
      await updateGroup(tx, account.id, after, this.clock());
      await this.audit.record(tx, account.id, { kind: 'subscriberGroup.update', objectId: id, before, after });
    });
  }

  private lock(kind: 'share' | 'update'): 'share' | 'update' | null {
    return this.database.dialect === 'postgres' ? kind : null;
  }
}
