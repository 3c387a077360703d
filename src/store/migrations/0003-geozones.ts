import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/** Zone groups, zones, map objects, and the per-account zone version the spatial indexes follow. */
export const geozones: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

    await db.schema
      .createTable('zone_groups')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      // A foreign key as well as the service's check: a group cannot vanish under a concurrent write.
      .addColumn('parent_id', bigint, (c) => c.references('zone_groups.id'))
      .addColumn('region_id', bigint)
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('zone_groups_account').on('zone_groups').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('zone_groups_parent').on('zone_groups').columns(['parent_id']).execute();

    await db.schema
      .createTable('zones')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('color', bigint, (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('zone_group_id', bigint, (c) => c.references('zone_groups.id'))
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('custom_fields_form_template_id', bigint)
      .addColumn('bounds', 'text', (c) => c.notNull())
      .addColumn('custom_field_form_items', 'text', (c) => c.notNull())
      .addColumn('version', bigint, (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('zones_account').on('zones').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('zones_group').on('zones').columns(['zone_group_id']).execute();

    await db.schema
      .createTable('zone_versions')
      .addColumn('account_id', bigint, (c) => c.primaryKey().references('accounts.id'))
      .addColumn('version', bigint, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('map_objects')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('latitude', 'double precision', (c) => c.notNull())
      .addColumn('longitude', 'double precision', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('map_objects_account').on('map_objects').columns(['account_id', 'id']).execute();
  },
});
