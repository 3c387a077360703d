/**
 * Native trackers at scale: N simulated Teltonika terminals (codec 8 Extended) connected at once
 * to each of two listeners. The stored listener is the one `npm start` runs: its connections on
 * the tracker thread, its fixes stored by the main thread. The bare listener is the reference: the
 * same framing and decoding code with a sink that answers at once, on the bench's thread, as a
 * plain TCP server would run. Each fleet first sends a record per terminal every few seconds
 * (paced phase, one listener after the other), then all its terminals their buffer of BURST
 * records at the same moment (burst phase): the two listeners take turns, a burst each, the
 * first of a pair alternating, and get the same frames (but for their timestamps). Prints records/s, p99 acknowledgement
 * latency and the burst's CPU time per record for both (medians of the bursts), the RSS, the
 * median of the pairs' stored/bare ratios of records/s and the bare/stored ratio of CPU per
 * record (which the machine's other load moves less); asserts nothing.
 *
 *   npm run bench:trackers                          # 5,000 terminals on SQLite
 *   npm run bench:trackers -- --terminals 500 --seconds 10 --bursts 3
 *   npm run bench:trackers -- --pg                  # PostgreSQL (DATABASE_URL, or a throwaway cluster)
 *
 * Target (issue 14): stored ≥ 0.5 of bare on SQLite. The service sink of src/devices/tracker-sink.ts
 * goes through the ingest queue's group commit.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { teltonikaProtocol } from '../src/devices/teltonika-protocol.js';
import { startTrackerThread } from '../src/devices/tracker-listeners.js';
import { startTrackerServer, type TrackerSink } from '../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../src/devices/tracker-sink.js';
import { teltonikaHandshake, teltonikaPacket, type TeltonikaRecordSpec } from '../scripts/trackers/tracker-encoders.js';
import { Cleanup, flagValue, fmt, percentile, random, ratio, runBench, serverStore, startServer, tempDir } from './common.js';

const PACE_MS = 3000;
const BURST = 20;
const BURST_CAP_MS = 30_000;
/** Between bursts: the last burst's commits are on disk, its acknowledgements read. */
const BURST_PAUSE_MS = 1000;

/** One terminal: a socket, and the acknowledgements it waits for, in order. */
class Terminal {
  private received = 0;
  private waiting: { count: number; resolve: () => void }[] = [];
  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      while (this.waiting[0] && this.received >= this.waiting[0].count) {
        this.received -= this.waiting[0].count;
        this.waiting.shift()!.resolve();
      }
    });
  }
  static open(port: number): Promise<Terminal> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Terminal(socket)));
      socket.once('error', reject);
    });
  }
  /** Writes the bytes and resolves when `answerBytes` have come back: the elapsed milliseconds. */
  exchange(bytes: Buffer, answerBytes: number): Promise<number> {
    const started = performance.now();
    return new Promise((resolve) => {
      this.waiting.push({ count: answerBytes, resolve: () => resolve(performance.now() - started) });
      this.socket.write(bytes);
    });
  }
}

interface PhaseResult {
  recordsPerSecond: number;
  p99Ms: number;
}

interface BurstResult extends PhaseResult {
  /** The process's CPU time (all its threads) per record stored: what the store costs, whatever else the machine runs. */
  cpuMsPerRecord: number;
  /** The process's RSS once the burst was acknowledged, its terminals still connected. */
  rssMb: number;
}

/**
 * A listener's port, the device keys its terminals identify with, and how many records it took
 * since a burst began (the bare sink: those of the packets acknowledged; the store: rows in
 * `locations`), so a store that commits a packet's records one by one is credited for those it
 * committed before the cap.
 */
interface Target {
  port: number;
  keys: string[];
  storedSince: (acknowledgedPackets: number) => Promise<number>;
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);

/**
 * Opens a terminal per key, makes its handshake, runs `phase` and closes them. Each phase has
 * its fleet connected only while it runs: two fleets of 5,000 at once would need 20,000 file
 * descriptors in this process (both ends of every connection), the usual limit.
 */
async function withFleet<T>(target: Target, phase: (terminals: Terminal[]) => Promise<T>): Promise<T> {
  const { port, keys } = target;
  const terminals: Terminal[] = [];
  try {
    for (let i = 0; i < keys.length; i += 200) terminals.push(...(await Promise.all(keys.slice(i, i + 200).map(() => Terminal.open(port)))));
    await Promise.all(terminals.map((t, i) => t.exchange(teltonikaHandshake(keys[i]!), 1)));
    return await phase(terminals);
  } finally {
    for (const terminal of terminals) terminal.socket.destroy();
  }
}

