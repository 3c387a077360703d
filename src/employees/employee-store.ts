import { sql, type Selectable } from 'kysely';
import type { Database, Db, Tx } from '../store/database.js';
import { isOneOf } from '../store/id-table.js';
import { PREPARED } from '../store/prepared.js';
import type { SubscribersTable } from '../store/schema.js';
import type { Row } from './employee-rows.js';

/** The statements of employees (`subscribers`): their routes, what ingestion reads of them, and isOnline. */

export type EmployeeRow = Selectable<SubscribersTable>;

export interface EmployeeFilter {
  isActive?: boolean | undefined;
  ids?: number[] | undefined;
  groupIds?: number[] | undefined;
  /** Null: every employee (SQLite needs a LIMIT before an OFFSET: the caller gives -1, its "no limit"). */
  limit: number | null;
  offset: number;
}

/** The account's living employees, by id. */
export async function listEmployees(db: Db, accountId: number, filter: EmployeeFilter): Promise<EmployeeRow[]> {
  let select = db.selectFrom('subscribers').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null);
  if (filter.isActive !== undefined) select = select.where('is_active', '=', filter.isActive ? 1 : 0);
  if (filter.ids?.length) select = select.where('id', 'in', filter.ids);
  if (filter.groupIds?.length) select = select.where('group_id', 'in', filter.groupIds);
  if (filter.limit !== null) select = select.limit(filter.limit);
  if (filter.offset) select = select.offset(filter.offset);
  return select.orderBy('id').execute();
}

/** A living employee of the account; `forUpdate` (PostgreSQL) locks it for the change about to be made. */
export async function findEmployee(executor: Db, accountId: number, id: number, forUpdate = false): Promise<EmployeeRow | null> {
  let select = executor.selectFrom('subscribers').selectAll().where('account_id', '=', accountId).where('id', '=', id).where('deleted_at', 'is', null);
  if (forUpdate) select = select.forUpdate();
  return (await select.executeTakeFirst()) ?? null;
}

