/**
 * Native trackers at scale: N simulated Teltonika terminals (codec 8 Extended) connected at once
 * to each of three listeners in turn. The stored listener is the one `npm start` runs: its
 * connections on the tracker thread, its fixes stored by the main thread. The bare listener is the
 * reference: the same framing and decoding code with a sink that answers at once, on the bench's
 * thread, as a plain TCP server would run. A third listener is the store's floor: the stored
 * listener's thread, ingest queue, transaction, commit and WAL sync, each frame's fixes written as
 * plain `locations` rows, without the pipeline (tracks, statistics, states, events) or the
 * employees' presence.
 * Each fleet first sends a record per terminal every few seconds (paced phase, bare and stored),
 * then all its terminals their buffer of BURST records at the same moment (burst phase): the
 * listeners take turns, a burst each, the first of a round rotating, and get the same frames (but
 * for their timestamps). A fleet's connections first carry one burst that is not measured, so the
 * measured one runs on connections that have been up a while, as a real fleet's are, not on
 * thousands of sockets opened a moment before whose objects the collectors would move during it.
 * Prints records/s, p99 acknowledgement latency and the burst's CPU time per record (the process's
 * and the main thread's) for each (medians of the bursts), the RSS, the medians of the rounds'
 * ratios of records/s and the bare/stored ratio of CPU per record (which the machine's other load
 * moves less); asserts nothing.
 *
 *   npm run bench:trackers                          # 5,000 terminals on SQLite
 *   npm run bench:trackers -- --terminals 500 --seconds 10 --bursts 3
 *   npm run bench:trackers -- --pg                  # PostgreSQL (DATABASE_URL, or a throwaway cluster)
 *
 * Target: stored ≥ 0.5 of bare on SQLite. The stored listener's fixes go through the ingest port
 * (src/positioning/ingest-port.ts) and its group commit.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { teltonikaProtocol } from '../src/devices/teltonika/teltonika-protocol.js';
import { startTrackerThread } from '../src/devices/tracker-listeners.js';
import { startTrackerServer, type TrackerSink } from '../src/devices/tracker-server.js';
import { deviceDirectory } from '../src/devices/tracker-sink.js';
import type { IngestPort } from '../src/positioning/ingest-port.js';
import { IngestQueue, type Frame } from '../src/positioning/ingest-queue.js';
import { insertionOf, LocationStore } from '../src/positioning/location-store.js';
import type { Database } from '../src/store/database.js';
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
  /** The main thread's: the terminals' side and the bare listener, or the terminals' side and every transaction. */
  mainCpuMsPerRecord: number;
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
  const mainCpuBefore = process.threadCpuUsage();
  const all = Promise.all(terminals.map(async (terminal, i) => latencies.push(await terminal.exchange(packets[i]!, 4))));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, BURST_CAP_MS))]);
  const burstSeconds = (performance.now() - burstStart) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const mainCpu = process.threadCpuUsage(mainCpuBefore);
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
    mainCpuMsPerRecord: (mainCpu.user + mainCpu.system) / 1000 / Math.max(1, stored),
    rssMb,
  };
}

const burstMedians = (results: BurstResult[]): BurstResult => ({
  recordsPerSecond: median(results.map((r) => r.recordsPerSecond)),
  p99Ms: median(results.map((r) => r.p99Ms)),
  cpuMsPerRecord: median(results.map((r) => r.cpuMsPerRecord)),
  mainCpuMsPerRecord: median(results.map((r) => r.mainCpuMsPerRecord)),
  rssMb: Math.max(...results.map((r) => r.rssMb)),
});

/**
 * The floor's vehicles: the stored fleet's ids moved past any employee's, so that the floor's rows
 * have index ranges of their own, as a fleet of their own would (the pipeline never meets them).
 */
const FLOOR_VEHICLES_FROM = 1_000_000_000;

/**
 * The store's floor: each group of frames becomes plain `locations` rows (64 a statement, as the
 * pipeline writes them) in one transaction of the ingest queue, acknowledged the same way as the
 * stored listener's (once its commit is visible, then on disk). Nothing else is read or written:
 * what the disk, SQLite and the queue allow, the pipeline left out.
 */
function plainRowsPort(database: Database, stored: IngestPort): IngestPort {
  const locations = new LocationStore(database);
  const queue = new IngestQueue(async (frames) => {
    const receivedAt = Date.now();
    const byAccount = new Map<number, Frame[]>();
    for (const frame of frames) {
      const list = byAccount.get(frame.accountId);
      if (list) list.push(frame);
      else byAccount.set(frame.accountId, [frame]);
    }
    const { durable, commit } = await database.visibleTransaction(async (tx) => {
      for (const [accountId, list] of byAccount) {
        const fixes = list.flatMap((frame) => frame.fixes);
        await locations.coverWeeksOf(tx, fixes);
        await locations.insert(tx, insertionOf(accountId, receivedAt, fixes, []));
      }
    });
    void durable.catch(() => {});
    return { refused: new Map(), commit };
  });
  const frame = (accountId: number, fixes: Frame['fixes']): Frame => {
    for (const fix of fixes) fix.subscriberId += FLOOR_VEHICLES_FROM;
    return { accountId, fixes, source: 'tracker', unknown: () => new Error('unknown terminal') };
  };
  return {
    submit: (submitted) => {
      if (!('accountId' in submitted)) throw new Error('a tracker frame names its account');
      return queue.submit(frame(submitted.accountId, submitted.fixes));
    },
    durable: (commit) => stored.durable(commit),
    durabilityChannel: stored.durabilityChannel,
  };
}

