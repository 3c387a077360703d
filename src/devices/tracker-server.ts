import { createHash } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { Fix } from '../positioning/positioning.js';
import type { TcpDeviceProtocol } from './device-protocol.js';
import type { DeviceProtocol } from './protocols.js';
import { applyReadingMap, resolveReadingMap, type ReadingMap, type ReadingMapOverride } from './reading-map.js';
import type { LoginOutcome, TrackerConnection } from './tracker-protocol.js';
import type { TrackerRecord } from './tracker-record.js';

/** Who a terminal is: what the listeners ask of the employees and retranslators (tracker-sink.ts adapts them). */
export interface DeviceDirectory {
  /**
   * A terminal's login on `protocol`'s listener (EmployeeService.authenticateDevice): the employee
   * whose device key is this IMEI / terminal id, if the key is heard on this protocol and the
   * password (null: none given) is the device's, when it has one. `address` is the terminal's IP
   * address, kept with an accepted login for the employee's page.
   */
  authenticateDevice(protocol: DeviceProtocol, deviceKey: string, password: string | null, address?: string | null): Promise<TrackerLogin>;
  /**
   * The employee whose device key this is, if heard on `protocol`, whatever its device password:
   * a retranslator's vehicle (the retranslator proved its account's own credentials); absent: none.
   */
  findDevice?(protocol: DeviceProtocol, deviceKey: string): Promise<TrackerDevice | null>;
  /** The retranslator an account configured with this dispatcher id and password, or null; absent: none. */
  authenticateRetranslator?(dispatcherId: number, password: string): Promise<TrackerRetranslator | null>;
}

/** What a listener needs from the rest of Lokator: who terminals are, and where their fixes go. */
export interface TrackerSink extends DeviceDirectory {
  /** Stores the fixes (in order) and resolves only once they are durable; rejects if they were not stored. */
  ingest(accountId: number, fixes: Fix[]): Promise<void>;
}

export type TrackerLogin = { outcome: 'accepted'; owner: TrackerDevice } | { outcome: Exclude<LoginOutcome, 'accepted'> };

export interface TrackerDevice {
  accountId: number;
  subscriberId: number;
  /** The employee's own reading map, laid over the protocol's defaults. */
  readingMap?: ReadingMapOverride | null;
}

export interface TrackerRetranslator {
  accountId: number;
  retranslatorId: number;
}

/**
 * Throttles device-key guessing per client address (src/http/key-guess-throttle.ts; the tracker
 * thread passes one to all its listeners): each unknown key counts; a locked address is refused every key it has not
 * proven before, without the key being looked up.
 */
export interface KeyGuessGate {
  retryAfterSeconds(address: string, keyDigest: string): number;
  failed(address: string): boolean;
  succeeded(address: string, keyDigest: string): void;
}

/** The part of pino the listener uses. */
export interface TrackerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface TrackerServerOptions {
  protocol: TcpDeviceProtocol<DeviceProtocol>;
  sink: TrackerSink;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** A connection that sends nothing for this long is closed (default 10 minutes). */
  idleTimeoutMs?: number;
  /** Frames above this close the connection (default: the protocol's own limit). */
  maxFrameBytes?: number;
  logger?: TrackerLogger;
  clock?: () => number;
  keyGuesses?: KeyGuessGate;
}

export interface TrackerServer {
  readonly port: number;
  close(): Promise<void>;
}

type BoundDevice = TrackerDevice & { map: ReadingMap; digest: string };

/** A fix dated further ahead than this is a broken clock, not a position (as for OsmAnd). */
const MAX_FUTURE_MS = 24 * 3_600_000;
const silent: TrackerLogger = { info() {}, warn() {}, error() {} };

/** Device keys are secrets: logs carry the start of their SHA-256 instead (as the OsmAnd port's do). */
export function deviceKeyDigest(deviceKey: string): string {
  return `sha256:${createHash('sha256').update(deviceKey).digest('hex').slice(0, 12)}`;
}

/**
 * A TCP listener for one tracker protocol. Each connection keeps its own framing buffer (frames
 * split across segments or several in one segment), handles its frames strictly one after the
 * other (the socket is paused meanwhile, so a fast sender waits in TCP, not in memory), and never
 * lets a bad frame or a failed store take down more than its own connection.
 */
