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
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Database } from '../src/store/database.js';
import {
  Cleanup,
  FixGenerator,
  LOCATIONS,
  fmt,
  pause,
  postgresStore,
  ratio,
  sqliteStore,
  startServer,
  tempDir,
  wantsPostgres,
  type BenchServer,
} from './common.js';

const BATCH = 1000;
const EMPLOYEES = 100;
const WARMUP_BATCHES = 20;
/** Batches per turn: the server stores a chunk, then the reference stores the same rows. */
const CHUNK = 20;
const STEP_MS = 10_000;
const TARGET = 0.5;

function flagValue(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}

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

async function countRows(database: Database): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM locations`.execute(database.db);
  return Number(rows[0]!.n);
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
  const cleanup = new Cleanup();
  try {
    const dir = tempDir(cleanup);
    const onPostgres = wantsPostgres();
    let store = 'SQLite (WAL, synchronous=FULL)';
    let serverDb: Database;
    if (onPostgres) {
      const pg = await postgresStore(cleanup);
      serverDb = pg.database;
      store = `PostgreSQL (${pg.where})`;
    } else {
      serverDb = await sqliteStore(dir, 'server.db', cleanup);
    }
    const server = await startServer(serverDb, EMPLOYEES, cleanup);
    const plain = await reference(dir, serverDb, cleanup);

    // Every batch is posted once: warm-up, then one measured phase per concurrency. Dates
    // increase batch after batch, and the last one is still an hour in the past. The bodies are
    // serialized up front so that the client costs the server's event loop as little as possible.
    // The c=4 phase has four streams, each with its own quarter of the employees (sender s posts
    // bodies s, s+4, …), so every employee's fixes still arrive in time order.
    const total = WARMUP_BATCHES + 2 * measured;
    const rounds = (total * BATCH) / EMPLOYEES;
    const generator = new FixGenerator(server.employeeIds, Date.now() - rounds * STEP_MS - 3_600_000);
    const bodies = Array.from({ length: WARMUP_BATCHES + measured }, () => JSON.stringify(generator.batch(BATCH, STEP_MS)));
    const quarter = EMPLOYEES / 4;
    const streams = [0, 1, 2, 3].map((s) => new FixGenerator(server.employeeIds.slice(s * quarter, (s + 1) * quarter), generator.now));
    for (let i = 0; i < measured; i++) bodies.push(JSON.stringify(streams[i % 4]!.batch(BATCH, STEP_MS)));

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

    const refLabel = onPostgres ? 'plain SQLite insert (the reference stays SQLite)' : 'plain insert';
    const line = (name: string, r: { server: number; reference: number }) =>
      `${name} server ${fmt(r.server)} fixes/s · ${refLabel} ${fmt(r.reference)} fixes/s · ratio ${ratio(r.server, r.reference)}`;
    console.log(`ingest on ${store}: ${EMPLOYEES} employees, batches of ${BATCH}, ${WARMUP_BATCHES} warm-up + ${measured} measured batches per phase`);
    console.log(line('  c=1 ', c1));
    console.log(line('  c=4 ', c4));
    console.log(`  ${check}`);
    console.log(`${line('ingest:', c4)} (target ≥ ${TARGET}; c=4)`);
  } finally {
    await cleanup.run();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:ingest failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
