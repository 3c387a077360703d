import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, Client, createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { DAY_MS, drivingDay, drivingDays, postFixes } from './growth-fixtures.js';

const NOW = Date.parse('2026-05-20T12:00:00Z');
const TODAY = Date.parse('2026-05-20T00:00:00Z');
const BATCH_ROWS = 200;
const BASE = '/v6/api/globalPositioningManagement';
const iso = (ms: number) => new Date(ms).toISOString();

/** A day 45 days back: its fixes go with 30 days' retention, its tracks and statistics stay (4 × 30 days). */
const REMOVED_DAY = TODAY - 45 * DAY_MS;
const removedDay = `dateFrom=${iso(REMOVED_DAY)}&dateTo=${iso(REMOVED_DAY + DAY_MS - 1)}`;

for (const dialect of dialects) {
  describe(`retention on ${dialect}`, () => {
    let server: TestServer;
    let operator: Client;
    let kept: Client;
    let defaulted: Client;
    let accountKept: number;
    let accountDefaulted: number;
    let a1: number; // account A, 30 days: drives every day up to yesterday
    let a2: number; // account A: its last day was 33 days ago
    let b1: number; // account B: keeps everything
    let c1: number; // account C: the server's RETENTION_DAYS (60)
    const before45: Record<string, unknown> = {};

    const count = async (subscriberId: number, beforeMs?: number) => {
      let select = server.database.db.selectFrom('locations').select((eb) => eb.fn.countAll<number>().as('n')).where('subscriber_id', '=', subscriberId);
      if (beforeMs !== undefined) select = select.where('location_date', '<', beforeMs);
      return Number((await select.executeTakeFirstOrThrow()).n);
    };
    const removedDayAnswers = async () => ({
      tracks: (await server.api.get(`${BASE}/tracks?subscriberIDs=${a1}&${removedDay}`)).body,
      events: (await server.api.get(`${BASE}/events?subscriberIDs=${a1}&startDate=${iso(REMOVED_DAY)}&finishDate=${iso(REMOVED_DAY + DAY_MS - 1)}`)).body,
      interval1: (await server.api.get(`${BASE}/statistics?subscriberIDs=${a1}&interval=1&${removedDay}`)).body,
      interval2: (await server.api.get(`${BASE}/statistics?subscriberIDs=${a1}&interval=2&${removedDay}`)).body,
    });

    before(async () => {
      server = await startServer(dialect, { now: NOW, services: { retention: { serverRetentionDays: 60, batchRows: BATCH_ROWS } } });
      operator = server.api.withToken(ADMIN_TOKEN);
      const b = await server.newAccount();
      const c = await server.newAccount();
      kept = b.api;
      defaulted = c.api;
      accountKept = b.account.id;
      accountDefaulted = c.account.id;
      a1 = await createEmployee(server.api, { name: 'A1' });
      a2 = await createEmployee(server.api, { name: 'A2' });
      b1 = await createEmployee(kept, { name: 'B1' });
      c1 = await createEmployee(defaulted, { name: 'C1' });
      const first = TODAY - 130 * DAY_MS;
      await postFixes(server.api, [...drivingDays(a1, first, 130), ...drivingDays(a2, first, 97)]);
      await postFixes(kept, drivingDays(b1, first, 130));
      await postFixes(defaulted, drivingDays(c1, first, 130));
      Object.assign(before45, await removedDayAnswers());
    });
    after(() => server.close());

    it('is set by the operator and by the account itself, and shown to the account', async () => {
      const set = await operator.patch(`/admin/v1/accounts/${server.account.id}`, { retentionDays: 30 });
      assert.equal(set.status, 200);
      assert.equal(set.body.retentionDays, 30);
      assert.equal((await kept.put('/v6/api/accountManagement/retention', { retentionDays: 0 })).status, 204);
      assert.deepEqual((await server.api.get('/v6/api/accountManagement/retention')).body, {
        retentionDays: 30, serverRetentionDays: 60, fixesKeptDays: 30, derivedKeptDays: 120,
      });
      assert.deepEqual((await kept.get('/v6/api/accountManagement/retention')).body, {
        retentionDays: 0, serverRetentionDays: 60, fixesKeptDays: 0, derivedKeptDays: 0,
      });
      assert.deepEqual((await defaulted.get('/v6/api/accountManagement/retention')).body, {
        retentionDays: null, serverRetentionDays: 60, fixesKeptDays: 60, derivedKeptDays: 240,
      });
      const listed = await operator.get('/admin/v1/accounts');
      assert.deepEqual(listed.body.map((a: { retentionDays: number | null }) => a.retentionDays), [30, 0, null]);
    });

    it('refuses a retention that is not a whole number of days, and changes nothing', async () => {
      for (const retentionDays of [-1, 1.5, '30', 36_501]) {
        const refused = await server.api.put('/v6/api/accountManagement/retention', { retentionDays });
        assert.equal(refused.status, 400, JSON.stringify(retentionDays));
        assert.equal((await operator.patch(`/admin/v1/accounts/${server.account.id}`, { retentionDays })).status, 400);
      }
      assert.equal((await operator.patch(`/admin/v1/accounts/${server.account.id}`, {})).body.retentionDays, 30, 'an empty change changes nothing');
      assert.equal((await server.api.get('/v6/api/accountManagement/retention')).body.retentionDays, 30);
    });

    it('removes exactly the fixes and derived rows past each account’s retention while fixes keep arriving', async () => {
      const cutA = NOW - 30 * DAY_MS;
      const cutC = NOW - 60 * DAY_MS;
      const keptA1 = (await count(a1)) - (await count(a1, cutA));
      const removedA = (await count(a1, cutA)) + (await count(a2));
      const allB1 = await count(b1);
      const removedC = await count(c1, cutC);
      const keptC1 = (await count(c1)) - removedC;
      const tracksOf = async (api: Client, subscriberId: number) =>
        (await api.get(`${BASE}/tracks?subscriberIDs=${subscriberId}&dateFrom=${iso(TODAY - 200 * DAY_MS)}&dateTo=${iso(TODAY - 1)}`)).body as { startDate: string }[];
      const tracksB = await tracksOf(kept, b1);

      const checkpointsBefore = async (subscriberIds: number[], beforeMs: number) =>
        Number((await server.database.db.selectFrom('pipeline_checkpoints').select((eb) => eb.fn.countAll<number>().as('n')).where('subscriber_id', 'in', subscriberIds).where('at_ms', '<', beforeMs).executeTakeFirstOrThrow()).n);
      // A1 and C1 drive up to yesterday: their batches pruned what lies 8 days before their newest
      // checkpoint. A2 stopped 33 days ago: it keeps the 8 days before that, past A's cut-off.
      const pastA1 = await checkpointsBefore([a1], cutA);
      const pastRest = (await checkpointsBefore([a2], cutA)) + (await checkpointsBefore([c1], cutC));
      assert.ok(pastRest > 0, 'A2 has checkpoints past its account’s retention');

      // Fixes of today keep arriving, a small batch at a time, for as long as the run lasts.
      let running = true;
      let posted = 0;
      const ingest = (async () => {
        for (let i = 0; running; i++) {
          const at = TODAY + 11 * 3_600_000 + i * 10_000;
          for (const [api, subscriberID] of [[server.api, a1], [kept, b1]] as const) {
            const answer = await api.post(LOCATIONS, [{ subscriberID, locationDate: iso(at), latitude: 55.7, longitude: 40 + i / 1000 }]);
            assert.equal(answer.status, 201);
          }
          posted += 1;
        }
      })();
      const report = await server.services.retention.runOnce();
      running = false;
      await ingest;
      assert.ok(posted > 0);

      assert.equal(await count(a1, cutA), 0, 'no fix of A older than 30 days');
      assert.equal(await count(a2), 0, 'A2 drove for the last time 33 days ago');
      assert.equal(await count(a1), keptA1 + posted, 'every newer fix of A kept, and every one that arrived meanwhile');
      assert.equal(await count(b1), allB1 + posted, 'B keeps everything');
      assert.equal(await count(c1, cutC), 0, 'C follows RETENTION_DAYS');
      assert.equal(await count(c1), keptC1);
      assert.equal(report.fixes.rows, removedA + removedC, 'the report counts what went');
      assert.ok(report.fixes.batches >= report.fixes.rows / BATCH_ROWS, `in batches of ${BATCH_ROWS} or so: ${JSON.stringify(report.fixes)}`);
      assert.deepEqual(report.partitionsDropped, [], 'B keeps everything: no week is older than every cut-off');
      assert.equal((await checkpointsBefore([a1, a2], cutA)) + (await checkpointsBefore([c1], cutC)), 0, 'no checkpoint a replay could start from before the cut-offs');
      // A1's batches meanwhile may prune its own old checkpoints; A2 and C1 get no fixes.
      assert.ok(report.checkpoints >= pastRest && report.checkpoints <= pastRest + pastA1, `the report counts the checkpoints removed: ${report.checkpoints} of ${pastRest} + ${pastA1}`);

      const tracksA = await tracksOf(server.api, a1);
      assert.equal(Date.parse(tracksA[0]!.startDate) >= NOW - 120 * DAY_MS, true, 'tracks of A kept for 4 × 30 days');
      assert.equal(Date.parse(tracksA[0]!.startDate) < NOW - 119 * DAY_MS, true);
      assert.deepEqual(await tracksOf(kept, b1), tracksB);
      assert.ok(report.tracks.rows >= 10 && report.events.rows >= 20 && report.buckets.rows > 0, JSON.stringify(report));
    });

    it('still answers tracks, events and statistics of a day whose fixes are gone; its fixes are no more', async () => {
      assert.deepEqual(await removedDayAnswers(), before45, 'tracks, events, interval 1 and 2 as before the removal');
      const fixes = await server.api.get(`${LOCATIONS}?subscriberIDs=${a1}&${removedDay}`);
      assert.deepEqual(fixes.body, []);
      const perFix = await server.api.get(`${BASE}/statistics?subscriberIDs=${a1}&interval=3&${removedDay}`);
      assert.deepEqual(perFix.body, { data: [] });
      const [track] = (before45.tracks as { trackID: number }[]);
      assert.deepEqual((await server.api.get(`${BASE}/tracks/${track!.trackID}/locations`)).body, []);
    });

    it('takes a late fix from before the removal without replaying over the gap', async () => {
      const tracksBefore = (await server.api.get(`${BASE}/tracks?subscriberIDs=${a2}&dateFrom=${iso(TODAY - 130 * DAY_MS)}&dateTo=${iso(NOW)}`)).body;
      assert.ok(tracksBefore.length >= 60);
      // A2's last fix was 33 days ago; this one is a day older, inside the 7-day replay horizon.
      const late = drivingDay(a2, TODAY - 34 * DAY_MS, 50).fixes.slice(0, 20);
      assert.equal((await server.api.post(LOCATIONS, late)).status, 201);
      const tracksAfter = (await server.api.get(`${BASE}/tracks?subscriberIDs=${a2}&dateFrom=${iso(TODAY - 130 * DAY_MS)}&dateTo=${iso(NOW)}`)).body;
      assert.deepEqual(tracksAfter, tracksBefore, 'the tracks derived before the removal stay as they were');
    });

    it('removes finished deliveries after 30 days with their attempts, and expired idempotency keys', async () => {
      const { db } = server.database;
      const delivery = (createdAt: number, status: 'pending' | 'delivered' | 'failed', accountId = server.account.id) =>
        db
          .insertInto('deliveries')
          .values({
            account_id: accountId, event_rule_id: null, channel: 'webhook', target: 'https://example.com/hook', message_id: `msg_${createdAt}_${status}`,
            payload: '{}', status, next_attempt_at: createdAt, created_at: createdAt, finished_at: status === 'pending' ? null : createdAt + 1000,
            last_status_code: null, last_error: null, locked_by: null, locked_until: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const old = await delivery(NOW - 31 * DAY_MS, 'delivered');
      const oldFailed = await delivery(NOW - 40 * DAY_MS, 'failed');
      const oldPending = await delivery(NOW - 40 * DAY_MS, 'pending');
      const recent = await delivery(NOW - 29 * DAY_MS, 'delivered');
      const otherAccount = await delivery(NOW - 31 * DAY_MS, 'delivered', accountKept);
      await db.insertInto('delivery_attempts').values({ delivery_id: old.id, account_id: server.account.id, attempted_at: NOW - 31 * DAY_MS, duration_ms: 5, status_code: 200, error: null }).execute();
      for (const [key, createdAt] of [['old', NOW - 25 * 3_600_000], ['fresh', NOW - 23 * 3_600_000]] as const) {
        await db.insertInto('idempotency_keys').values({ account_id: accountDefaulted, key, fingerprint: 'x', status_code: 201, response_body: '{}', response_headers: '{}', created_at: createdAt }).execute();
      }

      const report = await server.services.retention.runOnce();
      const deliveries = (await db.selectFrom('deliveries').select('id').orderBy('id').execute()).map((r) => r.id);
      assert.deepEqual(deliveries, [oldPending.id, recent.id], 'finished ones older than 30 days go, B’s too (deliveries keep 30 days whatever the fixes)');
      assert.equal((await db.selectFrom('delivery_attempts').select('id').where('delivery_id', '=', old.id).execute()).length, 0);
      assert.deepEqual((await db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key), ['fresh']);
      assert.equal(report.fixes.rows, 20, 'only the late fixes from before A’s retention, taken since the last run');
      assert.equal(report.deliveries.rows, 3);
      void oldFailed;
      void otherAccount;
    });

    it('removes zone visits that ended past 4 × R days with the tracks, in batches, and report sends after 31 days', async () => {
      const { db } = server.database;
      const cutA = NOW - 120 * DAY_MS;
      const visit = (accountId: number, subscriberId: number, zoneId: number, enteredMs: number, leftMs: number | null) => ({
        account_id: accountId, subscriber_id: subscriberId, zone_id: zoneId, zone_name: `Zone ${zoneId}`, entered_ms: enteredMs, left_ms: leftMs, latitude: 55.7, longitude: 37.6,
      });
      // More than two batches of A1's ended visits past A's 120 days, half an hour apart.
      const old = Array.from({ length: 2 * BATCH_ROWS + 50 }, (_, i) => visit(server.account.id, a1, 1, cutA - 10 * DAY_MS + i * 1_800_000, cutA - 10 * DAY_MS + i * 1_800_000 + 600_000));
      await db.insertInto('zone_visits').values(old).execute();
      const keptVisits = [
        visit(server.account.id, a1, 2, cutA - 5 * DAY_MS, cutA + 60_000), // began before the cut-off, ended after it
        visit(server.account.id, a1, 3, cutA - 5 * DAY_MS, null), // still inside
        visit(server.account.id, a2, 2, cutA + 3_600_000, cutA + 7_200_000),
        visit(accountKept, b1, 1, cutA - 10 * DAY_MS, cutA - 9 * DAY_MS), // B keeps everything
        visit(accountDefaulted, c1, 1, cutA - 10 * DAY_MS, cutA - 9 * DAY_MS), // C keeps 4 × 60 days
      ];
      await db.insertInto('zone_visits').values(keptVisits).execute();

      const run = (accountId: number, scheduleId: number, createdAt: number) => ({
        account_id: accountId, schedule_id: scheduleId, period_from_ms: createdAt - DAY_MS, period_to_ms: createdAt, created_at: createdAt,
      });
      await db.insertInto('report_runs').values([
        run(server.account.id, 1, NOW - 32 * DAY_MS),
        run(server.account.id, 1, NOW - 30.5 * DAY_MS), // past DELIVERY_RETENTION_DAYS (30), within 31: may still stop a second send
        run(server.account.id, 1, NOW - DAY_MS),
        run(accountKept, 2, NOW - 32 * DAY_MS), // report sends hold no positions: they go whatever the account keeps
        run(accountDefaulted, 3, NOW - 40 * DAY_MS),
      ]).execute();

      const report = await server.services.retention.runOnce();
      const visits = await db.selectFrom('zone_visits').select(['account_id', 'subscriber_id', 'zone_id', 'entered_ms', 'left_ms']).orderBy('id').execute();
      assert.deepEqual(
        visits.map((v) => [Number(v.account_id), Number(v.subscriber_id), Number(v.zone_id), Number(v.entered_ms), v.left_ms === null ? null : Number(v.left_ms)]),
        keptVisits.map((v) => [v.account_id, v.subscriber_id, v.zone_id, v.entered_ms, v.left_ms]),
        'every ended visit of A older than 120 days went, and nothing else',
      );
      assert.deepEqual(report.zoneVisits, { rows: old.length, batches: 3 }, `in batches of ${BATCH_ROWS}`);
      const runs = await db.selectFrom('report_runs').select(['account_id', 'created_at']).orderBy('id').execute();
      assert.deepEqual(runs.map((r) => [Number(r.account_id), Number(r.created_at)]), [[server.account.id, NOW - 30.5 * DAY_MS], [server.account.id, NOW - DAY_MS]]);
      assert.equal(report.reportRuns.rows, 3);
    });
  });
}
