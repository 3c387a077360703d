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
