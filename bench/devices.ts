/**
 * A fleet of devices over the OsmAnd listener: N devices (default 2,000), each an employee with
 * its own device key, sending one fix per request over 64 connections, as phones running Traccar
 * Client or OsmAnd do. Against a bare `node:http` server answering the same requests with an
 * empty 200 in the same run. Prints fixes/s, p50/p99 acknowledgement latency (a 200 means the fix
 * is committed) and the ratio server/bare; asserts nothing.
 *
 *   npm run bench:devices                      # SQLite (WAL, synchronous=FULL)
 *   npm run bench:devices -- --pg              # PostgreSQL (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:devices -- --devices 500 --seconds 10 --connections 32
 *   npm run bench:devices -- --fleet 10000 --every 3   # the fleet as it is (see `fleet` below)
 *
 * The client (autocannon) is a separate process (bench/devices-client.ts), so the server and the
 * references each have the main thread of this process to themselves. Phases: warm-up of the
 * server (two fixes of every device), then bare, then the disk's ceiling, then server, each
 * `--seconds` long. At the end the bench checks that every acknowledged fix is stored.
 *
 * The disk's ceiling (not a target, an explanation): node:http that appends each request to a
 * file and answers once an fdatasync begun after the append has finished (one per turn of the
 * event loop, as the server's write-ahead log is synced). No server that answers only what is on
 * disk can be faster with this many connections on this disk.
 *
 * On PostgreSQL a second ceiling is measured as well (see `postgresBoundServer`): node:http
 * committing each turn's requests in one INSERT, the server's four lanes at once. The server's
 * ratio to the ceiling is printed against it there.
 */
import { spawn } from 'node:child_process';
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { buildHttpListener } from '../src/devices/http-listener.js';
import { osmandProtocol } from '../src/devices/osmand/osmand-protocol.js';
import { Cleanup, SUBSCRIBERS, flagValue, fmt, pause, ratio, runBench, serverStore, startServer, tempDir } from './common.js';

const TARGET_SQLITE = 0.5;
const TARGET_POSTGRES = 0.3;
const TARGET_P99_MS = 50;
/** Transactions the server's ingest queue runs at once on PostgreSQL (fix-ingest.ts). */
const POSTGRES_LANES = 4;

interface ClientResult {
  requests: number;
  ok: number;
  other: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
  next: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs a client script of this folder as its own process; `onLine` hears each line it prints.
 * Resolves with the JSON of its last line.
 */
function runClientProcess<T>(script: string, args: (string | number)[], onLine: (line: string) => void = () => {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${script}`, ...args.map(String)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let heard = 0;
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const lines = output.split('\n').slice(0, -1);
      for (; heard < lines.length; heard++) onLine(lines[heard]!);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${script} exited with ${code}: ${output}`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1)!) as T);
    });
  });
}

/** Runs the autocannon client process against `baseUrl`; resolves with its figures. */
function runClient(baseUrl: string, devices: number, seconds: number, connections: number, startS: number, firstRequest: number, amount?: number): Promise<ClientResult> {
  return runClientProcess('devices-client.ts', [baseUrl, devices, seconds, connections, startS, firstRequest, ...(amount ? [amount] : [])]);
}

