/**
 * Webhook delivery: 20,000 events written to the outbox (as the pipeline and the management
 * APIs write them: `Outbox.enqueue` inside a transaction) and sent by the delivery worker to a
 * receiver on loopback, signed, with every attempt recorded. Two phases:
 *
 *   backlog   all events committed first, then the worker started: deliveries per second until
 *             every row is recorded delivered. Reference, in the same run: plain undici POSTs
 *             of the same bodies to the same receiver, as many in flight as the worker has lanes.
 *   stream    the worker running while events are committed at a steady rate (default 2,000/s,
 *             20 per transaction): time from each commit to its first arrival at the receiver.
 *
 * Events go to `--targets` URLs (default 50: paths of the one receiver, as 50 rules would have);
 * each URL gets its events strictly in order, one request at a time. Asserts nothing.
 *
 *   npm run bench:delivery                    # SQLite
 *   npm run bench:delivery -- --pg            # PostgreSQL (DATABASE_URL, or a throwaway cluster)
 *   npm run bench:delivery -- --targets 1     # one URL: strictly sequential
 *   npm run bench:delivery -- --events 5000 --rate 1000
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createServices, type Services } from '../src/app.js';
import type { OutgoingMessage } from '../src/delivery/outbox.js';
import type { Database } from '../src/store/database.js';
import { Cleanup, flagValue, fmt, pause, postgresStore, random, ratio, runBench, sqliteStore, tempDir, wantsPostgres } from './common.js';

const EVENTS = flagValue('--events', 20_000);
const TARGETS = flagValue('--targets', 50);
const RATE = flagValue('--rate', 2000);
const PER_TRANSACTION = 20;
const PRODUCERS = 8;
const LANES = 32;

/** A loopback receiver answering 200 at once; remembers when each event (by its `seq`) first arrived. */
class Receiver {
  readonly firstArrival = new Map<number, number>();
  signed = 0;
  plain = 0;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        if (req.headers['webhook-id']) {
          this.signed++;
          const seq = Number(/"seq":(\d+)/.exec(Buffer.concat(chunks).toString('latin1'))?.[1]);
          if (!this.firstArrival.has(seq)) this.firstArrival.set(seq, at);
        } else {
          this.plain++;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' }).end('{}');
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A signal body of interface 6.3 (a zone entry), about 330 bytes of JSON. */
function signalBody(seq: number, rand: () => number) {
  return {
    signalID: 1_000_000 + seq,
    signalDate: new Date(Date.UTC(2026, 4, 20, 12) + seq * 1000).toISOString().replace('.000Z', '+00:00'),
    signalTypeID: 2,
    subscriberID: 100 + (seq % 400),
    subscriberExternalID: `TRUCK-${100 + (seq % 400)}`,
    zoneID: 1 + (seq % 50),
    zoneName: `Customer site ${1 + (seq % 50)}`,
    zoneEventType: 1 + (seq % 2),
    eventID: 1 + (seq % TARGETS),
    latitude: Math.round((55.6 + rand() * 0.3) * 1e6) / 1e6,
    longitude: Math.round((37.4 + rand() * 0.5) * 1e6) / 1e6,
    velocity: Math.round(rand() * 900) / 10,
    seq,
  };
}

function messages(accountId: number, baseUrl: string, from: number, count: number, rand: () => number): OutgoingMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const seq = from + i;
    return { accountId, eventRuleId: null, channel: 'webhook' as const, target: `${baseUrl}/hooks/${seq % TARGETS}`, payload: signalBody(seq, rand) };
  });
}

async function pendingCount(database: Database): Promise<number> {
  const row = await database.db.selectFrom('deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return Number(row.n);
}

async function waitUntilDrained(database: Database): Promise<void> {
  while ((await pendingCount(database)) > 0) await pause(20);
}

/** The worker sends a committed backlog; the time until every row is recorded delivered. */
async function backlog(services: Services, database: Database, accountId: number, baseUrl: string, from: number, count: number): Promise<number> {
  const rand = random(from);
  for (let i = 0; i < count; i += 100) {
    const batch = messages(accountId, baseUrl, from + i, Math.min(100, count - i), rand);
    await database.transaction((tx) => services.delivery.outbox.enqueue(tx, batch));
  }
  await pause(100);
  const started = performance.now();
  await services.delivery.worker.start();
  await waitUntilDrained(database);
  const elapsed = performance.now() - started;
  await services.delivery.worker.stop();
  return elapsed;
}

/** Plain undici POSTs of the same bodies, LANES in flight: what the network path alone costs. */
async function reference(agent: Agent, baseUrl: string, from: number, count: number): Promise<number> {
  const rand = random(from);
  const bodies = messages(0, baseUrl, from, count, rand).map((m) => ({ url: m.target, body: JSON.stringify(m.payload) }));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < bodies.length) {
        const { url, body } = bodies[next++]!;
        const response = await request(url, { dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.body.dump();
      }
    }),
  );
  return performance.now() - started;
}

