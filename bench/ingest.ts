/**
 * Ingestion throughput: the real server taking batches of 1000 fixes on
 * POST /v6/api/globalPositioningManagement/locations over loopback, against the floor of what
 * storing those rows costs: a plain better-sqlite3 prepared INSERT of the very rows the server
 * stored (every column but the id, read back from the server's database after each chunk) into
 * the same table (schema from the project's migrations, pragmas from openDatabase), 1000 rows
 * per transaction. Prints fixes/s for both and their ratio; asserts nothing.
 *
 *   npm run bench:ingest                     # SQLite server
 *   npm run bench:ingest -- --pg             # PostgreSQL server (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:ingest -- --batches 400    # more measured batches per phase (default 200)
 *   npm run bench:ingest -- --rules          # with 50 active rules of each signal kind (target ≥ 0.3)
 *
 * `--rules` creates, through the API and before anything is measured, 50 enabled rules of each
 * signal kind of interface 6.3 for every employee (400 in all, each sending to a webhook), the
 * 50 zones and 5 zone groups the zone rules watch, and two open tasks per employee for the
 * estimated-arrival rules; the fixes then also carry external power and two sensors, so every
 * detector has work. The outbox rows the rules write are counted and printed per fix.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Database } from '../src/store/database.js';
import {
  Cleanup,
  FixGenerator,
  LOCATIONS,
  flagValue,
  fmt,
  pause,
  random,
  ratio,
  runBench,
  serverStore,
  sqliteStore,
  startServer,
  tempDir,
  type BenchServer,
} from './common.js';
import type { LocationInput } from '../src/positioning/location-schema.js';

const BATCH = 1000;
const EMPLOYEES = 100;
const WARMUP_BATCHES = 20;
/** Batches per turn: the server stores a chunk, then the reference stores the same rows. */
const CHUNK = 20;
const STEP_MS = 10_000;
const TARGET = 0.4;
const TARGET_WITH_RULES = 0.3;
const RULES_PER_KIND = 50;
const HOOK = 'https://hooks.example.com/lokator';

/**
 * Posts bodies[from..to) with `concurrency` requests in flight; returns the elapsed milliseconds.
 * Sender s posts every concurrency-th body from from+s on, one after another, as a gateway that
 * owns its trackers would: each tracker's fixes arrive in order (late fixes are another bench).
 */
