/**
 * Flat latency as the store grows: 1,000 vehicles' fixes loaded straight into the store
 * through the pipeline up to each size (default 1, 10 and 30 million), and at each size, over
 * HTTP on loopback: p50/p99 of reads that return the same rows at every size, the rate of
 * ingestion through the API, and the database's size on disk. Prints each read's p99 at the
 * largest size against the smallest (target ≤ 1.5) and ingestion's rate likewise (target ≥ 0.8).
 *
 *   npm run bench:growth                          # SQLite, 1, 10 and 30 M fixes
 *   npm run bench:growth -- --pg                  # PostgreSQL (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:growth -- --sizes 1,10 --reads 400
 */
import { sql } from 'kysely';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database } from '../src/store/database.js';
import { weekStartMs, WEEK_MS } from '../src/store/weeks.js';
import { Cleanup, flagValue, fmt, iso, LOCATIONS, percentile, runBench, serverStore, startServer, tempDir, type BenchServer } from './common.js';
import { FLEET_DAYS, FleetLoader, toInput } from './growth-fleet.js';
import { DAY_MS } from './vehicle.js';

const VEHICLES = 1000;
const MEASURED = 5;
const MONTH_DAYS = 28;
const ZONES = 200;
const PROBE_FIXES = 40_000;
const PROBE_BATCH = 1000;
const PROBE_IN_FLIGHT = 4;
const READ_P99_TARGET = 1.5;
const INGEST_TARGET = 0.8;
const BASE = '/v6/api/globalPositioningManagement';

interface Measured {
  millions: number;
  fixes: number;
  reads: Map<string, { p50: number; p99: number; rows: number }>;
  ingestPerSecond: number;
  /** The process's CPU time (server and client) per 1000 fixes of the ingestion probe: steadier than the rate on a shared machine. */
  ingestCpuMs: number;
  loadPerSecond: number;
  bytes: number;
}

function sizesFlag(): number[] {
  const index = process.argv.indexOf('--sizes');
  const raw = index >= 0 ? process.argv[index + 1] ?? '' : '1,10,30';
  const sizes = raw.split(',').map(Number);
  if (sizes.some((s) => !(s > 0))) throw new Error('--sizes needs a comma list of millions, e.g. 1,10,30');
  return sizes.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const sizes = sizesFlag();
  const reads = flagValue('--reads', 400);
  // --keep: leave the SQLite file behind (and print where), to look into a size's plans afterwards.
  const keep = process.argv.includes('--keep');
  const cleanup = new Cleanup();
  const started = performance.now();
  try {
    const dir = tempDir(cleanup);
    const { database, store } = await serverStore(dir, cleanup);
    // The month lies weeks ahead of today: on PostgreSQL its fixes fill weekly partitions, as a
    // server's do (the history partition below them holds what predates the installation).
    const monthStart = weekStartMs(Date.now()) + 2 * WEEK_MS;
    // The server's clock: past every day the fleet may drive, so that ingestion takes them all.
    const now = monthStart + FLEET_DAYS * DAY_MS;
    const server = await startServer(database, VEHICLES, cleanup, () => now);
    await makeZones(server);
    const loader = new FleetLoader(database, server, monthStart, MONTH_DAYS, MEASURED);
    process.stdout.write(`bench:growth on ${store}: ${VEHICLES} vehicles, sizes ${sizes.join(', ')} M fixes, ${reads} of each read\n`);

    let loadMs = performance.now();
    await loader.loadMeasured();
    process.stdout.write(`  ${MEASURED} measured vehicles' month: ${fmt(loader.stored)} fixes (${fmt(loader.stored / MEASURED / MONTH_DAYS)} a vehicle-day)\n`);
    const results: Measured[] = [];
    for (const millions of sizes) {
      const target = millions * 1_000_000 - PROBE_FIXES;
      const from = loader.stored;
      loadMs = performance.now();
      await loader.loadRestUntil(target, (stored) => process.stdout.write(`  … ${fmt(stored)} fixes (${((performance.now() - started) / 60_000).toFixed(1)} min)\n`));
      const loadPerSecond = ((loader.stored - from) / (performance.now() - loadMs)) * 1000;
      if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db);
      const measured = await measure(server, loader, monthStart, reads);
      const { perSecond: ingestPerSecond, cpuMsPer1000: ingestCpuMs } = await probeIngest(server, loader);
      const bytes = await sizeOnDisk(database, dir);
      results.push({ millions, fixes: loader.stored, reads: measured, ingestPerSecond, ingestCpuMs, loadPerSecond, bytes });
      report(results.at(-1)!);
    }
    summarise(results);
    process.stdout.write(`\nwhole run: ${((performance.now() - started) / 60_000).toFixed(1)} min\n`);
    if (keep) {
      await database.close();
      process.stdout.write(`kept: ${database.dialect === 'sqlite' ? join(dir, 'server.db') : 'the PostgreSQL database'} (account ${server.account.id}, token ${server.token})\n`);
      process.exit(0);
    }
  } finally {
    await cleanup.run();
  }
}

