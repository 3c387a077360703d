import type { Account } from '../accounts/accounts.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import type { ZoneGroup, ZoneGroupPatch, ZoneGroupWrite } from './zone-group-schema.js';
import { lockZoneWrites } from './zone-version-store.js';

const notFound = (zoneGroupID: number) => new ApiError('ZONE_GROUP_NOT_FOUND', `no zone group ${zoneGroupID}`);
const columns = ['id', 'name', 'parent_id', 'region_id'] as const;

/** Zone groups (routes 16-21 of interface 4.3) with the decisions of CONTRACT §3. */
export class ZoneGroupService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account): Promise<ZoneGroup[]> {
    const rows = await this.database.db.selectFrom('zone_groups').select(columns).where('account_id', '=', account.id).orderBy('id').execute();
    return rows.map(fromRow);
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
      const { id } = await tx
        .insertInto('zone_groups')
        .values({ account_id: account.id, name: group.name, parent_id: group.parentID, region_id: group.regionID, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...group, zoneGroupID: id };
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
      await this.read(tx, account, zoneGroupID);
      const zone = await tx.selectFrom('zones').select('id').where('account_id', '=', account.id).where('zone_group_id', '=', zoneGroupID).limit(1).executeTakeFirst();
      const child = await tx.selectFrom('zone_groups').select('id').where('account_id', '=', account.id).where('parent_id', '=', zoneGroupID).limit(1).executeTakeFirst();
      if (zone || child) {
        throw new ApiError('ZONE_GROUP_NOT_EMPTY', `zone group ${zoneGroupID} still has ${zone ? 'zones' : 'child groups'}; nothing was deleted`);
      }
      await tx.deleteFrom('zone_groups').where('account_id', '=', account.id).where('id', '=', zoneGroupID).execute();
    });
  }

  private async update(account: Account, zoneGroupID: number, change: (before: ZoneGroup) => ZoneGroup): Promise<void> {
    await this.database.transaction(async (tx) => {
      await lockZoneWrites(tx, account.id);
      const before = await this.read(tx, account, zoneGroupID);
      const after = change(before);
      if (after.parentID !== null && after.parentID !== before.parentID) await this.checkParent(tx, account, after.parentID, zoneGroupID);
      await tx
        .updateTable('zone_groups')
        .set({ name: after.name, parent_id: after.parentID, region_id: after.regionID, updated_at: this.clock() })
        .where('account_id', '=', account.id)
        .where('id', '=', zoneGroupID)
        .execute();
    });
  }

  /** The parent must be a group of this account, and `self` must not be among its ancestors (nor be it). */
  private async checkParent(tx: Tx, account: Account, parentID: number, self: number | null): Promise<void> {
    const seen = new Set<number>();
    let current: number | null = parentID;
    while (current !== null && !seen.has(current)) {
      if (current === self) throw invalidField('parentID', `group ${parentID} is group ${self} or one of its descendants: that would make a cycle`);
      seen.add(current);
      const row: { parent_id: number | null } | undefined = await tx
        .selectFrom('zone_groups')
        .select('parent_id')
        .where('account_id', '=', account.id)
        .where('id', '=', current)
        .executeTakeFirst();
      if (!row) {
        if (current === parentID) throw invalidField('parentID', `no zone group ${parentID}`);
        break;
      }
      current = row.parent_id;
    }
  }

  private async read(executor: Db | Tx, account: Account, zoneGroupID: number): Promise<ZoneGroup> {
    const row = await executor
      .selectFrom('zone_groups')
      .select(columns)
      .where('account_id', '=', account.id)
      .where('id', '=', zoneGroupID)
      .executeTakeFirst();
    if (!row) throw notFound(zoneGroupID);
    return fromRow(row);
  }
}

function fromRow(row: { id: number; name: string; parent_id: number | null; region_id: number | null }): ZoneGroup {
  return { zoneGroupID: row.id, name: row.name, parentID: row.parent_id, regionID: row.region_id };
}