const LISTENERS = ['bare', 'rows', 'stored'] as const;
type ListenerName = (typeof LISTENERS)[number];

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
    process.stdout.write(
      `bench:trackers — ${fmt(count)} Teltonika terminals, ${seconds} s paced (a record every ${PACE_MS / 1000} s), then ${bursts} rounds of a burst ` +
        `of ${BURST} records per terminal for each listener, in turns, each after an unmeasured one on the same connections (medians below); ${store}\n`,
    );

    const bare: TrackerSink = { authenticateDevice: async () => ({ outcome: 'accepted', owner: { accountId: server.account.id, subscriberId: server.employeeIds[0]! } }), ingest: async () => {} };
    const rows = async () => Number((await database.db.selectFrom('locations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    let rowsBefore = 0;
    const storedSince = async (acknowledged: number) => (acknowledged < 0 ? (rowsBefore = await rows()) : (await rows()) - rowsBefore);
    const quiet = { info() {}, warn() {}, error() {} };
    // The reference: the same framing and decoding on the bench's own thread, answering at once.
    const bareListener = await startTrackerServer({ protocol: teltonikaProtocol, sink: bare, host: '127.0.0.1' });
    cleanup.add(() => bareListener.close());
    // What `npm start` runs: the listener's thread, storing through the ingest port.
    const directory = deviceDirectory(server.services);
    const { ingest } = server.services.positioning;
    const storedListener = await startTrackerThread({ listeners: [{ protocol: 'teltonika', port: 0 }], host: '127.0.0.1', idleTimeoutMs: 600_000, directory, ingest, logger: quiet });
    cleanup.add(() => storedListener.close());
    // The floor: the same thread and queue, plain rows.
    const rowsListener = await startTrackerThread({ listeners: [{ protocol: 'teltonika', port: 0 }], host: '127.0.0.1', idleTimeoutMs: 600_000, directory, ingest: plainRowsPort(database, ingest), logger: quiet });
    cleanup.add(() => rowsListener.close());
    const targets: Record<ListenerName, Target> = {
      bare: { port: bareListener.port, keys, storedSince: async (acknowledged) => Math.max(0, acknowledged) * BURST },
      rows: { port: rowsListener.ports.teltonika!, keys, storedSince },
      stored: { port: storedListener.ports.teltonika!, keys, storedSince },
    };
    // Each fleet's own records from the same seed: the listeners get the same frames, but for
    // their timestamps (each source starts from its own moment).
    const records = { bare: recordSource(), rows: recordSource(), stored: recordSource() };
    const pacedResults = {
      bare: await withFleet(targets.bare, (terminals) => paced(terminals, records.bare, seconds)),
      stored: await withFleet(targets.stored, (terminals) => paced(terminals, records.stored, seconds)),
    };

    // Bursts: the listeners in turn, the first of a round rotating, so that the machine's other
    // load, which swings from one second to the next, weighs on all alike; each round gives
    // ratios, and the medians are printed (a burst lasts well under a second when nothing is
    // stored, so one alone swings with the machine's load).
    const burstResults: Record<ListenerName, BurstResult[]> = { bare: [], rows: [], stored: [] };
    const ratios = { storedToBare: [] as number[], rowsToBare: [] as number[], storedToRows: [] as number[] };
    for (let round = 0; round < bursts; round++) {
      for (let turn = 0; turn < LISTENERS.length; turn++) {
        const name = LISTENERS[(round + turn) % LISTENERS.length]!;
        const { storedSince: counted } = targets[name];
        burstResults[name].push(
          await withFleet(targets[name], async (terminals) => {
            await burst(terminals, counted, records[name]);
            return burst(terminals, counted, records[name]);
          }),
        );
      }
      const rate = (name: ListenerName) => burstResults[name][round]!.recordsPerSecond;
      ratios.storedToBare.push(rate('stored') / rate('bare'));
      ratios.rowsToBare.push(rate('rows') / rate('bare'));
      ratios.storedToRows.push(rate('stored') / rate('rows'));
    }
    const medians = { bare: burstMedians(burstResults.bare), rows: burstMedians(burstResults.rows), stored: burstMedians(burstResults.stored) };
    for (const name of LISTENERS) {
      const p = name === 'rows' ? null : pacedResults[name];
      const b = medians[name];
      process.stdout.write(
        `${name.padEnd(7)} ${p ? `paced ${fmt(p.recordsPerSecond)} records/s, p99 ack ${p.p99Ms.toFixed(1)} ms; ` : ''}` +
          `burst ${fmt(b.recordsPerSecond)} records/s, p99 ack ${fmt(b.p99Ms)} ms, CPU ${(b.cpuMsPerRecord * 1000).toFixed(1)} µs/record ` +
          `(main thread ${(b.mainCpuMsPerRecord * 1000).toFixed(1)}); RSS after its bursts up to ${fmt(b.rssMb)} MB (the process: every listener)\n`,
      );
    }
    const line = (values: number[]) => `${median(values).toFixed(2)} (rounds ${values.map((r) => r.toFixed(2)).join(', ')})`;
    process.stdout.write(`stored / bare (burst records/s, median of ${bursts} rounds): ${line(ratios.storedToBare)}; target ≥ 0.5\n`);
    process.stdout.write(`rows / bare (the floor: plain rows through the same queue, commit and sync): ${line(ratios.rowsToBare)}\n`);
    process.stdout.write(`stored / rows (what the pipeline leaves of the floor): ${line(ratios.storedToRows)}\n`);
    // The machine's other load swings the wall-clock ratio; CPU time per record sees less of it.
    process.stdout.write(`bare / stored (burst CPU per record): ${ratio(medians.bare.cpuMsPerRecord, medians.stored.cpuMsPerRecord)}\n`);
  } finally {
    await cleanup.run();
  }
});
