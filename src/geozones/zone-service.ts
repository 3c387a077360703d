import type { Account } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import type { MapObjectService } from './map-object-service.js';
import type { ZoneReference } from './zone-index.js';
import type { ZoneLookup } from './zone-lookup.js';
import { customFieldTypes, type Zone, type ZoneLookupQuery, type ZonePatch, type ZoneWrite } from './zone-schema.js';
import { findZoneGroup } from './zone-group-store.js';
import { deleteZone, findZone, fromZoneRow, insertZone, listZones, toZoneColumns, updateZone } from './zone-store.js';
import { bumpZoneVersion } from './zone-version-store.js';

const notFound = (zoneID: number) => new ApiError('ZONE_NOT_FOUND', `no zone ${zoneID}`);

/** Zones (routes 8-15 of interface 4.2) with the decisions of CONTRACT §3. */
export interface ZoneServiceOptions {
  database: Database;
  lookup: ZoneLookup;
  mapObjects: MapObjectService;
  clock?: () => number;
  /** Checks the custom-field template and values a zone names; none: not checked. */
  templates?: CustomFieldTemplates | null;
  /** Where changes are logged, in their transaction. */
  audit?: AuditRecorder;
}

export class ZoneService {
  private readonly database: Database;
  private readonly lookup: ZoneLookup;
  private readonly mapObjects: MapObjectService;
  private readonly clock: () => number;
  private readonly templates: CustomFieldTemplates | null;
  private readonly audit: AuditRecorder;

  constructor({ database, lookup, mapObjects, clock = Date.now, templates = null, audit = noAudit }: ZoneServiceOptions) {
    this.audit = audit;
    this.database = database;
    this.lookup = lookup;
    this.mapObjects = mapObjects;
    this.clock = clock;
    this.templates = templates;
  }

  async list(account: Account, withCustomTemplateItems: boolean): Promise<Zone[]> {
    const zones = (await listZones(this.database.db, account.id)).map(fromZoneRow);
    if (!withCustomTemplateItems) for (const zone of zones) delete zone.customFieldFormItems;
    return zones;
  }

  async get(account: Account, zoneID: number): Promise<Zone> {
    return this.read(this.database.db, account, zoneID);
  }

  async create(account: Account, input: ZoneWrite): Promise<Zone> {
    const zone = buildZone(input);
    return this.database.transaction(async (tx) => {
      const version = await bumpZoneVersion(tx, account.id);
      await checkGroup(tx, account, zone.zoneGroupID);
      await this.templates?.checkUse(tx, account.id, templateUse(zone), null);
      const now = this.clock();
      const id = await insertZone(tx, account.id, toZoneColumns(zone), version, now);
      const created = { ...zone, zoneID: id };
      await this.audit.record(tx, account.id, { kind: 'zone.create', objectId: id, after: created });
      return created;
    });
  }

  async replace(account: Account, zoneID: number, input: ZoneWrite): Promise<void> {
    const replacement = buildZone(input);
    await this.update(account, zoneID, () => replacement);
  }

  async patch(account: Account, zoneID: number, input: ZonePatch): Promise<void> {
    checkCustomFieldTypes(input.customFieldFormItems);
    const bounds = input.bounds === undefined ? undefined : normaliseBounds(input.bounds);
    await this.update(account, zoneID, (before) => patchZone(before, input, bounds));
  }

