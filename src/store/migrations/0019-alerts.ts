import { sql, type Kysely } from 'kysely';
import { withId, type MigrationFactory } from './migration-helpers.js';

/**
 * Workspace alerts: one row per signal or change an event rule fired with `alertWorkspace`, written
 * in the transaction that fired it, with the facts the workspace shows (employee, what, where,
 * when) and who handled it when.
 */
export const alerts: MigrationFactory = (dialect) => ({
  async up(db: Kysely<unknown>) {
    const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
    const real = dialect === 'postgres' ? 'double precision' : 'real';
    await db.schema
      .createTable('alerts')
      .$call(withId(dialect))
      .addColumn('account_id', bigint, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('event_rule_id', bigint, (c) => c.notNull())
      .addColumn('rule_name', 'text', (c) => c.notNull())
      .addColumn('subscriber_id', bigint)
      .addColumn('occurred_at', bigint, (c) => c.notNull())
      .addColumn('latitude', real)
      .addColumn('longitude', real)
      .addColumn('zone_name', 'text')
      .addColumn('address', 'text')
      .addColumn('facts', 'text', (c) => c.notNull())
      .addColumn('created_at', bigint, (c) => c.notNull())
      .addColumn('handled_at', bigint)
      .addColumn('handled_by', bigint)
      .addColumn('handled_by_login', 'text')
      .execute();
    // Lists page newest first by id; the live feed reads the newest id and the unhandled count.
    await db.schema.createIndex('alerts_account').on('alerts').columns(['account_id', 'id']).execute();
    await db.schema
      .createIndex('alerts_unhandled')
      .on('alerts')
      .columns(['account_id', 'id'])
      .where(sql.ref('handled_at'), 'is', null)
      .execute();
  },
});
