/**
 * What the benchmarks share: command-line flags, a temp folder, the store under test (a fresh
 * SQLite file, or a fresh PostgreSQL database), the real server listening on loopback with one
 * account and its employees, a deterministic generator of realistic fixes, timing, percentiles,
 * number formatting, and the exit of a bench's main.
 */
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { findPostgresBin, startCluster as startCluster0 } from '../scripts/pg-cluster.mjs';
import type { Account } from '../src/accounts/account-service.js';
import { buildApp, createServices, type Services } from '../src/app.js';
import type { LocationInput } from '../src/positioning/location-schema.js';
import { migrate, openDatabase, type Database } from '../src/store/database.js';

export const LOCATIONS = '/v6/api/globalPositioningManagement/locations';
export const SUBSCRIBERS = '/v6/api/subscriberManagement/subscribers';

/** `name N` on the command line: a positive integer, or `fallback` when the flag is absent. */
export function flagValue(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}

/** Runs a bench's main and exits: 0 when it finished, 1 with the stack on stderr when it failed. */
export function runBench(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}

/** Things to undo at the end, last first; run even when the benchmark fails half way. */
export class Cleanup {
  private readonly steps: (() => unknown)[] = [];

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (const step of this.steps.reverse()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`cleanup step failed: ${String(error)}\n`);
      }
    }
    this.steps.length = 0;
  }
}

