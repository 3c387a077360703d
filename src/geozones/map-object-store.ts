import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { MapObjectsTable } from '../store/schema.js';

/** The statements of map objects. */

export type MapObjectColumns = Pick<MapObjectsTable, 'name' | 'address' | 'latitude' | 'longitude' | 'external_id' | 'comment'> & { group_id: number | null };
export type MapObjectRow = MapObjectColumns & { id: number };

const columns = ['id', 'name', 'address', 'latitude', 'longitude', 'external_id', 'comment', 'group_id'] as const;

export interface MapObjectFilter {
  /** Objects whose address contains this text, ignoring case. */
  addressContains?: string | undefined;
  ids?: number[] | undefined;
  groupIds?: number[] | undefined;
}

export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export async function listMapObjects(db: Db, accountId: number, filter: MapObjectFilter): Promise<MapObjectRow[]> {
  let select = db.selectFrom('map_objects').select(columns).where('account_id', '=', accountId);
  if (filter.addressContains) {
    const pattern = `%${filter.addressContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where(sql<boolean>`lower(address) like ${pattern} escape '\\'`);
  }
  if (filter.ids?.length) select = select.where('id', 'in', filter.ids);
  if (filter.groupIds?.length) select = select.where('group_id', 'in', filter.groupIds);
  return select.orderBy('id').execute();
}

export async function findMapObject(db: Db, accountId: number, id: number): Promise<MapObjectRow | null> {
  const row = await db.selectFrom('map_objects').select(columns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** The account's objects inside any of these boxes (the caller keeps the boxes few: a hundred a statement). */
export async function mapObjectsInBoxes(db: Db, accountId: number, boxes: Box[]): Promise<{ name: string; latitude: number; longitude: number }[]> {
  return db
    .selectFrom('map_objects')
    .select(['name', 'latitude', 'longitude'])
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb.or(
        boxes.map((box) => eb.and([eb('latitude', '>=', box.minLat), eb('latitude', '<=', box.maxLat), eb('longitude', '>=', box.minLon), eb('longitude', '<=', box.maxLon)])),
      ),
    )
    .execute();
}

export async function insertMapObject(db: Db, accountId: number, object: MapObjectColumns, now: number): Promise<number> {
  const { id } = await db
    .insertInto('map_objects')
    .values({ ...object, account_id: accountId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Writes the columns given (false when the object is not the account's). */
export async function updateMapObject(db: Db, accountId: number, id: number, changed: Partial<MapObjectColumns>, now: number): Promise<boolean> {
  const result = await db
    .updateTable('map_objects')
    .set({ ...changed, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteMapObject(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('map_objects').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
