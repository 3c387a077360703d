import type { Insertable } from 'kysely';
import type { Db } from '../store/database.js';
import type { FormFilesTable } from '../store/schema.js';

/** The statements of form files: one per function, every one on the account's rows only. */

const columns = ['id', 'task_id', 'subscriber_id', 'storage_key', 'content_type', 'size_bytes', 'sha256', 'file_name', 'acted_at', 'created_at'] as const;
export type FileRow = Omit<Pick<FormFilesTable, (typeof columns)[number]>, 'id'> & { id: number };

export async function insertFile(db: Db, row: Omit<Insertable<FormFilesTable>, 'id' | 'deleted_at'>): Promise<number> {
  const { id } = await db.insertInto('form_files').values({ ...row, deleted_at: null }).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

/** The account's living files among `ids`. */
export async function filesByIds(db: Db, accountId: number, ids: number[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('form_files').select(columns).where('account_id', '=', accountId).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

/** Up to `limit` of the account's living files made before `beforeMs` (retention), oldest first. */
export async function filesCreatedBefore(db: Db, accountId: number, beforeMs: number, limit: number): Promise<FileRow[]> {
  return db
    .selectFrom('form_files')
    .select(columns)
    .where('account_id', '=', accountId)
    .where('created_at', '<', beforeMs)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** The distinct tasks the account's living files belong to, after `afterTaskId`, in order (retention pages through them). */
export async function taskIdsWithFiles(db: Db, accountId: number, afterTaskId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('form_files')
    .select('task_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .where('task_id', '>', afterTaskId)
    .orderBy('task_id')
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.task_id));
}

/** The account's living files of these tasks. */
export async function filesOfTasks(db: Db, accountId: number, taskIds: number[]): Promise<FileRow[]> {
  if (taskIds.length === 0) return [];
  return db.selectFrom('form_files').select(columns).where('account_id', '=', accountId).where('task_id', 'in', taskIds).where('deleted_at', 'is', null).execute();
}

/** Marks files as going: from here no route serves them, whether or not their bytes are gone yet. */
export async function markFilesDeleted(db: Db, accountId: number, ids: number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('form_files').set({ deleted_at: now }).where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/** Marked files whose bytes are gone: their rows go too. */
export async function deleteFileRows(db: Db, accountId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('form_files').where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/** Up to `limit` of the account's marked files (a run that stopped between marking and removing). */
export async function markedFiles(db: Db, accountId: number, limit: number): Promise<Pick<FileRow, 'id' | 'storage_key'>[]> {
  return db.selectFrom('form_files').select(['id', 'storage_key']).where('account_id', '=', accountId).where('deleted_at', 'is not', null).limit(limit).execute();
}
