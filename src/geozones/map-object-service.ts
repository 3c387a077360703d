import type { Account } from '../accounts/accounts.js';
import { ApiError } from '../http/errors.js';
import { haversineMetres } from '../geo/geo.js';
import type { Database, Db } from '../store/database.js';
import type { MapObjectsTable } from '../store/schema.js';
import type { MapObject, MapObjectPatch, MapObjectWrite } from './map-object-schema.js';

const notFound = (mapObjectID: number) => new ApiError('MAP_OBJECT_NOT_FOUND', `no map object ${mapObjectID}`);
const columns = ['id', 'name', 'address', 'latitude', 'longitude', 'external_id', 'comment'] as const;

type Columns = Pick<MapObjectsTable, 'name' | 'address' | 'latitude' | 'longitude' | 'external_id' | 'comment'>;

/** Map objects (CONTRACT §3, an extension the zone lookup by mapObjectID needs). */
export class MapObjectService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account): Promise<MapObject[]> {
    const rows = await this.database.db.selectFrom('map_objects').select(columns).where('account_id', '=', account.id).orderBy('id').execute();
    return rows.map(fromRow);
  }

  async get(account: Account, mapObjectID: number): Promise<MapObject> {
    const row = await this.database.db
      .selectFrom('map_objects')
      .select(columns)
      .where('account_id', '=', account.id)
      .where('id', '=', mapObjectID)
      .executeTakeFirst();
    if (!row) throw notFound(mapObjectID);
    return fromRow(row);
  }

  /**
   * The name of the account's map object nearest to a point, if one is within `maxMetres`
   * (the track address fallback of CONTRACT §2). Reads a small box around the point.
   */
  async nearestName(executor: Db, accountId: number, latitude: number, longitude: number, maxMetres: number): Promise<string | null> {
    const dLat = maxMetres / 111_000;
    const dLon = dLat / Math.max(0.01, Math.cos((latitude * Math.PI) / 180));
    const rows = await executor
      .selectFrom('map_objects')
      .select(['name', 'latitude', 'longitude'])
      .where('account_id', '=', accountId)
      .where('latitude', '>=', latitude - dLat)
      .where('latitude', '<=', latitude + dLat)
      .where('longitude', '>=', longitude - dLon)
      .where('longitude', '<=', longitude + dLon)
      .execute();
    let best: { name: string; metres: number } | null = null;
    for (const row of rows) {
      const metres = haversineMetres(latitude, longitude, row.latitude, row.longitude);
      if (metres <= maxMetres && (!best || metres < best.metres)) best = { name: row.name, metres };
    }
    return best?.name ?? null;
  }

  async create(account: Account, input: MapObjectWrite): Promise<MapObject> {
    const object = build(0, input);
    const now = this.clock();
    const { id } = await this.database.db
      .insertInto('map_objects')
      .values({ ...toColumns(object), account_id: account.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...object, mapObjectID: id };
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
    await this.write(account, mapObjectID, columns);
  }

  async delete(account: Account, mapObjectID: number): Promise<void> {
    const result = await this.database.db.deleteFrom('map_objects').where('account_id', '=', account.id).where('id', '=', mapObjectID).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(mapObjectID);
  }

  private async write(account: Account, mapObjectID: number, columns: Partial<Columns>): Promise<void> {
    const result = await this.database.db
      .updateTable('map_objects')
      .set({ ...columns, updated_at: this.clock() })
      .where('account_id', '=', account.id)
      .where('id', '=', mapObjectID)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound(mapObjectID);
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
  };
}
