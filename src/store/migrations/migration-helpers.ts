import type { CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** A migration, made for the store it runs on. */
export type MigrationFactory = (dialect: Dialect) => Migration & { up(db: Kysely<unknown>): Promise<void> };

/**
 * An `id` primary key whose values are never reused (CONTRACT §2): a sequence on PostgreSQL,
 * AUTOINCREMENT on SQLite (a plain rowid may hand out a deleted row's id again).
 */
export function withId(dialect: Dialect) {
  return <T extends string>(table: CreateTableBuilder<T>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