/** Squares of 500 m - 3 km around Moscow, for the zone lookups (and track addresses). */
async function makeZones(server: BenchServer): Promise<void> {
  for (let i = 0; i < ZONES; i++) {
    const lat = 55.55 + ((i * 7919) % 1000) / 2500;
    const lon = 37.3 + ((i * 104_729) % 1000) / 1600;
    const half = 0.003 + (i % 10) * 0.0015;
    const bounds = [[-1, -1], [-1, 1], [1, 1], [1, -1]].map(([a, b]) => ({ latitude: lat + a! * half, longitude: lon + b! * half * 1.7 }));
    const answer = await post(server, '/v6/api/zoneManagement/zones', { name: `Zone ${i}`, bounds });
    if (answer.status !== 201) throw new Error(`creating a zone failed: ${answer.status}`);
  }
}

const post = (server: BenchServer, path: string, body: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The reads, each `count` times, one at a time: p50/p99 in ms and the rows the first one returned. */
async function measure(server: BenchServer, loader: FleetLoader, monthStart: number, count: number): Promise<Measured['reads']> {
  const vehicles = loader.measured.map((v) => v.subscriberId);
  const monthEnd = monthStart + MONTH_DAYS * DAY_MS - 1;
  const month = `dateFrom=${iso(monthStart)}&dateTo=${iso(monthEnd)}`;
  const day = (i: number) => {
    const from = monthStart + (i % MONTH_DAYS) * DAY_MS;
    return `dateFrom=${iso(from)}&dateTo=${iso(from + DAY_MS - 1)}`;
  };
  const vehicle = (i: number) => vehicles[i % vehicles.length];
  const paths: [string, (i: number) => string][] = [
    ['locations: one vehicle-day, count 1000', (i) => `${LOCATIONS}?subscriberIDs=${vehicle(i)}&count=1000&${day(i)}`],
    ['locations: the account’s newest 1000', () => `${LOCATIONS}?count=1000&dateFrom=${iso(monthStart)}&dateTo=${iso(monthStart + FLEET_DAYS * DAY_MS)}`],
    ['tracks: one vehicle-day', (i) => `${BASE}/tracks?subscriberIDs=${vehicle(i)}&${day(i)}`],
    ['statistics interval 1: a month', () => `${BASE}/statistics?interval=1&subscriberIDs=${vehicles.join(',')}&${month}`],
    ['statistics interval 2: a month', (i) => `${BASE}/statistics?interval=2&subscriberIDs=${vehicle(i)}&${month}`],
    ['zones: lookup of a point', (i) => `/v6/api/zoneManagement/zones/mapObjectCoordinates?latitude=${55.6 + (i % 40) / 100}&longitude=${37.4 + (i % 30) / 60}`],
  ];
  const results: Measured['reads'] = new Map();
  for (const [name, path] of paths) {
    const times: number[] = [];
    let rows = 0;
    for (let i = -5; i < count; i++) {
      const begun = performance.now();
      const response = await fetch(`${server.baseUrl}${path(Math.max(i, 0))}`, { headers: { authorization: `Bearer ${server.token}` } });
      const text = await response.text();
      const tookMs = performance.now() - begun;
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${text.slice(0, 200)}`);
      if (i === 0) rows = rowsOf(JSON.parse(text));
      if (i >= 0) times.push(tookMs);
    }
    times.sort((a, b) => a - b);
    results.set(name, { p50: percentile(times, 0.5), p99: percentile(times, 0.99), rows });
  }
  return results;
}

/** Records in an answer: a plain array, or {data: [{statistics: [...]}]}, or {zones: [...]}. */
function rowsOf(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  const { data, zones } = body as { data?: { statistics: unknown[] }[]; zones?: unknown[] };
  if (zones) return zones.length;
  return (data ?? []).reduce((sum, group) => sum + group.statistics.length, 0);
}

/** Fixes per second through POST …/locations, batches of 1000, PROBE_IN_FLIGHT at once, and the CPU time they cost. */
async function probeIngest(server: BenchServer, loader: FleetLoader): Promise<{ perSecond: number; cpuMsPer1000: number }> {
  const bodies = loader.nextBatches(PROBE_FIXES, PROBE_BATCH).map((batch) => JSON.stringify(batch.map(toInput)));
  const fixes = bodies.reduce((sum, body) => sum + (body.match(/"subscriberID"/g)?.length ?? 0), 0);
  let next = 0;
  const begun = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: PROBE_IN_FLIGHT }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const response = await fetch(`${server.baseUrl}${LOCATIONS}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
          body,
        });
        if (response.status !== 201) throw new Error(`ingestion: ${response.status} ${(await response.text()).slice(0, 200)}`);
        await response.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - begun) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  loader.stored += fixes;
  return { perSecond: fixes / seconds, cpuMsPer1000: (cpu.user + cpu.system) / 1000 / (fixes / 1000) };
}

