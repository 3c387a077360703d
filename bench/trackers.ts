/**
 * Native trackers at scale: N simulated Teltonika terminals (codec 8 Extended) connected at once
 * to one listener, each sending a record every few seconds (paced phase), then all of them their
 * buffer of BURST records at the same moment, three times (burst phase: the medians of the three
 * are printed). The same frames go, in a second run,
 * to a bare listener that parses and acknowledges without storing (the same framing and decoding
 * code, a sink that answers at once, on the bench's thread, as a plain TCP server would run). The
 * stored listener is the one `npm start` runs: its connections on the tracker thread, its fixes
 * stored by the main thread. Prints records/s, p99 acknowledgement latency, the burst's
 * CPU time per record and RSS for both, the stored/bare ratio of the burst's records/s and the
 * bare/stored ratio of its CPU per record (which the machine's other load moves less); asserts nothing.
 *
 *   npm run bench:trackers                          # 5,000 terminals on SQLite
 *   npm run bench:trackers -- --terminals 500 --seconds 10 --bursts 5
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
}

/**
 * `storedSince` says how many records the sink has taken since the burst began (the bare sink:
 * those of the packets acknowledged; the store: rows in `locations`), so a store that commits a
 * packet's records one by one is credited for those it committed before the cap.
 */
async function drive(port: number, keys: string[], seconds: number, bursts: number, storedSince: (acknowledgedPackets: number) => Promise<number>): Promise<{ paced: PhaseResult; burst: BurstResult; rssMb: number }> {
  const next = random(14);
  const terminals: Terminal[] = [];
  for (let i = 0; i < keys.length; i += 200) terminals.push(...(await Promise.all(keys.slice(i, i + 200).map(() => Terminal.open(port)))));
  await Promise.all(terminals.map((t, i) => t.exchange(teltonikaHandshake(keys[i]!), 1)));
  let clockMs = Date.now() - 3_600_000;
  const record = (i: number): TeltonikaRecordSpec => ({
    timeMs: (clockMs += 10),
    latitude: 55.6 + next() * 0.3,
    longitude: 37.4 + next() * 0.4 + i * 1e-6,
    speedKmh: Math.floor(next() * 90),
    angle: Math.floor(next() * 360),
    satellites: 9,
    io: { 239: [1, 1], 66: [2, 12_600], 201: [2, 40] },
  });

  // Paced: every terminal sends one record every PACE_MS, starting at a random offset.
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
  const paced = { recordsPerSecond: records / ((performance.now() - pacedStart) / 1000), p99Ms: percentile(latencies.sort((a, b) => a - b), 0.99) };

  // Bursts: every terminal sends its buffer at once, `bursts` times (a burst lasts well under a
  // second when nothing is stored, so one alone swings with the machine's load; the median of
  // several does not). A store that cannot keep up is measured over BURST_CAP_MS (records
  // acknowledged by then), so the bench still ends within a few minutes.
  const results: BurstResult[] = [];
  for (let round = 0; round < bursts; round++) {
    const packets = terminals.map((_, i) => teltonikaPacket(Array.from({ length: BURST }, () => record(i)), 0x8e));
    const burstLatencies: number[] = [];
    await storedSince(-1);
    const burstStart = performance.now();
    const cpuBefore = process.cpuUsage();
    const all = Promise.all(terminals.map(async (terminal, i) => burstLatencies.push(await terminal.exchange(packets[i]!, 4))));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, BURST_CAP_MS))]);
    const burstSeconds = (performance.now() - burstStart) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    // Unanswered packets count at the cap as their latency: a lower bound of their real one.
    while (burstLatencies.length < terminals.length) burstLatencies.push(burstSeconds * 1000);
    const acknowledged = burstLatencies.filter((ms) => ms < burstSeconds * 1000).length;
    const stored = await storedSince(acknowledged);
    results.push({
      recordsPerSecond: stored / burstSeconds,
      p99Ms: percentile(burstLatencies.sort((a, b) => a - b), 0.99),
      cpuMsPerRecord: (cpu.user + cpu.system) / 1000 / Math.max(1, stored),
    });
    await all;
    await new Promise((resolve) => setTimeout(resolve, BURST_PAUSE_MS));
  }
  const median = (pick: (r: BurstResult) => number) => percentile(results.map(pick).sort((a, b) => a - b), 0.5);
  const burst = { recordsPerSecond: median((r) => r.recordsPerSecond), p99Ms: median((r) => r.p99Ms), cpuMsPerRecord: median((r) => r.cpuMsPerRecord) };
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  for (const terminal of terminals) terminal.socket.destroy();
  return { paced, burst, rssMb };
}

