/** The face of files: the file store for form pictures and documents (see .dependency-cruiser.mjs). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import type { TaskReader } from '../tasks/tasks.js';
import { diskFileStore } from './disk-file-store.js';
import { fileRoutes } from './file-routes.js';
import { FileService } from './file-service.js';
import type { FileStore } from './file-store.js';
import { mobileFileRoutes } from './mobile-file-routes.js';
import { s3FileStore, type S3Settings } from './s3-file-store.js';
import { UploadThrottle } from './upload-throttle.js';

export interface FileSettings {
  /** Where the bytes go; a folder of its own under the system's temporary folder when not given (tests that never look at files). */
  store?: FileStore;
  /** FILES_MAX_BYTES. */
  maxBytes: number;
  /** FILES_UPLOADS_PER_MINUTE, per device key. */
  uploadsPerMinute: number;
}

export const defaultFileSettings: FileSettings = { maxBytes: 10 * 1024 * 1024, uploadsPerMinute: 30 };

export interface FilesDependencies {
  database: Database;
  clock: () => number;
  /** Whose task a file is for, and whether the task still lives (retention). */
  tasks: TaskReader;
  settings?: Partial<FileSettings>;
}

export interface Files extends Pick<FileService, 'describe' | 'idsOfTask' | 'removeExpired'> {
  store: FileStore;
  /** Under `/v6/api`: downloads for API clients. */
  routes: Routes;
  /** Under `/mobile/v1`: uploads from the employee's app. */
  mobileRoutes: Routes;
}

export function createFiles({ database, clock, tasks, settings = {} }: FilesDependencies): Files {
  const { maxBytes, uploadsPerMinute, store = diskFileStore(mkdtempSync(join(tmpdir(), 'lokator-files-'))) } = { ...defaultFileSettings, ...settings };
  const files = new FileService(database, store, tasks, clock);
  return {
    store,
    describe: (account, ids) => files.describe(account, ids),
    idsOfTask: (executor, accountId, taskID, ids) => files.idsOfTask(executor, accountId, taskID, ids),
    removeExpired: (account, beforeMs, limit) => files.removeExpired(account, beforeMs, limit),
    routes: fileRoutes(files),
    mobileRoutes: mobileFileRoutes(files, { maxBytes, throttle: new UploadThrottle(uploadsPerMinute, clock) }),
  };
}

/** The store the settings name: the S3 bucket when FILES_S3_BUCKET is set, else DATA_DIR/files. */
export function openFileStore(dataDir: string, s3: S3Settings | null): FileStore {
  return s3 ? s3FileStore(s3) : diskFileStore(join(dataDir, 'files'));
}

export { diskFileStore } from './disk-file-store.js';
export { filePath } from './file-service.js';
export type { FileFacts } from './file-service.js';
export type { FileStore } from './file-store.js';
export { s3FileStore } from './s3-file-store.js';
export type { S3Settings } from './s3-file-store.js';
