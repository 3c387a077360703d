/**
 * Read throughput: autocannon against GET /v6/api/globalPositioningManagement/locations?count=1000
 * on the real server holding 100,000 fixes of 100 employees, then against a bare Fastify route
 * (no auth, no hooks, no database) answering the same 1000 objects with the same response schema,
 * so both pay the same serialization and HTTP cost. Prints req/s for both and their ratio.
 *
 *   npm run bench:read                       # SQLite server
 *   npm run bench:read -- --pg               # PostgreSQL server (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:read -- --duration 20 --connections 10
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AddressInfo } from 'node:net';
import { Type } from 'typebox';
import { Location } from '../src/positioning/location-schema.js';
import { Cleanup, FixGenerator, LOCATIONS, flagValue, fmt, pause, ratio, runBench, serverStore, startServer, tempDir } from './common.js';

const EMPLOYEES = 100;
const FIXES = 100_000;
const BATCH = 1000;
const STEP_MS = 60_000;
const COUNT = 1000;
const WARMUP_SECONDS = 2;
const TARGET = 0.6;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  problems: string | null;
}

/**
 * `connections` connections for `duration` seconds. The load generator runs in a worker thread
 * (autocannon's `workers: 1`), so on a small machine it does not take turns with the server on
 * the same event loop: the server under test has the main thread to itself.
 */
async function load(url: string, headers: Record<string, string>, duration: number, connections: number): Promise<Load> {
  const result = await autocannon({ url, headers, duration, connections, workers: 1 });
  const ok = result['2xx'];
  const problems =
    result.non2xx || result.errors || result.timeouts
      ? `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`
      : null;
  return { rps: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99, problems };
}

/** Runs of equal length as one: their mean throughput, and the worse of their latency percentiles. */
function combine(runs: Load[]): Load {
  const problems = runs.map((r) => r.problems).filter((p) => p !== null);
  return {
    rps: runs.reduce((sum, r) => sum + r.rps, 0) / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    problems: problems.length ? problems.join('; ') : null,
  };
}

async function main(): Promise<void> {
  const duration = flagValue('--duration', 10);
  const connections = flagValue('--connections', 10);
  const cleanup = new Cleanup();
  try {
    const { database, store } = await serverStore(tempDir(cleanup), cleanup);
    const server = await startServer(database, EMPLOYEES, cleanup);

    // 100,000 fixes through the service (the server's own ingestion path, without HTTP): one per
    // employee per minute over the last ~17 hours.
    const rounds = FIXES / EMPLOYEES;
    const startMs = Date.now() - (rounds + 60) * STEP_MS;
    const generator = new FixGenerator(server.employeeIds, startMs);
    for (let stored = 0; stored < FIXES; stored += BATCH) {
      await server.services.positioning.ingestBatch(server.account, generator.batch(BATCH, STEP_MS));
    }
    // A long-running PostgreSQL has statistics (autovacuum analyzes within a minute or so); a
    // freshly loaded one has none, and then plans this query over the wrong index (see README).
    if (database.dialect === 'postgres') await sql`ANALYZE locations`.execute(database.db);

    const dateFrom = new Date(startMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const path = `${LOCATIONS}?count=${COUNT}&dateFrom=${dateFrom}`;
    const headers = { authorization: `Bearer ${server.token}` };
    const first = await fetch(`${server.baseUrl}${path}`, { headers });
    const apiText = await first.text();
    const locations = JSON.parse(apiText) as Location[];
    if (first.status !== 200 || locations.length !== COUNT) {
      throw new Error(`GET ${path}: ${first.status}, ${Array.isArray(locations) ? locations.length : 'no'} locations`);
    }

    // The reference: what any Fastify server pays to answer these 1000 objects on this path.
    const bare = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
    bare.get(LOCATIONS, { schema: { response: { 200: Type.Array(Location) } } }, async () => locations);
    cleanup.add(() => bare.close());
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}${path}`;
    const bareFirst = await fetch(bareUrl);
    const sameBytes = (await bareFirst.text()) === apiText;

    // Warm-up, then two alternating halves per side, so that drift of a noisy machine hits both.
    const serverUrl = `${server.baseUrl}${path}`;
    await load(serverUrl, headers, WARMUP_SECONDS, connections);
    await load(bareUrl, {}, WARMUP_SECONDS, connections);
    const halves: [Load[], Load[]] = [[], []];
    for (let round = 0; round < 2; round++) {
      await pause();
      halves[0].push(await load(serverUrl, headers, duration / 2, connections));
      await pause();
      halves[1].push(await load(bareUrl, {}, duration / 2, connections));
    }
    const [api, reference] = halves.map(combine) as [Load, Load];

    const analyzed = database.dialect === 'postgres' ? ', ANALYZE after loading' : '';
    console.log(
      `read on ${store}${analyzed}: ${fmt(FIXES)} fixes of ${EMPLOYEES} employees, GET …/locations?count=${COUNT}, ` +
        `${connections} connections, ${duration} s per side in two alternating halves after ${WARMUP_SECONDS} s warm-up each`,
    );
    const line = (name: string, l: Load) =>
      `  ${name} ${fmt(l.rps)} req/s · latency p50 ${l.p50} ms, p99 ${l.p99} ms${l.problems ? ` · ${l.problems}` : ''}`;
    console.log(line('server   ', api));
    console.log(line('bare route', reference));
    console.log(`  check: ${sameBytes ? 'the bare route answers the same bytes as the API' : 'MISMATCH: the bare route answers other bytes'}`);
    console.log(`read: server ${fmt(api.rps)} req/s · bare route ${fmt(reference.rps)} req/s · ratio ${ratio(api.rps, reference.rps)} (target ≥ ${TARGET})`);
  } finally {
    await cleanup.run();
  }
}

runBench('bench:read', main);
