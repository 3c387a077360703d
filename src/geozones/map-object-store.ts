import { sql } from 'kysely';
import { containsPattern, foldCase } from '../http/free-text.js';
import type { Database, Db } from '../store/database.js';
import { PREPARED } from '../store/prepared.js';
import type { MapObjectsTable } from '../store/schema.js';

/** The statements of map objects. */

export type MapObjectColumns = Pick<MapObjectsTable, 'name' | 'address' | 'latitude' | 'longitude' | 'external_id' | 'comment'> & { group_id: number | null };
export type MapObjectRow = MapObjectColumns & { id: number };

const columns = ['id', 'name', 'address', 'latitude', 'longitude', 'external_id', 'comment', 'group_id'] as const;

export interface MapObjectFilter {
  /** Objects whose address contains every one of these words (from `searchWords`), ignoring case. */
  addressWords?: string[] | undefined;
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
  // The folded copy, so that case is ignored alike on both stores; a word anywhere, one LIKE each.
  for (const word of filter.addressWords ?? []) select = select.where(sql<boolean>`address_folded like ${containsPattern(word)} escape '\\'`);
  if (filter.ids?.length) select = select.where('id', 'in', filter.ids);
  if (filter.groupIds?.length) select = select.where('group_id', 'in', filter.groupIds);
  return select.orderBy('id').execute();
}

export async function findMapObject(db: Db, accountId: number, id: number): Promise<MapObjectRow | null> {
  const row = await db.selectFrom('map_objects').select(columns).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/**
 * The account's objects inside each box, with the box's number (1 for the first): one statement
 * whatever the number of boxes, the boxes one parameter (a JSON text on SQLite, arrays on
 * PostgreSQL), each box read as a range of the (account_id, latitude, longitude) index. CROSS
 * JOIN: SQLite then takes the boxes as the outer loop (it otherwise scanned every box for each of
 * the account's objects); PostgreSQL plans it as any join.
 */
export async function mapObjectsInBoxes(database: Pick<Database, 'dialect'>, db: Db, accountId: number, boxes: readonly Box[]): Promise<{ box: number; name: string; latitude: number; longitude: number }[]> {
  const table =
    database.dialect === 'postgres'
      ? sql`unnest(${boxes.map((b) => b.minLat)}::float8[], ${boxes.map((b) => b.maxLat)}::float8[], ${boxes.map((b) => b.minLon)}::float8[], ${boxes.map((b) => b.maxLon)}::float8[])
              WITH ORDINALITY AS b (min_lat, max_lat, min_lon, max_lon, box)`
      : sql`(SELECT key + 1 AS box, value ->> 0 AS min_lat, value ->> 1 AS max_lat, value ->> 2 AS min_lon, value ->> 3 AS max_lon
              FROM json_each(${JSON.stringify(boxes.map((b) => [b.minLat, b.maxLat, b.minLon, b.maxLon]))})) AS b`;
  const { rows } = await sql<{ box: number; name: string; latitude: number; longitude: number }>`${PREPARED}
    SELECT b.box, m.name, m.latitude, m.longitude FROM ${table} CROSS JOIN map_objects AS m
    WHERE m.account_id = ${accountId} AND m.latitude BETWEEN b.min_lat AND b.max_lat AND m.longitude BETWEEN b.min_lon AND b.max_lon`.execute(db);
  return rows;
}

export async function insertMapObject(db: Db, accountId: number, object: MapObjectColumns, now: number): Promise<number> {
  const { id } = await db
    .insertInto('map_objects')
    .values({ ...object, address_folded: foldCase(object.address), account_id: accountId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Writes the columns given (false when the object is not the account's). */
export async function updateMapObject(db: Db, accountId: number, id: number, changed: Partial<MapObjectColumns>, now: number): Promise<boolean> {
  const result = await db
    .updateTable('map_objects')
    .set({ ...changed, ...(changed.address === undefined ? {} : { address_folded: foldCase(changed.address) }), updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteMapObject(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('map_objects').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
