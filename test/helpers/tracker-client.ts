import { connect, type Socket } from 'node:net';
import type { Fix } from '../../src/positioning/fix.js';
import type { DeviceProtocol } from '../../src/employees/employees.js';
import type { IngestPort } from '../../src/positioning/positioning.js';
import { DURABLE_ON_RETURN } from '../../src/store/commit-sequence.js';
import { startTrackerServer, type TrackerDevice, type TrackerLogin, type TrackerRetranslator, type TrackerServer, type TrackerServerOptions, type TrackerSink } from '../../src/devices/tracker-server.js';

const DEADLINE_MS = 5000;

/** A terminal on loopback: writes bytes, waits (with a deadline) for what the server answers. */
export class TrackerClient {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  static connect(port: number): Promise<TrackerClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new TrackerClient(socket)));
      socket.once('error', reject);
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Everything received and not yet read. */
  get pending(): Buffer {
    return this.received;
  }

  get isClosed(): boolean {
    return this.ended;
  }

  async send(bytes: Buffer | string): Promise<void> {
    await new Promise<void>((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The bytes one at a time in separate writes, each flushed before the next: a frame split across many segments. */
  async sendByteByByte(bytes: Buffer | string): Promise<void> {
    for (const byte of Buffer.from(bytes)) {
      await this.send(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Waits until `length(received)` says a whole answer is there (>0), then takes it. */
  async take(length: (received: Buffer) => number, what = 'an answer'): Promise<Buffer> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const size = length(this.received);
      if (size > 0 && this.received.length >= size) {
        const answer = this.received.subarray(0, size);
        this.received = this.received.subarray(size);
        return answer;
      }
      if (this.ended) throw new Error(`connection closed while waiting for ${what}; received ${this.received.toString('hex')}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within ${DEADLINE_MS} ms; received ${this.received.toString('hex')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  readBytes(count: number): Promise<Buffer> {
    return this.take(() => count, `${count} bytes`);
  }

  async readLine(): Promise<string> {
    const line = await this.take((r) => r.indexOf(0x0a) + 1, 'a line');
    return line.toString('utf8');
  }

  /** One EGTS packet: header length at byte 3, body length at 5–6, CRC-16 when there is a body. */
  readEgtsPacket(): Promise<Buffer> {
    return this.take((r) => (r.length < 7 ? 0 : r[3]! + r.readUInt16LE(5) + (r.readUInt16LE(5) ? 2 : 0)), 'an EGTS packet');
  }

  /** Resolves when the server has closed the connection (fails after the deadline). */
  async expectClosed(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the server did not close the connection')), DEADLINE_MS)));
    try {
      await Promise.race([this.closed, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * A sink held in memory: the listener's side of the contract without a database. `hold()` keeps
 * ingest from resolving until released, to see that nothing is acknowledged before the commit.
 */
export class MemorySink implements TrackerSink {
  readonly devices = new Map<string, TrackerDevice>();
  /** A device key's protocol (absent: heard on every listener) and password (absent: none), as employees set them. */
  readonly protocols = new Map<string, DeviceProtocol>();
  readonly passwords = new Map<string, string>();
  /** Retranslators by `${dispatcherId}:${password}`. */
  readonly retranslators = new Map<string, TrackerRetranslator>();
  readonly stored: { accountId: number; fixes: Fix[] }[] = [];
  failures = 0;
  private gate: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private entered: (() => void) | null = null;

  async authenticateDevice(protocol: DeviceProtocol, deviceKey: string, password: string | null): Promise<TrackerLogin> {
    const owner = this.devices.get(deviceKey);
    const registered = this.protocols.get(deviceKey);
    if (!owner || (registered !== undefined && registered !== protocol)) return { outcome: 'unknown' };
    const expected = this.passwords.get(deviceKey);
    if (expected === undefined) return { outcome: 'accepted', owner };
    if (password === null) return { outcome: 'password-required' };
    return password === expected ? { outcome: 'accepted', owner } : { outcome: 'wrong-password' };
  }

  async findDevice(protocol: DeviceProtocol, deviceKey: string): Promise<TrackerDevice | null> {
    const registered = this.protocols.get(deviceKey);
    return registered === undefined || registered === protocol ? (this.devices.get(deviceKey) ?? null) : null;
  }

  async authenticateRetranslator(dispatcherId: number, password: string): Promise<TrackerRetranslator | null> {
    return this.retranslators.get(`${dispatcherId}:${password}`) ?? null;
  }

  async ingest(accountId: number, fixes: Fix[]): Promise<void> {
    this.entered?.();
    if (this.gate) await this.gate;
    if (this.failures > 0) {
      this.failures--;
      throw new Error('the store is down');
    }
    this.stored.push({ accountId, fixes });
  }

  /**
   * Holds the next ingest until `release` is called; `entered` resolves once the listener is
   * waiting in it (so a test sees what the terminal has received meanwhile without sleeping).
   */
  hold(): { entered: Promise<void>; release: () => void } {
    this.gate = new Promise((resolve) => (this.release = resolve));
    const entered = new Promise<void>((resolve) => (this.entered = resolve));
    return {
      entered,
      release: () => {
        this.gate = null;
        this.entered = null;
        this.release?.();
      },
    };
  }

  get fixes(): Fix[] {
    return this.stored.flatMap((s) => s.fixes);
  }

  /** This sink as an ingest port (for the tracker thread): its fixes stored as `ingest` stores them, durable at once. */
  asIngestPort(): IngestPort {
    return {
      submit: async (frame) => {
        if (!('accountId' in frame)) throw new Error('a tracker frame names its account');
        await this.ingest(frame.accountId, frame.fixes);
        return DURABLE_ON_RETURN;
      },
      durable: async () => {},
      durabilityChannel: null,
    };
  }
}

export interface Listener {
  server: TrackerServer;
  sink: MemorySink;
  /** Every log line as JSON, to check that device keys never appear in clear. */
  logs: string[];
  connect(): Promise<TrackerClient>;
  close(): Promise<void>;
}

/** A listener on loopback over a MemorySink, with a log that records everything. */
export async function startListener(protocol: TrackerServerOptions['protocol'], options: Partial<TrackerServerOptions> = {}): Promise<Listener> {
  const sink = new MemorySink();
  const logs: string[] = [];
  const record = (level: string) => (object: object, message: string) => logs.push(JSON.stringify({ level, message, ...object }, (_k, v) => (v instanceof Error ? v.message : v)));
  const server = await startTrackerServer({
    protocol,
    sink,
    host: '127.0.0.1',
    logger: { info: record('info'), warn: record('warn'), error: record('error') },
    ...options,
  });
  const clients: TrackerClient[] = [];
  return {
    server,
    sink,
    logs,
    async connect() {
      const client = await TrackerClient.connect(server.port);
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.close();
      await server.close();
    },
  };
}