/** Records of terminal i, each 10 ms after the last record of any terminal. */
function recordSource(): (i: number) => TeltonikaRecordSpec {
  const next = random(14);
  let clockMs = Date.now() - 3_600_000;
  return (i) => ({
    timeMs: (clockMs += 10),
    latitude: 55.6 + next() * 0.3,
    longitude: 37.4 + next() * 0.4 + i * 1e-6,
    speedKmh: Math.floor(next() * 90),
    angle: Math.floor(next() * 360),
    satellites: 9,
    io: { 239: [1, 1], 66: [2, 12_600], 201: [2, 40] },
  });
}

/** Paced: every terminal sends one record every PACE_MS, starting at a random offset. */
async function paced(terminals: Terminal[], record: (i: number) => TeltonikaRecordSpec, seconds: number): Promise<PhaseResult> {
  const next = random(15);
  const latencies: number[] = [];
  let records = 0;
  const pacedStart = performance.now();
  const endAt = pacedStart + seconds * 1000;
  await Promise.all(
    terminals.map(async (terminal, i) => {
      await new Promise((resolve) => setTimeout(resolve, next() * PACE_MS));
      while (performance.now() < endAt) {
        const sentAt = performance.now();
        latencies.push(await terminal.exchange(teltonikaPacket([record(i)], 0x8e), 4));
        records++;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PACE_MS - (performance.now() - sentAt))));
      }
    }),
  );
  return { recordsPerSecond: records / ((performance.now() - pacedStart) / 1000), p99Ms: percentile(latencies.sort((a, b) => a - b), 0.99) };
}

/**
 * Every terminal sends a buffer of BURST records at once. A store that cannot keep up is
 * measured over BURST_CAP_MS (records acknowledged by then), so the bench still ends within a
 * few minutes.
 */
async function burst(terminals: Terminal[], storedSince: Target['storedSince'], record: (i: number) => TeltonikaRecordSpec): Promise<BurstResult> {
  const packets = terminals.map((_, i) => teltonikaPacket(Array.from({ length: BURST }, () => record(i)), 0x8e));
  const latencies: number[] = [];
  await storedSince(-1);
  const burstStart = performance.now();
  const cpuBefore = process.cpuUsage();
  const all = Promise.all(terminals.map(async (terminal, i) => latencies.push(await terminal.exchange(packets[i]!, 4))));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, BURST_CAP_MS))]);
  const burstSeconds = (performance.now() - burstStart) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // Unanswered packets count at the cap as their latency: a lower bound of their real one.
  while (latencies.length < terminals.length) latencies.push(burstSeconds * 1000);
  const acknowledged = latencies.filter((ms) => ms < burstSeconds * 1000).length;
  const stored = await storedSince(acknowledged);
  await all;
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  await new Promise((resolve) => setTimeout(resolve, BURST_PAUSE_MS));
  return {
    recordsPerSecond: stored / burstSeconds,
    p99Ms: percentile(latencies.sort((a, b) => a - b), 0.99),
    cpuMsPerRecord: (cpu.user + cpu.system) / 1000 / Math.max(1, stored),
    rssMb,
  };
}

const burstMedians = (results: BurstResult[]): BurstResult => ({
  recordsPerSecond: median(results.map((r) => r.recordsPerSecond)),
  p99Ms: median(results.map((r) => r.p99Ms)),
  cpuMsPerRecord: median(results.map((r) => r.cpuMsPerRecord)),
  rssMb: Math.max(...results.map((r) => r.rssMb)),
});

