import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { MigrationFactory } from './migration-helpers.js';

/**
 * Users and API tokens with a role (`admin`, `dispatcher`, `viewer`) and an optional scope of
 * employee groups (JSON array of ids; null: the whole account). Users get a name, can be turned
 * off, and may have to change a temporary password; tokens get a last use. Users and tokens that
 * exist already were made by the operator or the first start: they become admins. A token no
 * longer needs a user (it is the account's, named, and outlives whoever made it), so `user_id`
 * becomes the one who made it, null once that user is removed; SQLite cannot drop NOT NULL in
 * place, so its table is copied.
 */
export const identity: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema.alterTable('users').addColumn('name', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('admin')).execute();
    await db.schema.alterTable('users').addColumn('subscriber_group_ids', 'text').execute();
    await db.schema.alterTable('users').addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await db.schema.alterTable('users').addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('users').addColumn('last_sign_in_at', bigint).execute();
    await sql`UPDATE users SET name = login`.execute(db);
    await db.schema.createIndex('users_account').on('users').column('account_id').execute();

    if (dialect === 'postgres') {
      await sql`ALTER TABLE api_tokens ALTER COLUMN user_id DROP NOT NULL`.execute(db);
    } else {
      await sql`CREATE TABLE api_tokens_copy (
        id integer PRIMARY KEY AUTOINCREMENT,
        account_id integer NOT NULL REFERENCES accounts (id),
        user_id integer REFERENCES users (id),
        token_hash text NOT NULL UNIQUE,
        label text NOT NULL,
        created_at integer NOT NULL,
        revoked_at integer
      )`.execute(db);
      await sql`INSERT INTO api_tokens_copy (id, account_id, user_id, token_hash, label, created_at, revoked_at)
        SELECT id, account_id, user_id, token_hash, label, created_at, revoked_at FROM api_tokens`.execute(db);
      await sql`DROP TABLE api_tokens`.execute(db);
      await sql`ALTER TABLE api_tokens_copy RENAME TO api_tokens`.execute(db);
    }
    await db.schema.alterTable('api_tokens').addColumn('role', 'text', (c) => c.notNull().defaultTo('admin')).execute();
    await db.schema.alterTable('api_tokens').addColumn('subscriber_group_ids', 'text').execute();
    await db.schema.alterTable('api_tokens').addColumn('last_used_at', bigint).execute();
    await sql`UPDATE api_tokens SET label = 'First token' WHERE label = 'first token'`.execute(db);
    await db.schema.createIndex('api_tokens_account').on('api_tokens').column('account_id').execute();
  },
});
