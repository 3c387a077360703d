import { sql, type Kysely } from 'kysely';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * Outgoing calls (CONTRACT §4, §5): event rules, the durable outbox of deliveries with their
 * attempts, per-account signing secrets, tasks, change-signal ids and employee presence.
 */
export const outgoing: MigrationFactory = (dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';

    await db.schema
      .createTable('event_rules')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('event_rules_account_kind').on('event_rules').columns(['account_id', 'kind', 'id']).execute();

    await db.schema
      .createTable('deliveries')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('event_rule_id', bigint)
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      // The receiver's dedup key (`webhook-id`): the same on every attempt and on a resend.
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', bigint, (c) => c.notNull())
      // A claim: which worker holds the row and until when (a lease its heartbeat renews).
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', bigint)
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('finished_at', bigint)
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .execute();
    // Deliveries to one target keep their order: only the earliest pending one (the head) may be
    // claimed. Pending rows only, so finding each target's head is one seek per target.
    await db.schema
      .createIndex('deliveries_pending_target')
      .on('deliveries')
      .columns(['account_id', 'channel', 'target', 'id'])
      .where(sql.ref('status'), '=', sql.lit('pending'))
      .execute();
    await db.schema.createIndex('deliveries_locked_by').on('deliveries').column('locked_by').where(sql.ref('locked_by'), 'is not', null).execute();
    await db.schema.createIndex('deliveries_account').on('deliveries').columns(['account_id', 'id']).execute();

    await db.schema
      .createTable('delivery_attempts')
      .$call(withId(dialect))
      .addColumn('delivery_id', bigint, (c) => c.notNull())
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('attempted_at', bigint, (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('delivery_attempts_delivery').on('delivery_attempts').columns(['delivery_id', 'id']).execute();

    await db.schema
      .createTable('signing_secrets')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      // Null for the current secret; a rotated-out secret keeps signing until then.
      .addColumn('expires_at', bigint)
      .execute();
    await db.schema.createIndex('signing_secrets_account').on('signing_secrets').columns(['account_id', 'id']).execute();
    // One current secret per account, even when two servers create it on first use at once.
    await db.schema
      .createIndex('signing_secrets_current')
      .unique()
      .on('signing_secrets')
      .column('account_id')
      .where(sql.ref('expires_at'), 'is', null)
      .execute();

    await db.schema
      .createTable('tasks')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('subscriber_id', bigint)
      .addColumn('external_id', 'text')
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('start_ms', bigint)
      .addColumn('deadline_ms', bigint)
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('updated_at', bigint, (c) => c.notNull())
      .addColumn('deleted_at', bigint)
      .execute();
    await db.schema.createIndex('tasks_account').on('tasks').columns(['account_id', 'id']).execute();
    await db.schema.createIndex('tasks_subscriber').on('tasks').columns(['account_id', 'subscriber_id', 'status']).execute();
    // Task lists are ordered by start date.
    await db.schema.createIndex('tasks_account_start').on('tasks').columns(['account_id', 'start_ms', 'id']).execute();

    // Ids of change signals (interface 2.10 signalID): taken from here so they are unique across
    // servers; the rows are removed again at once, the sequence only moves forward.
    await db.schema
      .createTable('signal_ids')
      .$call(withId(dialect))
      .addColumn('created_at', bigint, (c) => c.notNull())
      .execute();

    // Presence (interface 2.9 isOnline): the flag, and when fixes last arrived, to within a
    // fraction of ONLINE_TIMEOUT (written at most that often, not with every batch).
    await db.schema.alterTable('subscribers').addColumn('is_online', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('subscribers').addColumn('seen_at', bigint).execute();
    await db.schema.createIndex('subscribers_online').on('subscribers').columns(['is_online', 'seen_at']).execute();
  },
});