/** Commits `count` events at `RATE` per second while the worker runs; commit → first arrival per event. */
async function stream(services: Services, database: Database, receiver: Receiver, accountId: number, from: number, count: number) {
  const rand = random(from);
  const committedAt = new Map<number, number>();
  await services.delivery.worker.start();
  const started = performance.now();
  // Transactions start on schedule, up to PRODUCERS at once (as concurrent requests would), so
  // a commit slower than the interval (PostgreSQL with fsync) does not lower the offered rate.
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < count; i += PER_TRANSACTION) {
    const wait = started + (i / RATE) * 1000 - performance.now();
    if (wait > 0) await pause(wait);
    while (inFlight.size >= PRODUCERS) await Promise.race(inFlight);
    const size = Math.min(PER_TRANSACTION, count - i);
    const first = from + i;
    const batch = messages(accountId, receiver.url, first, size, rand);
    const commit = database
      .transaction((tx) => services.delivery.outbox.enqueue(tx, batch))
      .then(() => {
        const at = performance.now();
        for (let seq = first; seq < first + size; seq++) committedAt.set(seq, at);
      })
      .finally(() => inFlight.delete(commit));
    inFlight.add(commit);
  }
  await Promise.all(inFlight);
  const offeredMs = performance.now() - started;
  await waitUntilDrained(database);
  await services.delivery.worker.stop();
  const delays = [...committedAt].map(([seq, at]) => (receiver.firstArrival.get(seq) ?? Number.NaN) - at);
  const missing = delays.filter(Number.isNaN).length;
  const sorted = delays.filter((d) => !Number.isNaN(d)).sort((a, b) => a - b);
  const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { offeredRate: (count / offeredMs) * 1000, p50: quantile(0.5), p99: quantile(0.99), max: sorted.at(-1)!, missing };
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  try {
    const pg = wantsPostgres();
    const { database, where, url } = pg
      ? await postgresStore(cleanup)
      : { database: await sqliteStore(tempDir(cleanup), 'delivery.db', cleanup), where: 'SQLite file, synchronous=FULL', url: undefined };
    const receiver = new Receiver();
    await receiver.start();
    cleanup.add(() => receiver.close());
    const fresh = () =>
      createServices(database, Date.now, { allowPrivateAddresses: true, delivery: { listenUrl: url, concurrency: LANES, timeoutMs: 10_000 } });
    const services = fresh();
    const { account } = await services.accounts.createAccount({ name: 'Bench account', timeZone: 'UTC' });
    const agent = new Agent();
    cleanup.add(() => agent.close());

    // Warm-up of both sides: connections, JIT, the signing secret.
    await backlog(services, database, account.id, receiver.url, 0, 1000);
    await reference(agent, receiver.url, 0, 1000);

    // Backlog and reference take turns in halves, so drift of a busy machine hits both alike.
    const half = Math.floor(EVENTS / 2);
    let serverMs = 0;
    let referenceMs = 0;
    let from = 1000;
    for (const size of [half, EVENTS - half]) {
      serverMs += await backlog(fresh(), database, account.id, receiver.url, from, size);
      referenceMs += await reference(agent, receiver.url, from, size);
      from += size;
    }
    const attempts = await database.db.selectFrom('delivery_attempts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const latency = await stream(fresh(), database, receiver, account.id, from, EVENTS);

    const serverRate = (EVENTS / serverMs) * 1000;
    const referenceRate = (EVENTS / referenceMs) * 1000;
    const store = pg ? `PostgreSQL (${where})` : where;
    console.log(`delivery on ${store}: ${fmt(EVENTS)} signed webhooks to ${TARGETS} loopback URLs, ${LANES} lanes, each URL in order`);
    console.log(`  backlog    ${fmt(serverRate).padStart(7)} deliveries/s (${fmt(serverMs)} ms until all recorded delivered; ${fmt(Number(attempts.n))} attempts recorded so far)`);
    console.log(`  reference  ${fmt(referenceRate).padStart(7)} POSTs/s (plain undici, same bodies, ${LANES} in flight, ${fmt(referenceMs)} ms)`);
    console.log(`  ratio ${ratio(serverRate, referenceRate)}`);
    console.log(
      `  stream     ${fmt(EVENTS)} events offered at ${fmt(latency.offeredRate)}/s, ${PER_TRANSACTION} per transaction: commit → first attempt ` +
        `p50 ${latency.p50.toFixed(1)} ms · p99 ${latency.p99.toFixed(1)} ms · max ${latency.max.toFixed(1)} ms${latency.missing ? ` · ${latency.missing} never arrived` : ''}`,
    );
    console.log(`  receiver: ${fmt(receiver.signed)} signed requests for ${fmt(EVENTS * 2 + 1000)} events, ${fmt(receiver.plain)} plain ones`);
    console.log(
      `delivery: ${fmt(serverRate)}/s · plain undici ${fmt(referenceRate)}/s · ratio ${ratio(serverRate, referenceRate)} · p99 commit → first attempt ${latency.p99.toFixed(1)} ms`,
    );
  } finally {
    await cleanup.run();
  }
}

runBench('bench:delivery', main);
