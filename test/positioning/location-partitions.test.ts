import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, createQueryId, sql, type RootOperationNode } from 'kysely';
import { listLocations } from '../../src/positioning/location-store.js';
import { listTimePartitions } from '../../src/store/time-partitions.js';
import { WEEK_MS, weekPartitionName, weekStartMs } from '../../src/store/weeks.js';
import { ADMIN_TOKEN, createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { DAY_MS, drivingDay, drivingDays, postFixes } from './growth-fixtures.js';

// Weeks after the history partition the migration made (it reaches about a week past today), so
// that the fixes of the test land in weekly partitions: a Thursday, noon.
const NOW = weekStartMs(Date.now()) + 10 * WEEK_MS + 3 * DAY_MS + 12 * 3_600_000;
const TODAY = NOW - 12 * 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Every table a plan reads. */
function relationsOf(plan: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(plan)) for (const item of plan) relationsOf(item, found);
  else if (plan && typeof plan === 'object') {
    for (const [key, value] of Object.entries(plan)) {
      if (key === 'Relation Name' && typeof value === 'string') found.add(value);
      else relationsOf(value, found);
    }
  }
  return found;
}

for (const dialect of dialects) {
  describe(`weekly partitions of the locations on ${dialect}`, { skip: dialect === 'sqlite' && 'SQLite keeps the locations in one table' }, () => {
    let server: TestServer;
    let vehicle: number;

    const plannedPartitions = async (filter: Parameters<typeof listLocations>[2]) => {
      // The store runs its statement; a plugin keeps it, and it is planned again under EXPLAIN.
      let node: RootOperationNode | undefined;
      const keep = server.database.db.withPlugin({ transformQuery: (args) => (node ??= args.node), transformResult: async (args) => args.result });
      await listLocations(keep, server.account.id, filter);
      const compiled = server.database.db.getExecutor().compileQuery(node!, createQueryId());
      const { rows } = await server.database.db.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
      );
      return relationsOf(rows[0]!['QUERY PLAN']);
    };
    const partitions = () => listTimePartitions(server.database.db, 'locations');
    const countBefore = async (beforeMs: number) =>
      Number((await server.database.db.selectFrom('locations').select((eb) => eb.fn.countAll<number>().as('n')).where('location_date', '<', beforeMs).executeTakeFirstOrThrow()).n);

    before(async () => {
      server = await startServer(dialect, { now: NOW, services: { retention: { batchRows: 500 } } });
      vehicle = await createEmployee(server.api, { name: 'Truck 7' });
      await postFixes(server.api, drivingDays(vehicle, TODAY - 34 * DAY_MS, 34));
    });
    after(() => server.close());

    it('makes a partition for every week up to four weeks ahead, and one past that when a fix needs it', async () => {
      await server.services.retention.makePartitionsAhead();
      const made = await partitions();
      assert.equal(made[0]!.name, 'locations_history');
      assert.equal(made[0]!.fromMs, null);
      for (let i = 1; i < made.length; i++) {
        assert.equal(made[i]!.fromMs, made[i - 1]!.toMs, 'weeks follow each other without a gap');
        assert.equal(made[i]!.toMs - made[i]!.fromMs!, WEEK_MS);
        assert.equal(made[i]!.name, weekPartitionName('locations', made[i]!.fromMs!));
      }
      assert.ok(made.at(-1)!.toMs > NOW + 4 * WEEK_MS, 'four weeks ahead');
      assert.ok(made.some((p) => p.fromMs === weekStartMs(TODAY - 30 * DAY_MS)), 'the fixes of a month ago have their week');

      // A server whose clock ran far ahead: the week of its fix is made with the insert.
      const farAhead = NOW + 20 * WEEK_MS;
      server.setNow(farAhead);
      const answer = await server.api.post(LOCATIONS, [{ subscriberID: vehicle, locationDate: iso(farAhead), latitude: 55.7, longitude: 37.6 }]);
      assert.equal(answer.status, 201);
      assert.ok((await partitions()).some((p) => p.fromMs === weekStartMs(farAhead)));
      await server.database.db.deleteFrom('locations').where('location_date', '=', farAhead).execute();
      server.setNow(NOW);
    });

    it('reads a vehicle’s day from the partition of that week only, and the newest fixes from the weeks of their period', async () => {
      const wednesday = weekStartMs(TODAY) - WEEK_MS + 2 * DAY_MS;
      const day = await plannedPartitions({ fromMs: wednesday, toMs: wednesday + DAY_MS - 1, subscriberIds: [vehicle], count: 1000, offset: 0 });
      assert.deepEqual([...day], [weekPartitionName('locations', weekStartMs(wednesday))]);

      const newest = await plannedPartitions({ fromMs: NOW - 72 * 3_600_000, toMs: NOW, count: 1000, offset: 0 });
      const expected = new Set([weekPartitionName('locations', weekStartMs(NOW - 72 * 3_600_000)), weekPartitionName('locations', weekStartMs(NOW))]);
      assert.deepEqual(newest, expected);

      const listed = await server.api.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=1000&dateFrom=${iso(wednesday)}&dateTo=${iso(wednesday + DAY_MS - 1)}`);
      assert.equal(listed.body.length, 80, 'the day, whole');
    });

    it('finds one fix by its id in any week, and takes a resent day once', async () => {
      const old = await server.api.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=1&dateFrom=${iso(TODAY - 30 * DAY_MS)}&dateTo=${iso(TODAY - 29 * DAY_MS)}`);
      const [fix] = old.body;
      const one = await server.api.get(`${LOCATIONS}/${fix.locationID}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, fix);

      const total = await countBefore(NOW + DAY_MS);
      const resent = drivingDays(vehicle, TODAY - 34 * DAY_MS, 34).filter((f) => Date.parse(f.locationDate) >= TODAY - 3 * DAY_MS);
      await postFixes(server.api, resent);
      assert.equal(await countBefore(NOW + DAY_MS), total, 'a resent fix is acknowledged, not stored twice');
    });

    it('runs retention on one server at a time: while another holds the run, this one skips it', async () => {
      await server.database.db.connection().execute(async (other) => {
        await sql`SELECT pg_advisory_lock(hashtext('lokator:retention'))`.execute(other);
        try {
          assert.equal((await server.services.retention.runOnce()).skipped, true);
        } finally {
          await sql`SELECT pg_advisory_unlock(hashtext('lokator:retention'))`.execute(other);
        }
      });
      assert.equal((await server.services.retention.runOnce()).skipped, false);
    });

    it('drops the weeks older than every account’s retention whole, and keeps every instant covered', async () => {
      assert.equal((await server.api.withToken(ADMIN_TOKEN).patch(`/admin/v1/accounts/${server.account.id}`, { retentionDays: 14 })).status, 200);
      const cutoff = NOW - 14 * DAY_MS;
      const newer = (await countBefore(NOW + DAY_MS)) - (await countBefore(cutoff));
      const gone = (await partitions()).filter((p) => p.toMs <= cutoff).map((p) => p.name);
      assert.ok(gone.length >= 3 && gone.includes('locations_history'), gone.join());
      const lastId = Number((await server.database.db.selectFrom('locations').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id);

      const report = await server.services.retention.runOnce();
      assert.deepEqual(report.partitionsDropped, gone);
      assert.ok(report.fixes.rows > 0, 'the rest of the week the cut-off lies in goes row by row');
      assert.equal(await countBefore(cutoff), 0);
      assert.equal(await countBefore(NOW + DAY_MS), newer);
      const left = await partitions();
      assert.equal(left[0]!.name, 'locations_history');
      assert.equal(left[0]!.fromMs, null);
      assert.equal(left[0]!.toMs, left[1]!.fromMs, 'a new history partition below the oldest week');

      // A fix from long ago still finds its partition (and goes at the next run); ids go on from the same sequence.
      const ancient = drivingDay(vehicle, TODAY - 100 * DAY_MS, 37).fixes.slice(0, 3);
      assert.equal((await server.api.post(LOCATIONS, ancient)).status, 201);
      const { rows } = await sql<{ partition: string; id: string }>`
        SELECT tableoid::regclass::text AS partition, id::text FROM locations WHERE location_date < ${cutoff} ORDER BY id`.execute(server.database.db);
      assert.deepEqual(rows.map((r) => r.partition), ['locations_history', 'locations_history', 'locations_history']);
      assert.ok(Number(rows[0]!.id) > lastId);
      const again = await server.services.retention.runOnce();
      assert.deepEqual(again.partitionsDropped, ['locations_history'], 'the history partition holds nothing newer than the cut-off');
      assert.equal(await countBefore(cutoff), 0);
    });
  });
}
