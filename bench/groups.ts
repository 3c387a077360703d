/**
 * What the ingest queue's group commit costs the main thread, without HTTP or a client in the
 * way: N devices (default 2,000), each an employee with its own device key, send single fixes;
 * each round submits one fix from each of G distinct devices at once, which the queue takes into
 * one transaction (as it takes the OsmAnd listener's requests that arrive during a commit). For
 * G = 1 and G = 25 (about what 64 connections give on SQLite) it prints the main thread's CPU time
 * per fix (`process.threadCpuUsage`: the machine's other load moves it far less than it moves a
 * rate), and from the two the fixed cost of a group and the cost of each fix in it. This is the
 * bench to try a change of the ingest path with; `bench:devices` says what a fleet sees.
 *
 *   npm run bench:groups                      # SQLite (WAL; the sync runs on the thread pool)
 *   npm run bench:groups -- --pg              # PostgreSQL (the server's own CPU is not counted)
 *   npm run bench:groups -- --devices 500 --fixes 10000
 *
 * Reference, in the same run: the same rows (read back from the server) inserted by one prepared
 * INSERT into a fresh SQLite file migrated like the server's, one transaction per group, with
 * synchronous=NORMAL (the server's main thread does not wait for the sync either): the CPU per
 * row that no store of these fixes can avoid. The ratio is reference/server; asserts nothing.
 */
import { sql } from 'kysely';
import type { Database } from '../src/store/database.js';
import { Cleanup, flagValue, fmt, ratio, runBench, serverStore, sqliteStore, startServer, tempDir } from './common.js';

const GROUPS = [1, 25] as const;
const cpuMicros = ({ user, system }: NodeJS.CpuUsage) => user + system;

runBench('bench:groups', async () => {
  const devices = flagValue('--devices', 2000);
  const fixesPerPhase = flagValue('--fixes', 20_000);
  const cleanup = new Cleanup();
  try {
    const dir = tempDir(cleanup);
    const { database, store } = await serverStore(dir, cleanup);
    const server = await startServer(database, devices, cleanup);
    await database.db.updateTable('subscribers').set({ device_key: sql<string>`'bench-' || CAST(id AS TEXT)` }).execute();
    const keys = server.employeeIds.map((id) => `bench-${id}`);
    const locations = server.services.positioning;

    // Each device drives steadily from its own corner of the city (about 30 km/h), as in
    // bench:devices, so that the pipeline does a fleet's work: tracks grow, nothing is an outlier.
    let clockMs = Date.now() - 6 * 3_600_000;
    let sent = 0;
    const fix = () => {
      const device = sent % keys.length;
      const round = Math.floor(sent++ / keys.length);
      return {
        key: keys[device]!,
        fix: {
          locationDateMs: (clockMs += 2),
          isValid: true,
          latitude: 55.6 + (device % 100) * 0.003 + round * 0.0003,
          longitude: 37.4 + Math.floor(device / 100) * 0.004 + round * 0.0003,
          angle: 45,
          velocityKmh: 30,
          fuelLevel: null,
          ignition: null,
          externalPower: null,
          odometer: null,
          engineHours: null,
          sensors: null,
        },
      };
    };
    const round = (size: number) =>
      Promise.all(
        Array.from({ length: size }, () => {
          const { key, fix: next } = fix();
          return locations.ingest.submit({ source: 'osmand', deviceKey: key, fix: next });
        }),
      );
    // Warm-up: two fixes of every device (states, caches, JIT), in groups of the larger size.
    for (let i = 0; i < Math.ceil((2 * devices) / GROUPS[1]); i++) await round(GROUPS[1]);

    const reference = await plainInsert(dir, database, cleanup);
    const results = new Map<number, { server: number; reference: number }>();
    for (const size of GROUPS) {
      const rounds = Math.max(1, Math.round(fixesPerPhase / size / (size === 1 ? 5 : 1)));
      const before = await maxId(database);
      const cpu = process.threadCpuUsage();
      for (let i = 0; i < rounds; i++) await round(size);
      const server = cpuMicros(process.threadCpuUsage(cpu)) / (rounds * size);
      results.set(size, { server, reference: await reference(before, size) });
    }

    process.stdout.write(`groups on ${store}: ${fmt(devices)} devices, single fixes submitted G at a time to the ingest queue (no HTTP); main-thread CPU\n`);
    for (const [size, r] of results) {
      process.stdout.write(`  G=${String(size).padEnd(3)} server ${r.server.toFixed(1)} µs per fix · plain prepared INSERT, one transaction per group ${r.reference.toFixed(1)} µs per row · ratio ${ratio(r.reference, r.server)}\n`);
    }
    const [one, many] = [results.get(GROUPS[0])!.server, results.get(GROUPS[1])!.server];
    const perFix = (many * GROUPS[1] - one) / (GROUPS[1] - 1);
    process.stdout.write(`groups: a group costs the main thread about ${fmt(one - perFix)} µs and each of its fixes ${perFix.toFixed(1)} µs more\n`);
  } finally {
    await cleanup.run();
  }
});

async function maxId(database: Database): Promise<number> {
  const { rows } = await sql<{ id: number | string | null }>`SELECT max(id) AS id FROM locations`.execute(database.db);
  return Number(rows[0]?.id ?? 0);
}

/**
 * The reference: the server's rows stored after `afterId`, read back and inserted `size` rows per
 * transaction into a fresh SQLite file; resolves with the main thread's CPU per row of the inserts.
 */
async function plainInsert(dir: string, server: Database, cleanup: Cleanup) {
  const database = await sqliteStore(dir, 'reference.db', cleanup);
  const sqlite = database.sqlite!;
  sqlite.pragma('synchronous = NORMAL');
  const columns = (sqlite.pragma('table_info(locations)') as { name: string }[]).map((c) => c.name).filter((c) => c !== 'id');
  const insert = sqlite.prepare(`INSERT INTO locations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  const insertGroup = sqlite.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(row);
  });
  return async (afterId: number, size: number): Promise<number> => {
    const { rows } = await sql<Record<string, unknown>>`SELECT ${sql.raw(columns.join(', '))} FROM locations WHERE id > ${afterId} ORDER BY id`.execute(server.db);
    const values = rows.map((row) => columns.map((c) => row[c] ?? null));
    const cpu = process.threadCpuUsage();
    for (let i = 0; i < values.length; i += size) insertGroup(values.slice(i, i + size));
    return cpuMicros(process.threadCpuUsage(cpu)) / Math.max(1, values.length);
  };
}