  async delete(account: Account, zoneID: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      await bumpZoneVersion(tx, account.id);
      // Throwing rolls the version bump back with the rest.
      const before = await this.read(tx, account, zoneID);
      if (!(await deleteZone(tx, account.id, zoneID))) throw notFound(zoneID);
      await this.audit.record(tx, account.id, { kind: 'zone.delete', objectId: zoneID, before });
    });
  }

  /**
   * Routes 10 and 11: the enabled zones containing a map object's point or a given point, ordered
   * by zoneID; `zoneGroupID` keeps those of that group. Neither pair complete: code 52.
   */
  async findContaining(account: Account, query: ZoneLookupQuery): Promise<{ zones: ZoneReference[] }> {
    const { mapObjectID, zoneGroupID, latitude, longitude } = query;
    if (mapObjectID !== undefined && (latitude !== undefined || longitude !== undefined)) {
      throw invalidField('mapObjectID', 'give either mapObjectID or latitude and longitude, not both');
    }
    let point: { latitude: number; longitude: number };
    if (mapObjectID !== undefined) {
      point = await this.mapObjects.get(account, mapObjectID);
    } else if (latitude !== undefined && longitude !== undefined) {
      point = { latitude, longitude };
    } else {
      const missing = latitude !== undefined ? ['longitude'] : longitude !== undefined ? ['latitude'] : ['mapObjectID'];
      throw new ApiError(
        'NULL_ARGUMENT',
        'either mapObjectID, or latitude and longitude, are required',
        Object.fromEntries(missing.map((field) => [field, 'is required'])),
      );
    }
    if (zoneGroupID !== undefined && !(await groupExists(this.database.db, account, zoneGroupID))) {
      throw new ApiError('ZONE_GROUP_NOT_FOUND', `no zone group ${zoneGroupID}`);
    }
    const zones = await this.lookup.findZonesContaining(account.id, point.latitude, point.longitude);
    return { zones: zoneGroupID === undefined ? zones : zones.filter((zone) => zone.zoneGroupID === zoneGroupID) };
  }

  private async update(account: Account, zoneID: number, change: (before: Zone) => Zone): Promise<void> {
    await this.database.transaction(async (tx) => {
      const version = await bumpZoneVersion(tx, account.id);
      const before = await this.read(tx, account, zoneID);
      const after = change(before);
      if (after.zoneGroupID !== before.zoneGroupID) await checkGroup(tx, account, after.zoneGroupID);
      await this.templates?.checkUse(tx, account.id, templateUse(after), templateUse(before));
      await updateZone(tx, account.id, zoneID, toZoneColumns(after), version, this.clock());
      await this.audit.record(tx, account.id, { kind: 'zone.update', objectId: zoneID, before, after });
    });
  }

  private async read(executor: Db | Tx, account: Account, zoneID: number): Promise<Zone> {
    const row = await findZone(executor, account.id, zoneID);
    if (!row) throw notFound(zoneID);
    return fromZoneRow(row);
  }
}

const templateUse = (zone: Zone) => ({ templateID: zone.customFieldsFormTemplateID, items: zone.customFieldFormItems });

/** A whole zone from a POST or PUT body: omitted fields take the defaults of CONTRACT §3. */
function buildZone(input: ZoneWrite): Zone {
  checkCustomFieldTypes(input.customFieldFormItems);
  return {
    zoneID: 0,
    name: input.name,
    color: input.color ?? 0,
    enabled: input.enabled ?? true,
    zoneGroupID: input.zoneGroupID ?? null,
    comment: input.comment ?? '',
    bounds: normaliseBounds(input.bounds ?? []),
    customFieldsFormTemplateID: input.customFieldsFormTemplateID ?? input.customFieldFormTemplateID ?? null,
    customFieldFormItems: input.customFieldFormItems ?? [],
  };
}

function patchZone(before: Zone, input: ZonePatch, bounds: Zone['bounds'] | undefined): Zone {
  const templateID = input.customFieldsFormTemplateID !== undefined ? input.customFieldsFormTemplateID : input.customFieldFormTemplateID;
  return {
    zoneID: before.zoneID,
    name: input.name ?? before.name,
    color: input.color ?? before.color,
    enabled: input.enabled ?? before.enabled,
    zoneGroupID: input.zoneGroupID !== undefined ? input.zoneGroupID : before.zoneGroupID,
    comment: input.comment ?? before.comment,
    bounds: bounds ?? before.bounds,
    customFieldsFormTemplateID: templateID !== undefined ? templateID : before.customFieldsFormTemplateID,
    customFieldFormItems: input.customFieldFormItems ?? before.customFieldFormItems ?? [],
  };
}

/** A ring of at least 3 points; a closing point equal to the first is dropped; none at all is allowed (CONTRACT §3). */
function normaliseBounds(bounds: Zone['bounds']): Zone['bounds'] {
  if (bounds.length === 0) return [];
  const first = bounds[0]!;
  const last = bounds[bounds.length - 1]!;
  const closed = bounds.length > 1 && first.latitude === last.latitude && first.longitude === last.longitude;
  const ring = (closed ? bounds.slice(0, -1) : bounds).map(({ longitude, latitude }) => ({ longitude, latitude }));
  if (ring.length < 3) throw invalidField('bounds', 'must have at least 3 points (a closing point not counted), or none');
  return ring;
}

function checkCustomFieldTypes(items: { type: string }[] | undefined): void {
  items?.forEach((item, index) => {
    if (!customFieldTypes.includes(item.type.toLowerCase())) {
      throw invalidField(`customFieldFormItems[${index}].type`, `must be one of ${customFieldTypes.join(', ')}`);
    }
  });
}

/** `zoneGroupID` must name a group of the same account (CONTRACT §3: code 2 otherwise). */
async function checkGroup(tx: Tx, account: Account, zoneGroupID: number | null): Promise<void> {
  if (zoneGroupID !== null && !(await groupExists(tx, account, zoneGroupID))) {
    throw invalidField('zoneGroupID', `no zone group ${zoneGroupID}`);
  }
}

async function groupExists(executor: Db | Tx, account: Account, zoneGroupID: number): Promise<boolean> {
  return (await findZoneGroup(executor, account.id, zoneGroupID)) !== null;
}
