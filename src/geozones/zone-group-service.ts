import type { Account } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import type { ZoneGroup, ZoneGroupPatch, ZoneGroupWrite } from './zone-group-schema.js';
import { deleteZoneGroup, findZoneGroup, groupHasChildren, insertZoneGroup, listZoneGroups, updateZoneGroup, type ZoneGroupRow } from './zone-group-store.js';
import { groupHasZones } from './zone-store.js';
import { lockZoneWrites } from './zone-version-store.js';

const notFound = (zoneGroupID: number) => new ApiError('ZONE_GROUP_NOT_FOUND', `no zone group ${zoneGroupID}`);

/** Zone groups (routes 16-21 of interface 4.3) with the decisions of CONTRACT §3. */
export class ZoneGroupService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  async list(account: Account): Promise<ZoneGroup[]> {
    return (await listZoneGroups(this.database.db, account.id)).map(fromRow);
  }

  async get(account: Account, zoneGroupID: number): Promise<ZoneGroup> {
    return this.read(this.database.db, account, zoneGroupID);
  }

  async create(account: Account, input: ZoneGroupWrite): Promise<ZoneGroup> {
    return this.database.transaction(async (tx) => {
      await lockZoneWrites(tx, account.id);
      const group: ZoneGroup = { zoneGroupID: 0, name: input.name, parentID: input.parentID ?? null, regionID: input.regionID ?? null };
      if (group.parentID !== null) await this.checkParent(tx, account, group.parentID, null);
      const now = this.clock();
      const id = await insertZoneGroup(tx, account.id, { name: group.name, parent_id: group.parentID, region_id: group.regionID }, now);
      const created = { ...group, zoneGroupID: id };
      await this.audit.record(tx, account.id, { kind: 'zoneGroup.create', objectId: id, after: created });
      return created;
    });
  }

  async replace(account: Account, zoneGroupID: number, input: ZoneGroupWrite): Promise<void> {
    await this.update(account, zoneGroupID, (before) => ({
      zoneGroupID: before.zoneGroupID,
      name: input.name,
      parentID: input.parentID ?? null,
      regionID: input.regionID ?? null,
    }));
  }

  async patch(account: Account, zoneGroupID: number, input: ZoneGroupPatch): Promise<void> {
    await this.update(account, zoneGroupID, (before) => ({
      zoneGroupID: before.zoneGroupID,
      name: input.name ?? before.name,
      parentID: input.parentID !== undefined ? input.parentID : before.parentID,
      regionID: input.regionID !== undefined ? input.regionID : before.regionID,
    }));
  }

  /** A group that still has zones or child groups is kept: 409 code 1007, nothing deleted. */
  async delete(account: Account, zoneGroupID: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      await lockZoneWrites(tx, account.id);
      const before = await this.read(tx, account, zoneGroupID);
      const zone = await groupHasZones(tx, account.id, zoneGroupID);
      const child = await groupHasChildren(tx, account.id, zoneGroupID);
      if (zone || child) {
        throw new ApiError('ZONE_GROUP_NOT_EMPTY', `zone group ${zoneGroupID} still has ${zone ? 'zones' : 'child groups'}; nothing was deleted`);
      }
      await deleteZoneGroup(tx, account.id, zoneGroupID);
      await this.audit.record(tx, account.id, { kind: 'zoneGroup.delete', objectId: zoneGroupID, before });
    });
  }

  private async update(account: Account, zoneGroupID: number, change: (before: ZoneGroup) => ZoneGroup): Promise<void> {
    await this.database.transaction(async (tx) => {
      await lockZoneWrites(tx, account.id);
      const before = await this.read(tx, account, zoneGroupID);
      const after = change(before);
      if (after.parentID !== null && after.parentID !== before.parentID) await this.checkParent(tx, account, after.parentID, zoneGroupID);
      await updateZoneGroup(tx, account.id, zoneGroupID, { name: after.name, parent_id: after.parentID, region_id: after.regionID }, this.clock());
      await this.audit.record(tx, account.id, { kind: 'zoneGroup.update', objectId: zoneGroupID, before, after });
    });
  }

  /** The parent must be a group of this account, and `self` must not be among its ancestors (nor be it). */
  private async checkParent(tx: Tx, account: Account, parentID: number, self: number | null): Promise<void> {
    const seen = new Set<number>();
    let current: number | null = parentID;
    while (current !== null && !seen.has(current)) {
      if (current === self) throw invalidField('parentID', `group ${parentID} is group ${self} or one of its descendants: that would make a cycle`);
      seen.add(current);
      const row = await findZoneGroup(tx, account.id, current);
      if (!row) {
        if (current === parentID) throw invalidField('parentID', `no zone group ${parentID}`);
        break;
      }
      current = row.parent_id;
    }
  }

  private async read(executor: Db | Tx, account: Account, zoneGroupID: number): Promise<ZoneGroup> {
    const row = await findZoneGroup(executor, account.id, zoneGroupID);
    if (!row) throw notFound(zoneGroupID);
    return fromRow(row);
  }
}

function fromRow(row: ZoneGroupRow): ZoneGroup {
  return { zoneGroupID: row.id, name: row.name, parentID: row.parent_id, regionID: row.region_id };
}