async function postBatches(server: BenchServer, bodies: string[], from: number, to: number, concurrency: number): Promise<number> {
  const url = `${server.baseUrl}${LOCATIONS}`;
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  const started = performance.now();
  const sender = async (stream: number) => {
    for (let index = from + stream; index < to; index += concurrency) {
      const response = await fetch(url, { method: 'POST', headers, body: bodies[index] });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`batch ${index}: ${response.status} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, stream) => sender(stream)));
  return performance.now() - started;
}

async function countRows(database: Database, table: 'locations' | 'deliveries' = 'locations'): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(database.db);
  return Number(rows[0]!.n);
}

async function apiPost(server: BenchServer, path: string, body: unknown): Promise<{ [key: string]: unknown }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { [key: string]: unknown };
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * 50 rules of each signal kind, every one for every employee (so every fix goes through all
 * 400), with parameters a coordinator might set and that differ from rule to rule: speeding
 * above 90-139 km/h for 30 s to 5 min, zones by id or by group, stops of 5-54 min, loading and
 * sensor control on sensors 0-4, arrival 5-34 min ahead. Also the zones and groups the zone
 * rules watch (a 10 x 5 grid of 2 km squares over the generator's area) and two open tasks per
 * employee somewhere in that area.
 */
async function createRules(server: BenchServer): Promise<void> {
  const groups: number[] = [];
  for (let g = 0; g < 5; g++) groups.push((await apiPost(server, '/v6/api/zoneManagement/zoneGroups', { name: `Area ${g}` })).zoneGroupID as number);
  const zones: number[] = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 10; col++) {
      const lat = 55.62 + row * 0.06;
      const lon = 37.4 + col * 0.05;
      const [dLat, dLon] = [0.009, 0.016];
      const bounds = [[lon - dLon, lat - dLat], [lon + dLon, lat - dLat], [lon + dLon, lat + dLat], [lon - dLon, lat + dLat]].map(([longitude, latitude]) => ({ latitude, longitude }));
      zones.push((await apiPost(server, '/v6/api/zoneManagement/zones', { name: `Zone ${row}-${col}`, zoneGroupID: groups[row], bounds })).zoneID as number);
    }
  }
  const parameters: Record<number, (i: number) => object> = {
    1: (i) => ({ speedLimit: 90 + i, minDurationSeconds: 30 + (i % 10) * 30 }),
    2: (i) => (i % 2 === 0 ? { zoneIDs: [zones[i]!, zones[(i + 7) % zones.length]!], on: 'both' } : { zoneGroupIDs: [groups[i % groups.length]!], on: ['entry', 'exit', 'both'][i % 3] }),
    3: (i) => ({ minStopMinutes: 5 + i }),
    7: () => ({}),
    9: (i) => ({ sensorID: i % 5 }),
    10: (i) => ({ sensorID: i % 5, min: -20 + (i % 7), max: 60 + i }),
    11: () => ({}),
    24: (i) => ({ minutesBefore: 5 + (i % 30) }),
  };
  for (const [kind, parametersOf] of Object.entries(parameters)) {
    for (let i = 0; i < RULES_PER_KIND; i++) {
      await apiPost(server, '/v6/api/eventManagement/events', { name: `Rule ${kind}.${i}`, kind: Number(kind), parameters: parametersOf(i), sendToApi: true, apiUrl: HOOK });
    }
  }
  const rand = random(7);
  const startDate = new Date().toISOString();
  for (const subscriberID of server.employeeIds) {
    for (let t = 0; t < 2; t++) {
      const latitude = 55.75 + (rand() - 0.5) * 0.3;
      const longitude = 37.62 + (rand() - 0.5) * 0.5;
      await apiPost(server, '/v6/api/taskManagement/tasks', { title: `Visit ${t}`, startDate, subscriberID, latitude, longitude, clientName: 'Client', clientPhone: '79000000000' });
    }
  }
}

/**
 * Readings for the power, loading and sensor rules, every fix: external power cut for a minute
 * about every three hours, a loading sensor (0) that reads non-zero for half a minute every half
 * hour, and a temperature (1) swinging between -10 and 70 over about half an hour.
 */
function withReadings(fixes: LocationInput[]): LocationInput[] {
  return fixes.map((fix) => {
    const round = Math.floor(Date.parse(fix.locationDate) / STEP_MS) + fix.subscriberID * 13;
    return {
      ...fix,
      externalPower: round % 1000 >= 6,
      sensors: [
        { sensorID: 0, value: round % 180 < 3 ? 7 : 0 },
        { sensorID: 1, value: Math.round(300 + 400 * Math.sin(round / 30)) / 10 },
      ],
    };
  });
}

/**
 * The reference: a fresh SQLite file migrated like the server's, and one prepared INSERT of every
 * column of `locations` but the id. `replay` copies the rows the server stored since the last call
 * and inserts them BATCH rows per transaction, timing only the transactions. It reads back one
 * batch at a time so that its garbage stays small and short-lived (and does not slow the server's
 * next turn through the garbage collector).
 */
async function reference(dir: string, server: Database, cleanup: Cleanup) {
  const database = await sqliteStore(dir, 'reference.db', cleanup);
  const sqlite = database.sqlite!;
  const columns = (sqlite.pragma('table_info(locations)') as { name: string }[]).map((c) => c.name).filter((c) => c !== 'id');
  const insert = sqlite.prepare(`INSERT INTO locations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  const insertBatch = sqlite.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(row);
  });
  // Rows as arrays in column order with the id last: `pop()` takes it off before the insert.
  const select = `SELECT ${columns.join(', ')}, id FROM locations WHERE id > ? ORDER BY id LIMIT ${BATCH}`;
  const fromSqlite = server.sqlite?.prepare(select).raw(true);
  const readBatch = async (afterId: number): Promise<unknown[][]> => {
    if (fromSqlite) return fromSqlite.all(afterId) as unknown[][];
    const { rows } = await sql<Record<string, unknown>>`${sql.raw(select.replace('?', String(afterId)))}`.execute(server.db);
    return rows.map((row) => [...columns.map((c) => row[c] ?? null), row.id]);
  };
  let lastId = 0;
  return {
    database,
    async replay(): Promise<{ ms: number; rows: number }> {
      let [ms, count] = [0, 0];
      for (;;) {
        const rows = await readBatch(lastId);
        if (rows.length === 0) return { ms, rows: count };
        for (const row of rows) lastId = Number(row.pop());
        const started = performance.now();
        insertBatch(rows);
        ms += performance.now() - started;
        count += rows.length;
      }
    },
  };
}

