import { createHash, randomUUID } from 'node:crypto';
import type { Account } from '../accounts/accounts.js';
import { actedAtMs } from '../http/acted-at.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db } from '../store/database.js';
import type { TaskReader } from '../tasks/tasks.js';
import type { FileStore } from './file-store.js';
import { extensionOf, sniffType, type AcceptedType } from './file-types.js';
import * as rows from './form-file-store.js';
import type { FileRow } from './form-file-store.js';
import type { StoredFile } from './file-schema.js';

/** The path API clients download a file from, under the server's own address. */
export const filePath = (fileID: number) => `/v6/api/fileManagement/files/${fileID}`;

export interface UploadInput {
  bytes: Buffer;
  fileName?: string | undefined;
  actedAt?: string | undefined;
}

/** A file as forms name it: what `items` shows of a picture or file field. */
export interface FileFacts {
  fileID: number;
  taskID: number;
  contentType: string;
  size: number;
}

/**
 * Files employees upload for their tasks' forms: the bytes in the file store, a row in
 * `form_files` saying whose they are. The bytes are stored before the row, so no row ever names
 * bytes that are not there; removal marks the row first, then removes the bytes, then the row.
 */
export class FileService {
  constructor(
    private readonly database: Database,
    private readonly store: FileStore,
    private readonly tasks: TaskReader,
    private readonly clock: () => number,
  ) {}

  /** Stores a file for one of the employee's own tasks (another's: 404 code 18). */
  async upload(account: Account, subscriberID: number, taskID: number, input: UploadInput, origin: string): Promise<StoredFile> {
    const now = this.clock();
    const acted = actedAtMs(input.actedAt, account.timeZone, now);
    if (input.bytes.length === 0) throw invalidField('body', 'the file is empty');
    const type = sniffType(input.bytes);
    if (!type) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the file must be a JPEG, PNG or WebP picture or a PDF document');
    const [task] = await this.tasks.listByIds(account, [taskID]);
    if (!task || task.subscriberID !== subscriberID) throw new ApiError('TASK_NOT_FOUND', `no task ${taskID}`);
    const key = `${account.id}/${randomUUID()}`;
    await this.store.put(key, input.bytes, type);
    const fileName = input.fileName?.trim() || null;
    const id = await rows.insertFile(this.database.db, {
      account_id: account.id,
      task_id: taskID,
      subscriber_id: subscriberID,
      storage_key: key,
      content_type: type,
      size_bytes: input.bytes.length,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      file_name: fileName,
      acted_at: acted,
      created_at: now,
    });
    return this.view(account, { id, task_id: taskID, content_type: type, size_bytes: input.bytes.length, file_name: fileName, acted_at: acted }, origin);
  }

  /** A file's bytes for an API client; another account's, or a removed one, is 404 code 1029. */
  async download(account: Account, fileID: number): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
    const [row] = await rows.filesByIds(this.database.db, account.id, [fileID]);
    const bytes = row ? await this.store.get(row.storage_key) : null;
    if (!row || !bytes) throw new ApiError('FILE_NOT_FOUND', `no file ${fileID}`);
    return { bytes, contentType: row.content_type, fileName: row.file_name ?? `file-${row.id}.${extensionOf(row.content_type as AcceptedType)}` };
  }

  /** The account's living files among `ids`, by id (forms show them as `items`). */
  async describe(account: Account, ids: number[]): Promise<Map<number, FileFacts>> {
    const found = await rows.filesByIds(this.database.db, account.id, [...new Set(ids)]);
    return new Map(found.map((row) => [row.id, { fileID: row.id, taskID: Number(row.task_id), contentType: row.content_type, size: Number(row.size_bytes) }]));
  }

  /** Which of `ids` are living files of the task, in the caller's transaction (a form may name only those). */
  async idsOfTask(executor: Db, accountId: number, taskID: number, ids: number[]): Promise<Set<number>> {
    const found = await rows.filesByIds(executor, accountId, [...new Set(ids)]);
    return new Set(found.filter((row) => Number(row.task_id) === taskID).map((row) => row.id));
  }

  /**
   * Retention: removes up to `limit` of the account's files whose task is gone (deleted), or that
   * were made before `createdBeforeMs` (null: none by age), and finishes removals a stopped run
   * left marked. The number of files removed.
   */
  async removeExpired(account: Account, createdBeforeMs: number | null, limit: number): Promise<number> {
    const db = this.database.db;
    const leftover = await rows.markedFiles(db, account.id, limit);
    const aged = createdBeforeMs === null ? [] : await rows.filesCreatedBefore(db, account.id, createdBeforeMs, limit);
    const orphans = await this.filesOfGoneTasks(account, limit);
    const going = new Map<number, string>();
    for (const row of [...leftover, ...aged, ...orphans]) if (going.size < limit) going.set(row.id, row.storage_key);
    if (going.size === 0) return 0;
    await rows.markFilesDeleted(db, account.id, [...going.keys()], this.clock());
    for (const key of going.values()) await this.store.delete(key);
    await rows.deleteFileRows(db, account.id, [...going.keys()]);
    return going.size;
  }

  private async filesOfGoneTasks(account: Account, limit: number): Promise<FileRow[]> {
    const gone: number[] = [];
    let after = 0;
    for (;;) {
      const taskIds = await rows.taskIdsWithFiles(this.database.db, account.id, after, 500);
      if (taskIds.length === 0) break;
      const living = new Set((await this.tasks.listByIds(account, taskIds)).map((task) => task.taskID));
      gone.push(...taskIds.filter((id) => !living.has(id)));
      after = taskIds.at(-1)!;
      if (gone.length >= limit || taskIds.length < 500) break;
    }
    return (await rows.filesOfTasks(this.database.db, account.id, gone.slice(0, limit))).slice(0, limit);
  }

  private view(account: Account, row: Pick<FileRow, 'id' | 'task_id' | 'content_type' | 'size_bytes' | 'file_name' | 'acted_at'>, origin: string): StoredFile {
    return {
      fileID: row.id,
      taskID: Number(row.task_id),
      contentType: row.content_type,
      size: Number(row.size_bytes),
      fileName: row.file_name,
      createdDate: formatDateTime(Number(row.acted_at), account.timeZone),
      url: `${origin}${filePath(row.id)}`,
    };
  }
}