export async function startTrackerServer(options: TrackerServerOptions): Promise<TrackerServer> {
  const { protocol, sink, logger = silent, clock = Date.now, keyGuesses } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const maxFrameBytes = options.maxFrameBytes ?? protocol.maxFrameBytes;
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket);
  });

  function serveConnection(socket: Socket): void {
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    const address = socket.remoteAddress ?? '';
    let buffer: Buffer = Buffer.alloc(0);
    let draining = false;
    let closed = false;
    let device: BoundDevice | null = null;
    let retranslator: (TrackerRetranslator & { objects: Map<string, BoundDevice | null> }) | null = null;
    const context = () => ({
      protocol: protocol.name,
      remote,
      ...(device ? { device: device.digest, subscriberId: device.subscriberId } : {}),
      ...(retranslator ? { retranslatorId: retranslator.retranslatorId, accountId: retranslator.accountId } : {}),
    });

    const close = (reason: string) => {
      if (closed) return;
      closed = true;
      logger.info({ ...context(), reason }, 'tracker connection closed');
      socket.end(() => socket.destroy());
    };
    const bound = (owner: TrackerDevice, digest: string): BoundDevice => ({ ...owner, digest, map: resolveReadingMap(protocol.defaultReadingMap, owner.readingMap) });

    const connection: TrackerConnection = {
      get identified() {
        return device !== null || retranslator !== null;
      },
      get retranslating() {
        return retranslator !== null;
      },
      async identify(deviceKeys) {
        return (await connection.login(deviceKeys, null)) === 'accepted';
      },
      async login(deviceKeys, password) {
        const keys = deviceKeys.map((key) => ({ key, digest: deviceKeyDigest(key) }));
        // While the address is locked only keys it proved are looked up: refusing only unknown keys
        // would tell a guesser when a guess hits.
        const heard = keyGuesses ? keys.filter(({ digest }) => keyGuesses.retryAfterSeconds(address, digest) === 0) : keys;
        // The log names the keys by digest: the first as for one key, the others (EGTS's terminal id) beside it.
        const [first, ...others] = keys.map(({ digest }) => digest);
        const named = { device: first, ...(others.length > 0 ? { otherDevices: others } : {}) };
        if (heard.length === 0) {
          logger.warn({ ...context(), ...named, lockedAddress: true }, 'terminal refused: its address guessed too many keys');
          return 'unknown';
        }
        for (const { key, digest } of heard) {
          if (key === '') continue;
          const login = await sink.authenticateDevice(protocol.name, key, password, address === '' ? null : address);
          if (login.outcome === 'unknown') continue;
          if (login.outcome !== 'accepted') {
            // A wrong or missing password counts as a guess: the key alone must not open the vehicle.
            const locked = keyGuesses?.failed(address) ?? false;
            logger.warn({ ...context(), device: digest, outcome: login.outcome, ...(locked ? { lockedAddress: true } : {}) }, 'terminal refused: device password');
            return login.outcome;
          }
          const { owner } = login;
          keyGuesses?.succeeded(address, digest);
          device = bound(owner, digest);
          logger.info(context(), 'terminal identified');
          return 'accepted';
        }
        const locked = keyGuesses?.failed(address) ?? false;
        logger.warn({ ...context(), ...named, ...(locked ? { lockedAddress: true } : {}) }, 'unknown terminal refused');
        return 'unknown';
      },
      async identifyRetranslator(dispatcherId, password) {
        const digest = deviceKeyDigest(`dispatcher:${dispatcherId}`);
        if (keyGuesses && keyGuesses.retryAfterSeconds(address, digest) > 0) {
          logger.warn({ ...context(), dispatcherId, lockedAddress: true }, 'retranslator refused: its address guessed too many keys');
          return false;
        }
        const found = (await sink.authenticateRetranslator?.(dispatcherId, password)) ?? null;
        if (!found) {
          const locked = keyGuesses?.failed(address) ?? false;
          logger.warn({ ...context(), dispatcherId, ...(locked ? { lockedAddress: true } : {}) }, 'retranslator refused: unknown dispatcher id or wrong password');
          return false;
        }
        keyGuesses?.succeeded(address, digest);
        retranslator = { ...found, objects: new Map() };
        logger.info({ ...context(), dispatcherId }, 'retranslator authenticated');
        return true;
      },
      async findObject(deviceKey) {
        if (!retranslator) return false;
        const { objects, accountId } = retranslator;
        if (!objects.has(deviceKey)) {
          const owner = deviceKey === '' ? null : ((await sink.findDevice?.(protocol.name, deviceKey)) ?? null);
          // Only the retranslator's own account: another's vehicle is answered as no vehicle at all.
          const digest = deviceKeyDigest(deviceKey);
          objects.set(deviceKey, owner && owner.accountId === accountId ? bound(owner, digest) : null);
          if (!objects.get(deviceKey)) logger.warn({ ...context(), device: digest }, 'retranslated object refused: not a vehicle of the account');
        }
        return objects.get(deviceKey) !== null;
      },
      async store(records) {
        if (retranslator) return storeRetranslated(retranslator, records);
        if (!device) throw new Error('records from a terminal that has not identified itself');
        const fixes = toFixes(records, device.subscriberId, device.map, clock());
        if (fixes.length < records.length) logger.warn({ ...context(), dropped: records.length - fixes.length }, 'implausible records dropped');
        if (fixes.length > 0) await sink.ingest(device.accountId, fixes);
      },
      send(bytes) {
        if (!closed) socket.write(bytes);
      },
      now: clock,
      close,
      warn(message, details = {}) {
        logger.warn({ ...context(), ...details }, message);
      },
    };

    /** A retranslator's records, each as a fix of the vehicle it names (found by `findObject` before). */
    const storeRetranslated = async (from: { accountId: number; objects: Map<string, BoundDevice | null> }, records: TrackerRecord[]) => {
      const now = clock();
      const fixes: Fix[] = [];
      for (const record of records) {
        const object = record.deviceKey === undefined ? null : from.objects.get(record.deviceKey);
        if (!object) throw new Error('a retranslated record of a vehicle not found first');
        fixes.push(...toFixes([record], object.subscriberId, object.map, now));
      }
      if (fixes.length < records.length) logger.warn({ ...context(), dropped: records.length - fixes.length }, 'implausible records dropped');
      if (fixes.length > 0) await sink.ingest(from.accountId, fixes);
    };
    const session = protocol.open(connection);

    const drain = async () => {
      draining = true;
      socket.pause();
      try {
        while (!closed) {
          const length = protocol.frameLength(buffer);
          if (length < 0) return close('bytes that cannot start a frame');
          if (length > maxFrameBytes || (length === 0 && buffer.length > maxFrameBytes)) return close('frame too large');
          if (length === 0 || buffer.length < length) break;
          const frame = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          await session.handle(frame);
        }
      } catch (error) {
        // Nothing was acknowledged: the tracker keeps its data and sends it again on a new connection.
        logger.error({ ...context(), err: error }, 'tracker frame failed; connection dropped');
        closed = true;
        socket.destroy();
      } finally {
        draining = false;
        if (!closed) socket.resume();
      }
    };

    socket.setNoDelay(true);
    // A connection already closing whose peer reads nothing would never finish ending: drop it.
    socket.setTimeout(idleTimeoutMs, () => (closed ? socket.destroy() : close('idle timeout')));
    socket.on('error', (error) => logger.info({ ...context(), err: error.message }, 'tracker connection error'));
    socket.on('close', () => {
      closed = true;
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      if (!draining) void drain();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ protocol: protocol.name, err: error }, 'tracker listener error'));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The records as fixes of the employee, leaving out what no map can make plausible. */
function toFixes(records: TrackerRecord[], subscriberId: number, map: ReadingMap, nowMs: number): Fix[] {
  // A loop, not flatMap with a spread: no array and no second object per record on the tracker thread.
  const fixes: Fix[] = [];
  for (const record of records) {
    const plausible =
      Number.isFinite(record.timeMs) &&
      record.timeMs <= nowMs + MAX_FUTURE_MS &&
      Math.abs(record.latitude) <= 90 &&
      Math.abs(record.longitude) <= 180 &&
      Number.isFinite(record.speedKmh) &&
      record.speedKmh >= 0;
    if (!plausible) continue;
    const readings = applyReadingMap(record.readings, map);
    fixes.push({
      subscriberId,
      locationDateMs: record.timeMs,
      isValid: record.isValid,
      latitude: record.latitude,
      longitude: record.longitude,
      // Whole degrees, as the interface's angle and its integer column: Wialon courses such as 292.540 come with decimals.
      angle: Math.round(((record.angle % 360) + 360) % 360) % 360,
      velocityKmh: record.speedKmh,
      fuelLevel: readings.fuelLevel,
      ignition: readings.ignition,
      externalPower: readings.externalPower,
      odometer: readings.odometer,
      engineHours: readings.engineHours,
      sensors: readings.sensors,
    });
  }
  return fixes;
}
