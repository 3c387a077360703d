import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isOneOf } from '../../src/store/id-table.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';

const EMPLOYEES = 5000;

/** A PostgreSQL plan node, as EXPLAIN (ANALYZE, FORMAT JSON) gives it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows the plan looked at: those its scans produced or filtered out, and those its joins compared and dropped. */
function rowsLookedAt(node: PlanNode): number {
  const loops = node['Actual Loops'] ?? 1;
  const own = node['Relation Name'] ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * loops : 0;
  return own + (node['Rows Removed by Join Filter'] ?? 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsLookedAt(child), 0);
}

/**
 * The ingest queue reads its group's employees and pipeline states by a list of ids (`isOneOf`).
 * Whatever the table's statistics say, that read must not compare every row with every id: on a
 * table filled since it was last analysed (an account's employees just imported, a fleet's first
 * states), PostgreSQL planned `IN (SELECT unnest(…))` that way, 250 ms a group for 10,000
 * employees, until autovacuum analysed the table. As `= ANY(array)` it is an index probe per id
 * once the table is analysed, and at worst (as here, not analysed) one pass over the account's rows.
 */
for (const dialect of dialects) {
  describe(`rows picked by a list of ids on ${dialect}`, () => {
    let store: TestDatabase;
    let accountId: number;
    const wanted = Array.from({ length: 200 }, (_, i) => 1 + i * 25);

    before(async () => {
      store = await freshDatabase(dialect);
      const { db } = store.database;
      accountId = (await db.insertInto('accounts').values({ name: 'Fleet', time_zone: 'UTC', sms_enabled: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()).id;
      // Employees written at once, as an import writes them, and not analysed since.
      const rows = Array.from({ length: EMPLOYEES }, (_, i) => ({
        account_id: accountId, name: `Driver ${i + 1}`, is_active: 1, device_key: `key-${i + 1}`, document: '{}', vehicle_settings: '{}', created_at: 0, updated_at: 0,
      }));
      for (let i = 0; i < rows.length; i += 500) await db.insertInto('subscribers').values(rows.slice(i, i + 500)).execute();
      await db.updateTable('subscribers').set({ deleted_at: 1 }).where('id', '=', wanted[1]!).execute();
    });
    after(async () => store?.drop());

    const query = () => sql`SELECT id FROM subscribers WHERE account_id = ${accountId} AND ${isOneOf(store.database, 'id', wanted)} AND deleted_at IS NULL`;

    it('gives exactly the living rows asked for', async () => {
      const { rows } = await sql<{ id: number }>`${query()} ORDER BY id`.execute(store.database.db);
      assert.deepEqual(
        rows.map((r) => Number(r.id)),
        wanted.filter((id) => id !== wanted[1]),
      );
    });

    it('looks at each row once at most, not once per id', async () => {
      if (dialect === 'postgres') {
        const { rows } = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`EXPLAIN (ANALYZE, FORMAT JSON) ${query()}`.execute(store.database.db);
        const plan = rows[0]!['QUERY PLAN'][0].Plan;
        const looked = rowsLookedAt(plan);
        assert.ok(looked <= EMPLOYEES + 2 * wanted.length, `the plan looked at ${looked} rows for ${wanted.length} ids among ${EMPLOYEES}: ${JSON.stringify(plan)}`);
      } else {
        const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${query()}`.execute(store.database.db);
        const details = rows.map((r) => r.detail);
        assert.ok(details.some((d) => /^SEARCH subscribers USING (INTEGER PRIMARY KEY|INDEX)/.test(d)), details.join('; '));
        assert.ok(!details.some((d) => /^SCAN subscribers/.test(d)), details.join('; '));
      }
    });
  });
}
