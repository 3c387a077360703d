import type { Account } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { ApiError } from '../http/errors.js';
import { searchWords } from '../http/free-text.js';
import { haversineMetres } from '../geo/geo.js';
import type { Database, Db } from '../store/database.js';
import type { MapObject, MapObjectListQuery, MapObjectPatch, MapObjectWrite } from './map-object-schema.js';
import { deleteMapObject, findMapObject, insertMapObject, listMapObjects, mapObjectsInBoxes, updateMapObject, type MapObjectColumns } from './map-object-store.js';

const notFound = (mapObjectID: number) => new ApiError('MAP_OBJECT_NOT_FOUND', `no map object ${mapObjectID}`);
type Columns = MapObjectColumns;

/** Map objects (CONTRACT §3, an extension the zone lookup by mapObjectID needs). */
export class MapObjectService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
    private readonly audit: AuditRecorder = noAudit,
  ) {}

  /**
   * `address`: the objects whose address holds every word of the text, in any order, ignoring case
   * (bots send whole addresses: "Санкт-Петербург Приморский дом 1"). A text without a letter or a
   * digit names nothing to search for: 400 code 2, not every object.
   */
  async list(account: Account, query: MapObjectListQuery = {}): Promise<MapObject[]> {
    const addressWords = query.address === undefined ? undefined : searchWords(query.address);
    if (addressWords?.length === 0) throw new ApiError('BAD_REQUEST', 'address has no word to search for', { address: 'needs a letter or a digit' });
    const rows = await listMapObjects(this.database.db, account.id, { addressWords, ids: query.mapObjectIDs, groupIds: query.mapObjectGroupIDs });
    return rows.map(fromRow);
  }

  async get(account: Account, mapObjectID: number): Promise<MapObject> {
    const row = await findMapObject(this.database.db, account.id, mapObjectID);
    if (!row) throw notFound(mapObjectID);
    return fromRow(row);
  }

  /**
   * For each point, the name of the account's nearest map object within `maxMetres`, or null (the
   * track address fallback of CONTRACT §2): one statement reads the objects in a box around each
   * point, and each point measures only the objects of its own box.
   */
  async nearestNames(executor: Db, accountId: number, points: readonly { latitude: number; longitude: number }[], maxMetres: number): Promise<(string | null)[]> {
    if (points.length === 0) return [];
    const dLat = maxMetres / 111_000;
    const boxes: { minLat: number; maxLat: number; minLon: number; maxLon: number }[] = [];
    /** The point each box was drawn around. */
    const pointOf: number[] = [];
    points.forEach(({ latitude, longitude }, i) => {
      const dLon = dLat / Math.max(0.01, Math.cos((latitude * Math.PI) / 180));
      for (const [minLon, maxLon] of longitudeRanges(longitude - dLon, longitude + dLon)) {
        boxes.push({ minLat: latitude - dLat, maxLat: latitude + dLat, minLon, maxLon });
        pointOf.push(i);
      }
    });
    const best: ({ name: string; metres: number } | null)[] = points.map(() => null);
    for (const row of await mapObjectsInBoxes(this.database, executor, accountId, boxes)) {
      const i = pointOf[row.box - 1]!;
      const { latitude, longitude } = points[i]!;
      const metres = haversineMetres(latitude, longitude, row.latitude, row.longitude);
      const current = best[i];
      if (metres <= maxMetres && (!current || metres < current.metres || (metres === current.metres && row.name < current.name))) best[i] = { name: row.name, metres };
    }
    return best.map((b) => b?.name ?? null);
  }

  async create(account: Account, input: MapObjectWrite): Promise<MapObject> {
    const object = build(0, input);
    const now = this.clock();
    return this.database.transaction(async (tx) => {
      const id = await insertMapObject(tx, account.id, toColumns(object), now);
      const created = { ...object, mapObjectID: id };
      await this.audit.record(tx, account.id, { kind: 'mapObject.create', objectId: id, after: created });
      return created;
    });
  }

  async replace(account: Account, mapObjectID: number, input: MapObjectWrite): Promise<void> {
    await this.write(account, mapObjectID, toColumns(build(mapObjectID, input)));
  }

  /** Only the fields present are written, so two PATCHes of different fields do not undo each other. */
  async patch(account: Account, mapObjectID: number, input: MapObjectPatch): Promise<void> {
    const columns: Partial<Columns> = {};
    if (input.name !== undefined) columns.name = input.name;
    if (input.address !== undefined) columns.address = input.address;
    if (input.latitude !== undefined) columns.latitude = input.latitude;
    if (input.longitude !== undefined) columns.longitude = input.longitude;
    if (input.externalID !== undefined) columns.external_id = input.externalID;
    if (input.comment !== undefined) columns.comment = input.comment;
    if (input.mapObjectGroupID !== undefined) columns.group_id = input.mapObjectGroupID;
    await this.write(account, mapObjectID, columns);
  }

  async delete(account: Account, mapObjectID: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await findMapObject(tx, account.id, mapObjectID);
      if (!before || !(await deleteMapObject(tx, account.id, mapObjectID))) throw notFound(mapObjectID);
      await this.audit.record(tx, account.id, { kind: 'mapObject.delete', objectId: mapObjectID, before: fromRow(before) });
    });
  }

  private async write(account: Account, mapObjectID: number, columns: Partial<Columns>): Promise<void> {
    await this.database.transaction(async (tx) => {
      const before = await findMapObject(tx, account.id, mapObjectID);
      if (!before || !(await updateMapObject(tx, account.id, mapObjectID, columns, this.clock()))) throw notFound(mapObjectID);
      const after = await findMapObject(tx, account.id, mapObjectID);
      await this.audit.record(tx, account.id, { kind: 'mapObject.update', objectId: mapObjectID, before: fromRow(before), after: after && fromRow(after) });
    });
  }
}

function build(mapObjectID: number, input: MapObjectWrite): MapObject {
  return {
    mapObjectID,
    name: input.name,
    address: input.address ?? '',
    latitude: input.latitude,
    longitude: input.longitude,
    externalID: input.externalID ?? null,
    comment: input.comment ?? '',
    mapObjectGroupID: input.mapObjectGroupID ?? null,
  };
}

function toColumns(object: MapObject): Columns {
  return {
    name: object.name,
    address: object.address,
    latitude: object.latitude,
    longitude: object.longitude,
    external_id: object.externalID,
    comment: object.comment,
    group_id: object.mapObjectGroupID,
  };
}

function fromRow(row: Columns & { id: number }): MapObject {
  return {
    mapObjectID: row.id,
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    externalID: row.external_id,
    comment: row.comment,
    mapObjectGroupID: row.group_id,
  };
}

/**
 * The longitudes from `west` to `east` as ranges within [-180, 180]: a box across the
 * antimeridian (Chukotka, Fiji) is two, one on each side of it.
 */
function longitudeRanges(west: number, east: number): [number, number][] {
  if (east - west >= 360) return [[-180, 180]];
  if (west < -180) return [[west + 360, 180], [-180, east]];
  if (east > 180) return [[west, 180], [-180, east - 360]];
  return [[west, east]];
}
