/**
 * Reports over a fleet: the summary and the trips of 500 vehicles over 31 days, in JSON (every page,
 * count=1000, as a client reads them) and as one XLSX download, against reading the same tracks
 * through route 3 (every page, lastTrackID paging) on the same app. Prints each median of `--runs`
 * (default 3) and its ratio to route 3; the targets are under 2 s for JSON and under 5 s
 * for XLSX on SQLite. Asserts nothing.
 *
 * The month is one delivery vehicle's (bench/vehicle.ts: a fix every 10 s, day and night, 267,840
 * fixes) stored through LocationService.ingestBatch, the server's own ingestion path; its derived
 * rows (tracks, vehicle events, statistics buckets, zone visits, pipeline state) are then copied in
 * SQL to the other 499 vehicles, which is what 500 such vehicles would have made, without storing
 * 134 million fixes. The reports read only derived rows, so they cannot tell.
 *
 *   npm run bench:reports                    # SQLite server
 *   npm run bench:reports -- --pg            # PostgreSQL server (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:reports -- --vehicles 100 --days 10 --runs 5
 *
 * Then the files' effect on other requests, over real HTTP: `/health` asked in a loop alone (the
 * reference) and while each big download streams (the trips of the period as CSV and as XLSX, and
 * the summary of a whole year, 366 days ending with the period, as CSV); printed: the longest
 * `/health` wait and the event loop's longest delay (target under 100 ms) and the growth of the
 * resident memory, each against the reference.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { LocationInput } from '../src/positioning/location-schema.js';
import type { Database } from '../src/store/database.js';
import { Cleanup, flagValue, fmt, iso, ratio, runBench, serverStore, startServer, tempDir, type BenchServer } from './common.js';
import { download, healthDuring, type StallFigures } from './health-stall.js';
import { DAY_MS, FIXES_PER_DAY, vehicleDays } from './vehicle.js';

/** October 2026, in the past, so no fix is refused as dated in the future. */
const MONTH_START_MS = Date.UTC(2026, 9, 1);
const BATCH = 2880;
const TRACKS = '/v6/api/globalPositioningManagement/tracks';
const JSON_TARGET_MS = 2000;
const XLSX_TARGET_MS = 5000;
const STALL_TARGET_MS = 100;

/** The derived tables and their columns, copied from the first vehicle to the others. */
const DERIVED: Record<string, string[]> = {
  tracks: ['account_id', 'start_ms', 'finish_ms', 'start_lat', 'start_lon', 'finish_lat', 'finish_lon', 'distance_m', 'is_open', 'start_address', 'finish_address', 'max_speed_kmh'],
  vehicle_events: ['account_id', 'type', 'event_ms', 'detail', 'latitude', 'longitude', 'value'],
  statistics_buckets: ['account_id', 'bucket_ms', 'first_fix_ms', 'last_fix_ms', 'fix_count', 'metrics_before', 'first_fuel', 'metrics_end'],
  zone_visits: ['account_id', 'zone_id', 'zone_name', 'entered_ms', 'left_ms', 'latitude', 'longitude'],
  pipeline_states: ['account_id', 'last_fix_ms', 'state'],
};

async function ingestMonth(server: BenchServer, subscriberId: number, days: number): Promise<void> {
  let batch: LocationInput[] = [];
  let stored = 0;
  for (const fix of vehicleDays(MONTH_START_MS, days)) {
    batch.push({ ...fix, subscriberID: subscriberId });
    if (batch.length === BATCH) {
      await server.services.positioning.ingestBatch(server.account, batch);
      stored += batch.length;
      batch = [];
      if (stored % (BATCH * 10) === 0) process.stderr.write(`  ingested ${fmt(stored)} / ${fmt(days * FIXES_PER_DAY)} fixes\n`);
    }
  }
  if (batch.length) await server.services.positioning.ingestBatch(server.account, batch);
}