runBench('bench:trackers', async () => {
  const count = flagValue('--terminals', 5000);
  const seconds = flagValue('--seconds', 20);
  const bursts = flagValue('--bursts', 3);
  const cleanup = new Cleanup();
  try {
    const { database, store } = await serverStore(tempDir(cleanup), cleanup);
    const server = await startServer(database, count, cleanup);
    // Device keys by SQL: creating them through the API would take longer than the bench.
    await database.db.updateTable('subscribers').set({ device_key: sql<string>`'bench-' || CAST(id AS TEXT)` }).execute();
    const keys = server.employeeIds.map((id) => `bench-${id}`);
    process.stdout.write(`bench:trackers — ${fmt(count)} Teltonika terminals, ${seconds} s paced (a record every ${PACE_MS / 1000} s), then ${bursts} bursts of ${BURST} records each (medians below); ${store}\n`);

    const bare: TrackerSink = { resolveDevice: async () => ({ accountId: server.account.id, subscriberId: server.employeeIds[0]! }), ingest: async () => {} };
    const rows = async () => Number((await database.db.selectFrom('locations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    let rowsBefore = 0;
    const counters = {
      bare: async (acknowledged: number) => Math.max(0, acknowledged) * BURST,
      stored: async (acknowledged: number) => (acknowledged < 0 ? (rowsBefore = await rows()) : (await rows()) - rowsBefore),
    };
    const results: Record<string, Awaited<ReturnType<typeof drive>>> = {};
    const quiet = { info() {}, warn() {}, error() {} };
    const listeners = {
      // The reference: the same framing and decoding on the bench's own thread, answering at once.
      bare: async () => {
        const listener = await startTrackerServer({ protocol: teltonikaProtocol, sink: bare, host: '127.0.0.1' });
        return { port: listener.port, close: () => listener.close() };
      },
      // What `npm start` runs: the listener's thread, storing through the ingest queue.
      stored: async () => {
        const listener = await startTrackerThread({ listeners: [{ protocol: 'teltonika', port: 0 }], host: '127.0.0.1', idleTimeoutMs: 600_000, sink: serviceTrackerSink(server.services), logger: quiet });
        return { port: listener.ports.teltonika!, close: () => listener.close() };
      },
    };
    for (const name of ['bare', 'stored'] as const) {
      const listener = await listeners[name]();
      results[name] = await drive(listener.port, keys, seconds, bursts, counters[name]);
      await listener.close();
      const r = results[name]!;
      process.stdout.write(
        `${name.padEnd(7)} paced ${fmt(r.paced.recordsPerSecond)} records/s, p99 ack ${r.paced.p99Ms.toFixed(1)} ms; ` +
          `burst ${fmt(r.burst.recordsPerSecond)} records/s, p99 ack ${fmt(r.burst.p99Ms)} ms, CPU ${(r.burst.cpuMsPerRecord * 1000).toFixed(1)} µs/record; RSS ${fmt(r.rssMb)} MB\n`,
      );
    }
    process.stdout.write(`stored / bare (burst records/s): ${ratio(results.stored!.burst.recordsPerSecond, results.bare!.burst.recordsPerSecond)} (target ≥ 0.5)\n`);
    // The machine's other load swings the wall-clock ratio; CPU time per record sees less of it.
    process.stdout.write(`bare / stored (burst CPU per record): ${ratio(results.bare!.burst.cpuMsPerRecord, results.stored!.burst.cpuMsPerRecord)}\n`);
  } finally {
    await cleanup.run();
  }
});
