import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/** Accounts, tokens, workspace users, employees, locations and idempotency keys. */
export const foundation: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

    await db.schema
      .createTable('accounts')
      .$call(withId(dialect))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
      .addColumn('sms_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('login', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_tokens')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('user_id', bigint, (c) => c.notNull().references('users.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('revoked_at', bigint)
      .execute();

    await db.schema
      .createTable('subscribers')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('group_id', bigint)
      .addColumn('device_key', 'text')
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('vehicle_settings', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .addColumn('deleted_at', bigint)
      .execute();
    await db.schema.createIndex('subscribers_account').on('subscribers').columns(['account_id', 'id']).execute();
    // Unique among living employees only: a deleted employee frees its external id and device key.
    await sql`CREATE UNIQUE INDEX subscribers_external_id ON subscribers (account_id, external_id)
              WHERE deleted_at IS NULL AND external_id IS NOT NULL`.execute(db);
    await sql`CREATE UNIQUE INDEX subscribers_device_key ON subscribers (device_key)
              WHERE deleted_at IS NULL AND device_key IS NOT NULL`.execute(db);

    await db.schema
      .createTable('locations')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('location_date', bigint, (c) => c.notNull())
      .addColumn('received_at', bigint, (c) => c.notNull())
      .addColumn('is_valid', 'integer', (c) => c.notNull())
      .addColumn('latitude', 'double precision', (c) => c.notNull())
      .addColumn('longitude', 'double precision', (c) => c.notNull())
      .addColumn('angle', 'integer', (c) => c.notNull())
      .addColumn('velocity', 'double precision', (c) => c.notNull())
      .addColumn('fuel_level', 'double precision')
      .addColumn('ignition', 'integer')
      .addColumn('external_power', 'integer')
      .addColumn('odometer', 'double precision')
      .addColumn('engine_hours', 'double precision')
      .addColumn('sensors', 'text')
      .execute();
    // Listing pages newest first by id within an account; per-employee history goes by (time, id),
    // the pipeline's order, so PostgreSQL never sorts a period to find its first or last fix.
    await db.schema.createIndex('locations_account_id').on('locations').columns(['account_id', 'id']).execute();
    await db.schema
      .createIndex('locations_subscriber_date')
      .on('locations')
      .columns(['account_id', 'subscriber_id', 'location_date', 'id'])
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('response_headers', 'text')
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
  },
});