export async function findEmployeeByExternalId(db: Db, accountId: number, externalId: string): Promise<EmployeeRow | null> {
  const row = await db
    .selectFrom('subscribers')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('external_id', '=', externalId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertEmployee(tx: Tx, accountId: number, row: Row & { device_password?: string | null }, now: number): Promise<number> {
  const { id } = await tx
    .insertInto('subscribers')
    .values({ ...row, account_id: accountId, created_at: now, updated_at: now, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateEmployee(tx: Tx, accountId: number, id: number, row: Row & { device_password?: string | null }, now: number): Promise<void> {
  await tx.updateTable('subscribers').set({ ...row, updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** A deleted employee keeps its history; its device key and external id are freed. */
export async function markEmployeeDeleted(tx: Tx, accountId: number, id: number, now: number): Promise<void> {
  await tx.updateTable('subscribers').set({ deleted_at: now, device_key: null, external_id: null }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

export async function vehicleSettingsRows(executor: Db, accountId: number, ids: number[]): Promise<{ id: number; vehicle_settings: string }[]> {
  return executor
    .selectFrom('subscribers')
    .select(['id', 'vehicle_settings'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

/** What ingestion reads of the living employees among `ids`, in its transaction. */
export async function ingestTargetRows(tx: Tx, database: Pick<Database, 'dialect'>, accountId: number, ids: number[]): Promise<{ id: number; vehicle_settings: string; is_online: number; seen_at: number | null; device_key: string | null }[]> {
  // Raw SQL over an id table, kept prepared: read for every group the ingest queue commits, and
  // building the query with Kysely cost more than the read itself.
  const { rows } = await sql<{ id: number; vehicle_settings: string; is_online: number; seen_at: number | null; device_key: string | null }>`${PREPARED}
    SELECT id, vehicle_settings, is_online, seen_at, device_key FROM subscribers
    WHERE account_id = ${accountId} AND ${isOneOf(database, 'id', ids)} AND deleted_at IS NULL`.execute(tx);
  return rows;
}

/** The account's living employees, ascending, or those of `ids` that are living. */
export async function livingIds(executor: Db, accountId: number, ids?: readonly number[]): Promise<number[]> {
  let select = executor.selectFrom('subscribers').select('id').where('account_id', '=', accountId).where('deleted_at', 'is', null);
  if (ids?.length) select = select.where('id', 'in', [...ids]);
  return (await select.orderBy('id').execute()).map((r) => r.id);
}

/** Name and external id of the account's employees among `ids`, deleted ones included. */
export async function identityRows(executor: Db, accountId: number, ids: number[]): Promise<{ id: number; name: string; external_id: string | null; deleted_at: number | null }[]> {
  return executor.selectFrom('subscribers').select(['id', 'name', 'external_id', 'deleted_at']).where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/**
 * The living owners of these device keys, in one read: the keys a turn of the event loop asks for
 * (see EmployeeService.findByDeviceKey). One statement text whatever their number: an array on
 * PostgreSQL, a JSON list on SQLite.
 */
export interface DeviceKeyRow {
  device_key: string;
  account_id: number;
  id: number;
  vehicle_settings: string;
  device_protocol: string | null;
  device_password: string | null;
}

export async function findByDeviceKeys(db: Db, database: Pick<Database, 'dialect'>, deviceKeys: readonly string[]): Promise<DeviceKeyRow[]> {
  const { rows } = await sql<DeviceKeyRow>`${PREPARED}
    SELECT device_key, account_id, id, vehicle_settings, device_protocol, device_password FROM subscribers WHERE ${isOneOf(database, 'device_key', deviceKeys, 'text')} AND deleted_at IS NULL`.execute(db);
  return rows;
}

/** Keeps the arrival time of online employees; the ids it did not update went offline meanwhile. */
export async function touchSeenAt(tx: Tx, database: Pick<Database, 'dialect'>, accountId: number, ids: number[], atMs: number): Promise<number[]> {
  const rows = await tx
    .updateTable('subscribers')
    .set({ seen_at: atMs })
    .where('account_id', '=', accountId)
    .where(isOneOf(database, 'id', ids))
    .where('is_online', '=', 1)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Online employees of every account silent since `cutoff`: the presence sweep's work, a batch at a time. */
export async function silentOnline(db: Db, cutoff: number, limit: number): Promise<{ account_id: number; id: number }[]> {
  return db
    .selectFrom('subscribers')
    .select(['account_id', 'id'])
    .where('is_online', '=', 1)
    .where('seen_at', '<=', cutoff)
    .where('deleted_at', 'is', null)
    .orderBy('account_id')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Those of `ids` whose isOnline is not yet `online` (and, going offline, still silent since
 * `silentSince`), locked on PostgreSQL (`forUpdate`) so that two servers flip an employee once.
 */
export async function presenceToFlip(
  tx: Tx,
  database: Pick<Database, 'dialect'>,
  accountId: number,
  ids: number[],
  flip: { online: boolean; silentSince: number | null; forUpdate: boolean },
): Promise<EmployeeRow[]> {
  let select = tx
    .selectFrom('subscribers')
    .selectAll()
    .where('account_id', '=', accountId)
    .where(isOneOf(database, 'id', ids))
    .where('deleted_at', 'is', null)
    .where('is_online', '=', flip.online ? 0 : 1)
    .orderBy('id');
  if (flip.silentSince !== null) select = select.where('seen_at', '<=', flip.silentSince);
  if (flip.forUpdate) select = select.forUpdate();
  return select.execute();
}

/** isOnline turned on (with the arrival time) or off. */
export async function writeOnline(tx: Tx, database: Pick<Database, 'dialect'>, accountId: number, ids: number[], online: { atMs: number } | null): Promise<void> {
  const update = tx.updateTable('subscribers').where('account_id', '=', accountId).where(isOneOf(database, 'id', ids));
  await (online ? update.set({ is_online: 1, seen_at: online.atMs }) : update.set({ is_online: 0 })).execute();
}

/** A device's accepted login: the address it came from and when (shown with the employee, never a credential). */
export async function recordDeviceConnection(executor: Db, accountId: number, id: number, address: string, atMs: number): Promise<void> {
  await executor.updateTable('subscribers').set({ device_address: address, device_connected_at: atMs }).where('account_id', '=', accountId).where('id', '=', id).execute();
}
