import type { Db, Tx } from '../store/database.js';
import type { ZonesTable } from '../store/schema.js';
import type { LonLat } from './polygon-ring.js';
import type { CustomFieldItem, Zone } from './zone-schema.js';

/** The columns a zone is written to, besides the account, its version and timestamps. */
export type ZoneColumns = Pick<
  ZonesTable,
  'name' | 'color' | 'enabled' | 'zone_group_id' | 'comment' | 'custom_fields_form_template_id' | 'bounds' | 'custom_field_form_items'
>;

export const zoneColumns = [
  'id',
  'name',
  'color',
  'enabled',
  'zone_group_id',
  'comment',
  'custom_fields_form_template_id',
  'bounds',
  'custom_field_form_items',
] as const;

/** Bounds are kept as `[[longitude, latitude], ...]`: a third of the size of the wire form, and quick to parse for the index. */
export function toZoneColumns(zone: Zone): ZoneColumns {
  return {
    name: zone.name,
    color: zone.color,
    enabled: zone.enabled ? 1 : 0,
    zone_group_id: zone.zoneGroupID,
    comment: zone.comment,
    custom_fields_form_template_id: zone.customFieldsFormTemplateID,
    bounds: JSON.stringify(zone.bounds.map((p) => [p.longitude, p.latitude])),
    custom_field_form_items: JSON.stringify(zone.customFieldFormItems ?? []),
  };
}

export function fromZoneRow(row: ZoneColumns & { id: number }): Zone {
  return {
    zoneID: row.id,
    name: row.name,
    color: row.color,
    enabled: row.enabled === 1,
    zoneGroupID: row.zone_group_id,
    comment: row.comment,
    bounds: parseBounds(row.bounds).map(([longitude, latitude]) => ({ longitude, latitude })),
    customFieldsFormTemplateID: row.custom_fields_form_template_id,
    customFieldFormItems: JSON.parse(row.custom_field_form_items) as CustomFieldItem[],
  };
}

export function parseBounds(bounds: string): LonLat[] {
  return JSON.parse(bounds) as LonLat[];
}

/* The statements of zones. */

export type ZoneRow = ZoneColumns & { id: number };

export async function listZones(db: Db, accountId: number): Promise<ZoneRow[]> {
  return db.selectFrom('zones').select(zoneColumns).where('account_id', '=', accountId).orderBy('id').execute();
}

export async function findZone(executor: Db, accountId: number, id: number): Promise<ZoneRow | null> {
  const row = await executor.selectFrom('zones').select(zoneColumns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** `version`: the account's zone version this change wrote (the indexes reuse zones that kept theirs). */
export async function insertZone(tx: Tx, accountId: number, zone: ZoneColumns, version: number, now: number): Promise<number> {
  const { id } = await tx
    .insertInto('zones')
    .values({ ...zone, account_id: accountId, version, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateZone(tx: Tx, accountId: number, id: number, zone: ZoneColumns, version: number, now: number): Promise<void> {
  await tx.updateTable('zones').set({ ...zone, version, updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

export async function deleteZone(tx: Tx, accountId: number, id: number): Promise<boolean> {
  const result = await tx.deleteFrom('zones').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether a zone of the account is in the group. */
export async function groupHasZones(tx: Tx, accountId: number, zoneGroupId: number): Promise<boolean> {
  const row = await tx.selectFrom('zones').select('id').where('account_id', '=', accountId).where('zone_group_id', '=', zoneGroupId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Every zone's id and the version that last wrote it: an index rebuild reads again only the zones whose version moved. */
export async function zoneVersions(executor: Db, accountId: number): Promise<{ id: number; version: number }[]> {
  return executor.selectFrom('zones').select(['id', 'version']).where('account_id', '=', accountId).execute();
}

export type IndexedZoneRow = { id: number; version: number; name: string; enabled: number; zone_group_id: number | null; bounds: string };

/** What the spatial index needs of these zones. */
export async function zonesForIndex(executor: Db, accountId: number, ids: number[]): Promise<IndexedZoneRow[]> {
  return executor
    .selectFrom('zones')
    .select(['id', 'version', 'name', 'enabled', 'zone_group_id', 'bounds'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
}
