import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * The files employees upload for their tasks' forms (pictures, documents). The bytes live in the
 * file store (a folder under DATA_DIR or an S3 bucket) under `storage_key`; the row says whose
 * they are. `deleted_at` marks a file whose bytes are being removed, so that a crash between the
 * two never serves a row without bytes.
 */
export const formFiles: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('form_files')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('task_id', bigint, (c) => c.notNull())
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull().unique())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size_bytes', bigint, (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text')
      .addColumn('acted_at', bigint, (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('deleted_at', bigint)
      .execute();
    await db.schema.createIndex('form_files_task').on('form_files').columns(['account_id', 'task_id']).execute();
    await db.schema.createIndex('form_files_created').on('form_files').columns(['account_id', 'created_at']).execute();
  },
});