/** A temp folder removed at cleanup. */
export function tempDir(cleanup: Cleanup): string {
  const dir = mkdtempSync(join(tmpdir(), 'lokator-bench-'));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `--pg` on the command line, or DATABASE_URL=postgres://…, puts the server on PostgreSQL. */
export function wantsPostgres(argv = process.argv): boolean {
  return argv.includes('--pg') || /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
}

/** A fresh, migrated SQLite file in `dir`: the project's own schema and pragmas. */
export async function sqliteStore(dir: string, name: string, cleanup: Cleanup): Promise<Database> {
  const database = await openDatabase({ url: join(dir, name) });
  cleanup.add(() => database.close());
  await migrate(database);
  return database;
}

/** The server store a bench runs on: PostgreSQL when asked for (see `wantsPostgres`), else a fresh SQLite file in `dir`; `store` says which, for the printed header; `postgresUrl` is the database's URL on PostgreSQL. */
export async function serverStore(dir: string, cleanup: Cleanup): Promise<{ database: Database; store: string; postgresUrl?: string }> {
  if (!wantsPostgres()) return { database: await sqliteStore(dir, 'server.db', cleanup), store: 'SQLite (WAL, synchronous=FULL)' };
  const { database, url, where } = await postgresStore(cleanup);
  return { database, store: `PostgreSQL (${where})`, postgresUrl: url };
}

/**
 * A fresh, migrated PostgreSQL database and its URL (a worker may LISTEN on it). On the server
 * DATABASE_URL names when it is set; otherwise on a throwaway cluster started for the run
 * (default durability settings: fsync and synchronous_commit on, like SQLite's synchronous=FULL).
 */
export async function postgresStore(cleanup: Cleanup): Promise<{ database: Database; url: string; where: string }> {
  const { url, onThrowawayCluster } = await createPostgresDatabase('lokator_bench', cleanup);
  const database = await openDatabase({ url });
  cleanup.add(() => database.close());
  await migrate(database);
  return { database, url, where: onThrowawayCluster ? 'throwaway local cluster, fsync on' : 'DATABASE_URL' };
}

/**
 * An empty database named `<namePrefix>_<random>`, dropped at cleanup: on the server DATABASE_URL
 * names when it is set, otherwise on a throwaway cluster (initdb + pg_ctl, scripts/pg-cluster.mjs)
 * stopped at cleanup.
 */
export async function createPostgresDatabase(namePrefix: string, cleanup: Cleanup): Promise<{ url: string; onThrowawayCluster: boolean }> {
  const fromEnv = process.env.DATABASE_URL;
  const onThrowawayCluster = !fromEnv || !/^postgres(ql)?:\/\//.test(fromEnv);
  const adminUrl = onThrowawayCluster ? await startCluster(cleanup) : fromEnv;
  const name = `${namePrefix}_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  cleanup.add(() => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), onThrowawayCluster };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A throwaway cluster with PostgreSQL's default durability, stopped at cleanup. */
async function startCluster(cleanup: Cleanup): Promise<string> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('no DATABASE_URL and no PostgreSQL binaries (initdb) on this machine');
  const cluster = await startCluster0(bin);
  if ('error' in cluster) throw new Error(cluster.error);
  cleanup.add(() => cluster.stop());
  return cluster.url;
}

export interface BenchServer {
  app: FastifyInstance;
  services: Services;
  baseUrl: string;
  account: Account;
  token: string;
  employeeIds: number[];
}

/**
 * The real server (logger off) on 127.0.0.1, port 0, with one account and `employees` employees
 * created through the API. `clock`: the server's now (default the real one).
 */
export async function startServer(database: Database, employees: number, cleanup: Cleanup, clock: () => number = Date.now): Promise<BenchServer> {
  const services = createServices(database, clock);
  const app = await buildApp({
    database,
    services,
    clock,
    logger: false,
    config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 16 * 1024 * 1024 },
  });
  cleanup.add(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const { account, token } = await services.accounts.createAccount({ name: 'Bench account', timeZone: 'UTC' });

  const employeeIds: number[] = [];
  for (let i = 1; i <= employees; i++) {
    const response = await fetch(`${baseUrl}${SUBSCRIBERS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Driver ${i}` }),
    });
    const body = (await response.json()) as { subscriberID?: number };
    if (response.status !== 201 || typeof body.subscriberID !== 'number') {
      throw new Error(`creating an employee failed: ${response.status} ${JSON.stringify(body)}`);
    }
    employeeIds.push(body.subscriberID);
  }
  return { app, services, baseUrl, account, token, employeeIds };
}

/** A GET of the server's API with the bench account's token (in process), its JSON answer; anything but 200 throws. */
export async function apiGet<T>(server: Pick<BenchServer, 'app' | 'token'>, url: string): Promise<T> {
  const response = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${server.token}` } });
  if (response.statusCode !== 200) throw new Error(`GET ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

/** mulberry32: a small deterministic PRNG, so every run posts the same fixes. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ISO 8601 in UTC with `Z`, whole seconds, as clients send dates. */
export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Vehicles driving around Moscow: each employee has a position, heading and speed that change a
 * little every step. `next(stepMs)` gives one fix per employee, in employee order, all dated
 * `stepMs` after the previous round; dates are ISO 8601 in UTC with `Z`, whole seconds.
 */
export class FixGenerator {
  private readonly rand = random(20260520);
  private readonly state: { lat: number; lon: number; heading: number; speed: number }[];
  private time: number;

  constructor(
    private readonly employeeIds: number[],
    startMs: number,
  ) {
    this.time = Math.floor(startMs / 1000) * 1000;
    this.state = employeeIds.map(() => ({
      lat: 55.75 + (this.rand() - 0.5) * 0.3,
      lon: 37.62 + (this.rand() - 0.5) * 0.5,
      heading: this.rand() * 360,
      speed: this.rand() * 80,
    }));
  }

  /** The time of the latest round. */
  get now(): number {
    return this.time;
  }

  /** One round: a fix of each employee. */
  next(stepMs: number): LocationInput[] {
    this.time += stepMs;
    const locationDate = iso(this.time);
    return this.state.map((s, i) => {
      s.heading = (s.heading + (this.rand() - 0.5) * 40 + 360) % 360;
      s.speed = Math.min(110, Math.max(0, s.speed + (this.rand() - 0.5) * 10));
      const km = (s.speed * stepMs) / 3_600_000;
      const rad = (s.heading * Math.PI) / 180;
      s.lat += (km * Math.cos(rad)) / 111.32;
      s.lon += (km * Math.sin(rad)) / (111.32 * Math.cos((s.lat * Math.PI) / 180));
      return {
        subscriberID: this.employeeIds[i]!,
        locationDate,
        isValid: this.rand() > 0.02,
        latitude: round(s.lat, 6),
        longitude: round(s.lon, 6),
        angle: Math.round(s.heading) % 360,
        velocity: round(s.speed, 1),
      };
    });
  }

  /** A batch of `size` fixes: whole rounds over the employees (size should be a multiple of their number). */
  batch(size: number, stepMs: number): LocationInput[] {
    const fixes: LocationInput[] = [];
    while (fixes.length < size) fixes.push(...this.next(stepMs));
    return fixes.slice(0, size);
  }
}

/** Milliseconds `run` takes to settle. */
export async function elapsedMs(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** The value at or just below share `p` of `sorted` (ascending): p = 0.5 is the (lower) median. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const ratio = (a: number, b: number) => (a / b).toFixed(2);

/** Frees the event loop for a moment (lets pending I/O and timers settle between phases). */
export const pause = (ms = 50) => new Promise<void>((resolve) => setTimeout(resolve, ms));