runBench('bench:trackers', async () => {
  const count = flagValue('--terminals', 5000);
  const seconds = flagValue('--seconds', 20);
  const bursts = flagValue('--bursts', 5);
  const cleanup = new Cleanup();
  try {
    const { database, store } = await serverStore(tempDir(cleanup), cleanup);
    const server = await startServer(database, count, cleanup);
    // Device keys by SQL: creating them through the API would take longer than the bench.
    await database.db.updateTable('subscribers').set({ device_key: sql<string>`'bench-' || CAST(id AS TEXT)` }).execute();
    const keys = server.employeeIds.map((id) => `bench-${id}`);
    process.stdout.write(`bench:trackers — ${fmt(count)} Teltonika terminals, ${seconds} s paced (a record every ${PACE_MS / 1000} s), then ${bursts} bursts of ${BURST} records each per listener, in turns (medians below); ${store}\n`);

    const bare: TrackerSink = { resolveDevice: async () => ({ accountId: server.account.id, subscriberId: server.employeeIds[0]! }), ingest: async () => {} };
    const rows = async () => Number((await database.db.selectFrom('locations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    let rowsBefore = 0;
    const counters = {
      bare: async (acknowledged: number) => Math.max(0, acknowledged) * BURST,
      stored: async (acknowledged: number) => (acknowledged < 0 ? (rowsBefore = await rows()) : (await rows()) - rowsBefore),
    };
    const quiet = { info() {}, warn() {}, error() {} };
    // The reference: the same framing and decoding on the bench's own thread, answering at once.
    const bareListener = await startTrackerServer({ protocol: teltonikaProtocol, sink: bare, host: '127.0.0.1' });
    cleanup.add(() => bareListener.close());
    // What `npm start` runs: the listener's thread, storing through the ingest queue.
    const storedListener = await startTrackerThread({ listeners: [{ protocol: 'teltonika', port: 0 }], host: '127.0.0.1', idleTimeoutMs: 600_000, sink: serviceTrackerSink(server.services), logger: quiet });
    cleanup.add(() => storedListener.close());
    const targets: Record<'bare' | 'stored', Target> = {
      bare: { port: bareListener.port, keys, storedSince: counters.bare },
      stored: { port: storedListener.ports.teltonika!, keys, storedSince: counters.stored },
    };
    // Each fleet's own records from the same seed: the two listeners get the same frames, but for
    // their timestamps (each source starts from its own moment of creation, a millisecond or so apart).
    const records = { bare: recordSource(), stored: recordSource() };
    const pacedResults = {
      bare: await withFleet(targets.bare, (terminals) => paced(terminals, records.bare, seconds)),
      stored: await withFleet(targets.stored, (terminals) => paced(terminals, records.stored, seconds)),
    };

    // Bursts: the two listeners in turn, the first of a pair alternating, so that the machine's
    // other load, which swings from one second to the next, weighs on both alike; each pair gives
    // a ratio, and the medians are printed (a burst lasts well under a second when nothing is
    // stored, so one alone swings with the machine's load).
    const burstResults: Record<'bare' | 'stored', BurstResult[]> = { bare: [], stored: [] };
    const ratios: number[] = [];
    for (let round = 0; round < bursts; round++) {
      for (const name of round % 2 === 0 ? (['bare', 'stored'] as const) : (['stored', 'bare'] as const)) {
        burstResults[name].push(await withFleet(targets[name], (terminals) => burst(terminals, targets[name].storedSince, records[name])));
      }
      ratios.push(burstResults.stored[round]!.recordsPerSecond / burstResults.bare[round]!.recordsPerSecond);
    }
    const medians = { bare: burstMedians(burstResults.bare), stored: burstMedians(burstResults.stored) };
    for (const name of ['bare', 'stored'] as const) {
      const p = pacedResults[name];
      const b = medians[name];
      process.stdout.write(
        `${name.padEnd(7)} paced ${fmt(p.recordsPerSecond)} records/s, p99 ack ${p.p99Ms.toFixed(1)} ms; ` +
          `burst ${fmt(b.recordsPerSecond)} records/s, p99 ack ${fmt(b.p99Ms)} ms, CPU ${(b.cpuMsPerRecord * 1000).toFixed(1)} µs/record; ` +
          `RSS after its bursts up to ${fmt(b.rssMb)} MB (the process: both listeners)\n`,
      );
    }
    process.stdout.write(`stored / bare (burst records/s, median of ${bursts} pairs): ${median(ratios).toFixed(2)} (target ≥ 0.5; pairs ${ratios.map((r) => r.toFixed(2)).join(', ')})\n`);
    // The machine's other load swings the wall-clock ratio; CPU time per record sees less of it.
    process.stdout.write(`bare / stored (burst CPU per record): ${ratio(medians.bare.cpuMsPerRecord, medians.stored.cpuMsPerRecord)}\n`);
  } finally {
    await cleanup.run();
  }
});
