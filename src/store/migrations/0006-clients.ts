import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * What clients of the original service call besides positions: employee groups,
 * custom-field templates, "locate now" requests, and the task type as a column so that the
 * task list can filter on it in SQL (it lived only in the task's JSON document).
 */
export const clients: MigrationFactory = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

    await db.schema
      .createTable('subscriber_groups')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('region_id', bigint)
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('subscriber_groups_account').on('subscriber_groups').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('subscribers_group').on('subscribers').columns(['account_id', 'group_id']).execute();

    await db.schema
      .createTable('custom_field_templates')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .addColumn('deleted_at', bigint)
      .execute();
    await db.schema.createIndex('custom_field_templates_account').on('custom_field_templates').columns(['account_id', 'id']).execute();

    await db.schema
      .createTable('subscriber_requests')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull().references('accounts.id'))
      .addColumn('subscriber_id', bigint, (c) => c.notNull())
      .addColumn('requested_at', bigint, (c) => c.notNull())
      .addColumn('result_code', 'integer', (c) => c.notNull())
      .addColumn('location_id', bigint)
      .addColumn('message', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('subscriber_requests_subscriber')
      .on('subscriber_requests')
      .columns(['account_id', 'subscriber_id', 'requested_at'])
      .execute();

    // A map object's group, as clients send it (`mapObjectGroupIDs` filters on it); Lokator has no such groups to check against.
    await db.schema.alterTable('map_objects').addColumn('group_id', bigint).execute();
    await db.schema.createIndex('map_objects_group').on('map_objects').columns(['account_id', 'group_id']).execute();

    await db.schema.alterTable('tasks').addColumn('task_type_id', bigint).execute();
    const typeOf =
      dialect === 'postgres'
        ? sql`((document::jsonb) ->> 'taskTypeID')::bigint`
        : sql`CAST(json_extract(document, '$.taskTypeID') AS INTEGER)`;
    await sql`UPDATE tasks SET task_type_id = ${typeOf}`.execute(db);
    await db.schema.createIndex('tasks_type').on('tasks').columns(['account_id', 'task_type_id']).execute();
  },
});