async function main(): Promise<void> {
  const measured = flagValue('--batches', 200);
  const withRules = process.argv.includes('--rules');
  const cleanup = new Cleanup();
  try {
    const dir = tempDir(cleanup);
    const { database: serverDb, store } = await serverStore(dir, cleanup);
    const server = await startServer(serverDb, EMPLOYEES, cleanup);
    if (withRules) await createRules(server);
    const plain = await reference(dir, serverDb, cleanup);

    // Every batch is posted once: warm-up, then one measured phase per concurrency. Dates
    // increase batch after batch, and the last one is still an hour in the past. The bodies are
    // serialized up front so that the client costs the server's event loop as little as possible.
    // The c=4 phase has four streams, each with its own quarter of the employees (sender s posts
    // bodies s, s+4, …), so every employee's fixes still arrive in time order.
    const total = WARMUP_BATCHES + 2 * measured;
    const rounds = (total * BATCH) / EMPLOYEES;
    const generator = new FixGenerator(server.employeeIds, Date.now() - rounds * STEP_MS - 3_600_000);
    const readings = withRules ? withReadings : (fixes: LocationInput[]) => fixes;
    const bodies = Array.from({ length: WARMUP_BATCHES + measured }, () => JSON.stringify(readings(generator.batch(BATCH, STEP_MS))));
    const quarter = EMPLOYEES / 4;
    const streams = [0, 1, 2, 3].map((s) => new FixGenerator(server.employeeIds.slice(s * quarter, (s + 1) * quarter), generator.now));
    for (let i = 0; i < measured; i++) bodies.push(JSON.stringify(readings(streams[i % 4]!.batch(BATCH, STEP_MS))));

    // Warm both up (JIT, page cache, connection pool). Then the server and the reference take
    // turns chunk by chunk, so that the drift of a noisy machine hits both alike and both tables
    // hold the same rows whenever either writes.
    await postBatches(server, bodies, 0, WARMUP_BATCHES, 4);
    await plain.replay();
    await pause();

    const phase = async (from: number, concurrency: number) => {
      let [serverMs, referenceMs, rows] = [0, 0, 0];
      for (let start = from; start < from + measured; start += CHUNK) {
        serverMs += await postBatches(server, bodies, start, Math.min(start + CHUNK, from + measured), concurrency);
        const replayed = await plain.replay();
        referenceMs += replayed.ms;
        rows += replayed.rows;
      }
      const fixes = measured * BATCH;
      if (rows !== fixes) throw new Error(`the server stored ${rows} rows for ${fixes} fixes`);
      return { server: fixes / (serverMs / 1000), reference: fixes / (referenceMs / 1000) };
    };
    const c1 = await phase(WARMUP_BATCHES, 1);
    await pause();
    const c4 = await phase(WARMUP_BATCHES + measured, 4);

    const [stored, copied] = [await countRows(serverDb), await countRows(plain.database)];
    const check =
      stored === total * BATCH && copied === stored
        ? `check: the server stored all ${fmt(stored)} fixes; the reference inserted the same rows`
        : `check: MISMATCH, ${fmt(total * BATCH)} fixes posted, ${fmt(stored)} stored by the server, ${fmt(copied)} by the reference`;

    const refLabel = serverDb.dialect === 'postgres' ? 'plain SQLite insert, synchronous=FULL (the reference stays SQLite)' : 'plain prepared insert, synchronous=FULL';
    const line = (name: string, r: { server: number; reference: number }) =>
      `${name} server ${fmt(r.server)} fixes/s · ${refLabel} ${fmt(r.reference)} fixes/s · ratio ${ratio(r.server, r.reference)}`;
    const rules = withRules ? `, ${8 * RULES_PER_KIND} signal rules (${RULES_PER_KIND} of each kind)` : ', no signal rules';
    console.log(`ingest on ${store}: ${EMPLOYEES} employees${rules}, batches of ${BATCH}, ${WARMUP_BATCHES} warm-up + ${measured} measured batches per phase`);
    console.log(line('  c=1 ', c1));
    console.log(line('  c=4 ', c4));
    console.log(`  ${check}`);
    if (withRules) {
      const signals = await countRows(serverDb, 'deliveries');
      const { rows: byKind } = await sql<{ kind: string; n: number | string }>`
        SELECT r.kind, count(*) AS n FROM deliveries d JOIN event_rules r ON r.id = d.event_rule_id GROUP BY r.kind ORDER BY count(*) DESC`.execute(serverDb.db);
      const kinds = byKind.map((r) => `${r.kind}: ${fmt(Number(r.n))}`).join(', ');
      console.log(`  signals: ${fmt(signals)} outbox rows written in the ingest transactions (${(signals / stored).toFixed(3)} per fix; by kind ${kinds})`);
    }
    const name = withRules ? 'ingest with rules:' : 'ingest:';
    console.log(`${line(name, c4)} (target ≥ ${withRules ? TARGET_WITH_RULES : TARGET}; c=4)`);
  } finally {
    await cleanup.run();
  }
}

runBench('bench:ingest', main);