/** The first vehicle's derived rows, once more for each other vehicle: one INSERT … SELECT per table. */
async function copyDerived(database: Database, from: number, to: number[]): Promise<void> {
  const ids = database.dialect === 'postgres' ? sql`(SELECT unnest(${to}::bigint[]) AS id)` : sql`(SELECT value AS id FROM json_each(${JSON.stringify(to)}))`;
  for (const [table, columns] of Object.entries(DERIVED)) {
    const list = sql.raw(columns.join(', '));
    const picked = sql.raw(columns.map((c) => `t.${c}`).join(', '));
    await sql`INSERT INTO ${sql.table(table)} (subscriber_id, ${list}) SELECT s.id, ${picked} FROM ${sql.table(table)} t CROSS JOIN ${ids} AS s WHERE t.subscriber_id = ${from}`.execute(database.db);
  }
}

async function count(database: Database, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(database.db);
  return Number(rows[0]!.n);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const vehicles = flagValue('--vehicles', 500);
  const days = flagValue('--days', 31);
  const runs = flagValue('--runs', 3);
  const cleanup = new Cleanup();
  try {
    const { database, store } = await serverStore(tempDir(cleanup), cleanup);
    const server = await startServer(database, vehicles, cleanup);
    const [first, ...others] = server.employeeIds as [number, ...number[]];
    // A zone round the depot, so the month has zone visits.
    const depot = { lat: 55.6512, lon: 37.4163 };
    const d = 0.004;
    const zone = await server.app.inject({
      method: 'POST',
      url: '/v6/api/zoneManagement/zones',
      headers: { authorization: `Bearer ${server.token}` },
      payload: {
        name: 'Depot',
        bounds: [
          { latitude: depot.lat - d, longitude: depot.lon - d },
          { latitude: depot.lat + d, longitude: depot.lon - d },
          { latitude: depot.lat + d, longitude: depot.lon + d },
          { latitude: depot.lat - d, longitude: depot.lon + d },
        ],
      },
    });
    if (zone.statusCode !== 201) throw new Error(`creating the depot zone failed: ${zone.statusCode} ${zone.body}`);
    process.stderr.write(`reports: one vehicle's ${days} days (${fmt(days * FIXES_PER_DAY)} fixes) through LocationService.ingestBatch…\n`);
    await ingestMonth(server, first, days);
    process.stderr.write(`reports: copying its derived rows to ${others.length} more vehicles…\n`);
    await copyDerived(database, first, others);
    if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db);
    const [tracks, buckets, events, visits] = (await Promise.all(['tracks', 'statistics_buckets', 'vehicle_events', 'zone_visits'].map((t) => count(database, t)))) as [number, number, number, number];

    const period = `dateFrom=${iso(MONTH_START_MS)}&dateTo=${iso(MONTH_START_MS + days * DAY_MS - 1000)}`;
    const headers = { authorization: `Bearer ${server.token}` };
    const get = async (url: string) => {
      const response = await server.app.inject({ method: 'GET', url, headers });
      if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      return response;
    };
    /** Every page of a report: the records it answered. */
    const reportPages = async (kind: string) => {
      let records = 0;
      for (let offset = 0; ; offset += 1000) {
        const body = JSON.parse((await get(`/v6/api/reports/${kind}?${period}&count=1000&offset=${offset}`)).body) as { data: { records: unknown[] }[] };
        const page = body.data.reduce((n, g) => n + g.records.length, 0);
        records += page;
        if (page < 1000) return records;
      }
    };
    const route3 = async () => {
      let read = 0;
      let last = 0;
      for (;;) {
        const page = JSON.parse((await get(`${TRACKS}?${period}&count=1000&lastTrackID=${last}`)).body) as { trackID: number }[];
        read += page.length;
        if (page.length < 1000) return read;
        last = page.at(-1)!.trackID;
      }
    };
    const xlsx = async (kind: string) => (await get(`/v6/api/reports/${kind}?${period}&format=xlsx`)).rawPayload.length;

    const cases: { name: string; run: () => Promise<number>; target: number | null; samples: number[]; size: number }[] = [
      { name: 'route 3: the same tracks, every page', run: route3, target: null, samples: [], size: 0 },
      { name: 'trips, JSON, every page', run: () => reportPages('trips'), target: JSON_TARGET_MS, samples: [], size: 0 },
      { name: 'summary, JSON, every page', run: () => reportPages('summary'), target: JSON_TARGET_MS, samples: [], size: 0 },
      { name: 'trips, XLSX', run: () => xlsx('trips'), target: XLSX_TARGET_MS, samples: [], size: 0 },
      { name: 'summary, XLSX', run: () => xlsx('summary'), target: XLSX_TARGET_MS, samples: [], size: 0 },
    ];
    for (const c of cases) c.size = await c.run(); // warm-up
    for (let round = 0; round < runs; round++) {
      for (const c of cases) {
        const started = performance.now();
        await c.run();
        c.samples.push(performance.now() - started);
      }
    }
    const reference = median(cases[0]!.samples);
    console.log(
      `reports on ${store}: ${vehicles} vehicles × ${days} days (${fmt(tracks)} tracks, ${fmt(buckets)} quarter-hour buckets, ${fmt(events)} vehicle events, ${fmt(visits)} zone visits); ` +
        `app.inject, median of ${runs} runs after one warm-up`,
    );
    for (const c of cases) {
      const ms = median(c.samples);
      const unit = c.name.includes('XLSX') ? `${fmt(c.size / 1024)} KiB` : `${fmt(c.size)} records`;
      const target = c.target === null ? '' : ` · target < ${c.target / 1000} s ${ms < c.target ? 'met' : 'MISSED'}`;
      console.log(`  ${c.name.padEnd(40)} ${fmt(ms).padStart(7)} ms (${unit}) · ratio to route 3 ${ratio(ms, reference)}${target}`);
    }
    await stalls(server, period, MONTH_START_MS + days * DAY_MS - 1000);
  } finally {
    await cleanup.run();
  }
}