/** The reference: node:http answering every request with an empty 200 once its body is read. */
async function bareServer(cleanup: Cleanup): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-length': '0' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The disk's ceiling (see the top): each request appended to a file, answered after an fdatasync begun since. */
async function diskBoundServer(dir: string, cleanup: Cleanup): Promise<string> {
  const fd = openSync(join(dir, 'disk-bound.log'), 'w');
  cleanup.add(() => closeSync(fd));
  let offset = 0;
  let nextSync: Promise<void> | null = null;
  const synced = () =>
    (nextSync ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      nextSync = null;
      return new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
    }));
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const line = Buffer.from(`${request.url}\n`);
      offset += writeSync(fd, line, 0, line.length, offset);
      void synced().then(() => {
        response.writeHead(200, { 'content-length': '0' });
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * PostgreSQL's ceiling (`--pg`): node:http committing each turn's requests as one multi-row INSERT
 * (its own transaction, one round trip) into a table of the server's database, up to `lanes`
 * commits at once as the server's ingest queue runs them, answering each request once its commit
 * returned. No server that answers only what PostgreSQL has committed, one round trip a group, can
 * be faster on this machine.
 */
async function postgresBoundServer(url: string, lanes: number, cleanup: Cleanup): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: lanes });
  cleanup.add(() => pool.end());
  await pool.query('CREATE TABLE bench_ceiling (id bigserial PRIMARY KEY, url text NOT NULL)');
  let waiting: { url: string; answer: () => void }[] = [];
  let running = 0;
  let scheduled = false;
  const drain = async () => {
    scheduled = false;
    if (running >= lanes || waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    running++;
    try {
      await pool.query({ name: 'ceiling', text: 'INSERT INTO bench_ceiling (url) SELECT unnest($1::text[])', values: [group.map((w) => w.url)] });
      for (const w of group) w.answer();
    } finally {
      running--;
      schedule();
    }
  };
  const schedule = () => {
    if (!scheduled && waiting.length > 0) {
      scheduled = true;
      setImmediate(drain);
    }
  };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      waiting.push({
        url: request.url ?? '/',
        answer: () => {
          response.writeHead(200, { 'content-length': '0' });
          response.end();
        },
      });
      schedule();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const cpuMicros = ({ user, system }: NodeJS.CpuUsage) => user + system;

/** A fresh store and server with `devices` employees whose device keys the clients send, and the OsmAnd listener. */
async function fleetServer(devices: number, cleanup: Cleanup) {
  const dir = tempDir(cleanup);
  const { database, store, postgresUrl } = await serverStore(dir, cleanup);
  const server = await startServer(database, 0, cleanup);
  // The devices: employees with the keys the client sends, created through the API 8 at a time.
  const create = async (first: number) => {
    for (let i = first; i < devices; i += 8) {
      const response = await fetch(`${server.baseUrl}${SUBSCRIBERS}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Phone ${i}`, deviceKey: `device-${i}` }),
      });
      if (response.status !== 201) throw new Error(`creating device ${i}: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, i) => create(i)));
  const osmand = buildHttpListener({ protocol: osmandProtocol, ingest: server.services.positioning.ingest });
  cleanup.add(() => osmand.close());
  const osmandUrl = `http://127.0.0.1:${(await osmand.listen({ port: 0, host: '127.0.0.1' })).port}`;
  const storedFixes = async () => {
    const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM locations`.execute(database.db);
    return Number(rows[0]!.n);
  };
  return { dir, database, store, postgresUrl, osmandUrl, storedFixes };
}

/** Every acknowledged fix must be stored (a fix in flight when a client stopped may be stored unacknowledged). */
function storedCheck(acknowledged: number, stored: number, failed: number): string {
  return stored >= acknowledged
    ? `check: ${fmt(acknowledged)} fixes acknowledged, ${fmt(stored)} stored (a fix in flight when the client stopped may be stored unacknowledged); ${fmt(failed)} failed`
    : `check: MISSING, ${fmt(acknowledged)} fixes acknowledged but only ${fmt(stored)} stored`;
}

async function main(): Promise<void> {
  if (process.argv.includes('--fleet')) return fleet();
  const devices = flagValue('--devices', 2000);
  const seconds = flagValue('--seconds', 10);
  const connections = flagValue('--connections', 64);
  const cleanup = new Cleanup();
  try {
    const { dir, database, store, postgresUrl, osmandUrl, storedFixes } = await fleetServer(devices, cleanup);
    const bareUrl = await bareServer(cleanup);
    const diskUrl = await diskBoundServer(dir, cleanup);
    const postgresCeilingUrl = postgresUrl ? await postgresBoundServer(postgresUrl, POSTGRES_LANES, cleanup) : null;

    // Fixes dated from two hours ago on, five seconds apart per device: recent, in order, live.
    const startS = Math.floor(Date.now() / 1000) - 7200;
    // Warm-up: two fixes of every device, so that what is measured is a fleet already online (a
    // device's first fix turns its employee's isOnline true, an employee change event each).
    const warm = await runClient(osmandUrl, devices, 0, connections, startS, 0, 2 * devices);
    await pause(200);
    const bareCpu = process.cpuUsage();
    const bare = await runClient(bareUrl, devices, seconds, connections, startS, 0);
    const bareCpuUs = cpuMicros(process.cpuUsage(bareCpu));
    await pause(200);
    const disk = await runClient(diskUrl, devices, seconds, connections, startS, 0);
    await pause(200);
    const postgresCeiling = postgresCeilingUrl ? await runClient(postgresCeilingUrl, devices, seconds, connections, startS, 0) : null;
    if (postgresCeiling) await pause(200);
    const [serverCpu, mainCpu] = [process.cpuUsage(), process.threadCpuUsage()];
    const measured = await runClient(osmandUrl, devices, seconds, connections, startS, warm.next);
    const [serverCpuUs, mainCpuUs] = [cpuMicros(process.cpuUsage(serverCpu)), cpuMicros(process.threadCpuUsage(mainCpu))];

    const check = storedCheck(warm.ok + measured.ok, await storedFixes(), warm.other + warm.errors + measured.other + measured.errors);
    const target = database.dialect === 'postgres' ? TARGET_POSTGRES : TARGET_SQLITE;
    console.log(`devices on ${store}: ${fmt(devices)} devices, one fix per request over the OsmAnd listener, ${connections} connections, ${seconds} s per phase`);
    console.log(`  bare node:http: ${fmt(bare.perSecond)} requests/s · p50 ${bare.p50} ms · p99 ${bare.p99} ms`);
    console.log(`  disk's ceiling: ${fmt(disk.perSecond)} requests/s · p50 ${disk.p50} ms · p99 ${disk.p99} ms (node:http answering after an fdatasync; ratio to bare ${ratio(disk.perSecond, bare.perSecond)})`);
    if (postgresCeiling) {
      console.log(`  PostgreSQL's ceiling: ${fmt(postgresCeiling.perSecond)} requests/s · p50 ${postgresCeiling.p50} ms · p99 ${postgresCeiling.p99} ms (node:http answering after a one-statement INSERT of each turn's requests, ${POSTGRES_LANES} at once; ratio to bare ${ratio(postgresCeiling.perSecond, bare.perSecond)})`);
    }
    const ceiling = postgresCeiling ?? disk;
    console.log(`  server:         ${fmt(measured.perSecond)} fixes/s · p50 ${measured.p50} ms · p99 ${measured.p99} ms (acknowledged after commit; ratio to the ${postgresCeiling ? "PostgreSQL's" : "disk's"} ceiling ${ratio(measured.perSecond, ceiling.perSecond)})`);
    // CPU time of this process (all its threads) per answer: what the ratio comes to when the
    // client is not the limit, and steadier than the rates on a busy machine. The main thread's
    // share is what bounds the rate on an idle machine.
    console.log(
      `  CPU per answer: bare ${fmt(bareCpuUs / bare.requests)} µs, server ${fmt(serverCpuUs / measured.requests)} µs (ratio ${ratio(bareCpuUs / bare.requests, serverCpuUs / measured.requests)}), of which the main thread ${fmt(mainCpuUs / measured.requests)} µs`,
    );
    console.log(`  ${check}`);
    console.log(`devices: ${fmt(measured.perSecond)} fixes/s · ratio to bare ${ratio(measured.perSecond, bare.perSecond)} (target ≥ ${target}) · p99 ${measured.p99} ms (target < ${TARGET_P99_MS})`);
  } finally {
    await cleanup.run();
  }
}


interface FleetResult {
  due: number;
  answered: number;
  ok: number;
  other: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  seconds: number;
  clientCpuSeconds: number;
  firstRound: { p50: number; p99: number };
  secondHalf: { p50: number; p99: number };
}

/**
 * Runs the fleet client process (bench/fleet-client.ts); `onMeasuring` is called when its measured
 * rounds begin. Resolves with its figures of those rounds.
 */
function runFleetClient(baseUrl: string, devices: number, everySeconds: number, seconds: number, startS: number, onMeasuring: () => void): Promise<FleetResult> {
  return runClientProcess('fleet-client.ts', [baseUrl, devices, everySeconds, seconds, startS], (line) => {
    if (line === 'measuring') onMeasuring();
  });
}

/**
 * `--fleet N` (`--every S`, `--seconds T`): the fleet as it is, not a load test: N
 * phones (default 10,000), each on a connection of its own, each sending a fix every S seconds
 * (default 3); a first round brings them online and connected, then T seconds (default 30) are
 * measured. The rate offered is fixed (N / S fixes a second); what is measured is whether the
 * server keeps up with it, how long a fix waits for its 200 (counted from when it was due), and
 * what that costs the server's CPU.
 */
async function fleet(): Promise<void> {
  const devices = flagValue('--fleet', 10_000);
  const everySeconds = flagValue('--every', 3);
  const seconds = flagValue('--seconds', 30);
  const cleanup = new Cleanup();
  try {
    const { store, osmandUrl, storedFixes } = await fleetServer(devices, cleanup);
    const startS = Math.floor(Date.now() / 1000) - 7200;
    let cpuAtStart: [NodeJS.CpuUsage, NodeJS.CpuUsage] | null = null;
    const measured = await runFleetClient(osmandUrl, devices, everySeconds, seconds, startS, () => (cpuAtStart = [process.cpuUsage(), process.threadCpuUsage()]));
    const [serverCpu, mainCpu] = cpuAtStart ?? [process.cpuUsage(), process.threadCpuUsage()];
    const [serverCpuUs, mainCpuUs] = [cpuMicros(process.cpuUsage(serverCpu)), cpuMicros(process.threadCpuUsage(mainCpu))];
    const answered = Math.max(1, measured.answered);
    // The warm-up round's fixes are stored too: one per phone.
    const check = storedCheck(devices + measured.ok, await storedFixes(), measured.other + measured.errors);
    console.log(`fleet on ${store}: ${fmt(devices)} phones, each on its own connection sending a fix every ${everySeconds} s over the OsmAnd listener; ${seconds} s measured after a first round`);
    console.log(`  offered: ${fmt(devices / everySeconds)} fixes/s; acknowledged ${fmt(measured.ok)} of ${fmt(measured.due)} due (${fmt(measured.ok / measured.seconds)} fixes/s over ${measured.seconds.toFixed(1)} s)`);
    console.log(`  latency from when a fix was due to its 200: p50 ${measured.p50} ms · p99 ${measured.p99} ms · max ${measured.max} ms (target p99 < ${TARGET_P99_MS})`);
    console.log(`    the first round (every phone connecting and coming online at once; not in the figures above): p50 ${measured.firstRound.p50} ms · p99 ${measured.firstRound.p99} ms`);
    console.log(`    fixes due in the second half of the measured time: p50 ${measured.secondHalf.p50} ms · p99 ${measured.secondHalf.p99} ms`);
    console.log(`  CPU per answer: server ${fmt(serverCpuUs / answered)} µs, of which the main thread ${fmt(mainCpuUs / answered)} µs; the server used ${((serverCpuUs / 1e6 / measured.seconds) * 100).toFixed(0)}% of one core, the phones' process ${((measured.clientCpuSeconds / measured.seconds) * 100).toFixed(0)}%`);
    console.log(`  ${check}${measured.other + measured.errors > 0 ? ` (${fmt(measured.other)} answered otherwise than 200, ${fmt(measured.errors)} unanswered)` : ''}`);
  } finally {
    await cleanup.run();
  }
}

runBench('bench:devices', main);