async function sizeOnDisk(database: Database, dir: string): Promise<number> {
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ bytes: string }>`SELECT pg_database_size(current_database())::text AS bytes`.execute(database.db);
    return Number(rows[0]!.bytes);
  }
  database.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
  const file = (name: string) => {
    try {
      return statSync(join(dir, name)).size;
    } catch {
      return 0;
    }
  };
  return file('server.db') + file('server.db-wal');
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : fmt(value));

function report(m: Measured): void {
  process.stdout.write(`\n${m.millions} M (${fmt(m.fixes)} fixes): load ${fmt(m.loadPerSecond)} fixes/s, ingestion over HTTP ${fmt(m.ingestPerSecond)} fixes/s (${m.ingestCpuMs.toFixed(1)} ms of CPU per 1000), ` +
    `${(m.bytes / 2 ** 20).toFixed(0)} MiB on disk (${((m.bytes / 2 ** 20) / (m.fixes / 1e6)).toFixed(0)} MiB per million fixes)\n`);
  for (const [name, r] of m.reads) process.stdout.write(`  ${name.padEnd(42)} p50 ${ms(r.p50).padStart(6)} ms   p99 ${ms(r.p99).padStart(6)} ms   ${r.rows} rows\n`);
}

function summarise(results: Measured[]): void {
  if (results.length < 2) return;
  const small = results[0]!;
  const large = results.at(-1)!;
  process.stdout.write(`\n${large.millions} M against ${small.millions} M:\n`);
  for (const [name, r] of large.reads) {
    const ratio = r.p99 / small.reads.get(name)!.p99;
    process.stdout.write(`  ${name.padEnd(42)} p99 ratio ${ratio.toFixed(2)}  (target ≤ ${READ_P99_TARGET}: ${ratio <= READ_P99_TARGET ? 'met' : 'MISSED'})\n`);
  }
  const ingest = large.ingestPerSecond / small.ingestPerSecond;
  process.stdout.write(`  ${'ingestion over HTTP'.padEnd(42)} rate ratio ${ingest.toFixed(2)}  (target ≥ ${INGEST_TARGET}: ${ingest >= INGEST_TARGET ? 'met' : 'MISSED'})\n`);
  const cpu = small.ingestCpuMs / large.ingestCpuMs;
  process.stdout.write(`  ${'ingestion, by its CPU time per fix'.padEnd(42)} rate ratio ${cpu.toFixed(2)}  (target ≥ ${INGEST_TARGET}: ${cpu >= INGEST_TARGET ? 'met' : 'MISSED'})\n`);
}

runBench('bench:growth', main);