/** `/health` alone, then during each big download over real HTTP: the longest wait and the memory grown. */
async function stalls(server: BenchServer, period: string, endMs: number): Promise<void> {
  const headers = { authorization: `Bearer ${server.token}` };
  const year = `dateFrom=${iso(endMs + 1000 - 366 * DAY_MS)}&dateTo=${iso(endMs)}`;
  const downloads = [
    { name: 'trips, CSV', url: `/v6/api/reports/trips?${period}&format=csv` },
    { name: 'trips, XLSX', url: `/v6/api/reports/trips?${period}&format=xlsx` },
    { name: 'summary, CSV, 366 days', url: `/v6/api/reports/summary?${year}&format=csv` },
  ];
  const figures: { name: string; f: StallFigures }[] = [];
  for (const d of downloads) figures.push({ name: d.name, f: await healthDuring(server.baseUrl, () => download(`${server.baseUrl}${d.url}`, headers)) });
  const longestRun = Math.max(...figures.map((x) => x.f.durationMs));
  const alone = await healthDuring(server.baseUrl, null, Math.max(1000, longestRun));
  console.log('/health over real HTTP, asked in a loop: alone, and while each download streams (target: no wait over 100 ms)');
  const line = (name: string, f: StallFigures) => {
    const what = f.size ? `${fmt(f.size / 1024)} KiB in ${fmt(f.durationMs)} ms` : `${fmt(f.durationMs)} ms`;
    const met = f.longestMs < STALL_TARGET_MS ? 'met' : 'MISSED';
    console.log(
      `  ${name.padEnd(28)} ${what.padEnd(28)} ${fmt(f.requests).padStart(6)} requests · longest ${f.longestMs.toFixed(1)} ms (p99 ${f.p99Ms.toFixed(1)}, ` +
        `loop delay max ${f.loopDelayMaxMs.toFixed(1)}) · RSS +${f.rssGrowthMiB.toFixed(1)} MiB · ${met}`,
    );
  };
  line('alone (reference)', alone);
  for (const { name, f } of figures) line(name, f);
}

runBench('reports', main);
