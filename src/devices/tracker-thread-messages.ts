import type { KeyGuessLimits } from '../http/key-guess-throttle.js';
import type { Fix } from '../positioning/positioning.js';
import type { CommitSequence } from '../store/commit-sequence.js';
import type { DeviceProtocol } from './protocols.js';
import type { TrackerDevice, TrackerLogin, TrackerRetranslator } from './tracker-server.js';

/**
 * What the tracker thread (tracker-thread.ts) and its main-thread side (tracker-listeners.ts) tell
 * each other. The fixes of many frames travel together in one message, packed as numbers into one
 * transferred buffer (`packFixes`): copying an object per fix between threads cost the main thread
 * more than the framing it was moved off.
 */

export interface TrackerThreadData {
  /** TCP protocols (protocols.ts) by name, each with its port (0: a free one). */
  listeners: { protocol: DeviceProtocol; port: number }[];
  host: string;
  idleTimeoutMs: number;
  keyGuessLimits?: KeyGuessLimits;
  /** The ingest port's durability channel, or null: a commit is durable once it returns. */
  durabilityChannel: string | null;
  /** ingestBounds.trackerHandOverNumbers. */
  handOverNumbers: number;
}

export type LogLevel = 'info' | 'warn' | 'error';

/** Each request of an `ingest` message takes three numbers: its id, the account, how many fixes it packed. */
export const INGEST_FIELDS = 3;

/**
 * What the thread asks the main thread for a retranslator's session: the retranslator a dispatcher
 * id and password name, or a vehicle by its key (TrackerSink.authenticateRetranslator,
 * findDevice); the answer is it or null. The password goes no further than the check.
 */
export type TrackerQuestion =
  | { kind: 'retranslator'; dispatcherId: number; password: string }
  | { kind: 'device'; protocol: DeviceProtocol; deviceKey: string };

export type FromTrackerThread =
  | { type: 'listening'; ports: Partial<Record<DeviceProtocol, number>> }
  | { type: 'listen-failed'; message: string }
  /** A terminal's login (TrackerSink.authenticateDevice); the password never goes into a log message. */
  | { type: 'resolve'; id: number; protocol: DeviceProtocol; deviceKey: string; password: string | null; address: string | null }
  | { type: 'ask'; id: number; question: TrackerQuestion }
  /** `requests`: id, account, fix count for each; `fixes`: their fixes one after the other (`packFixes`). */
  | { type: 'ingest'; requests: number[]; fixes: Float64Array }
  | { type: 'log'; level: LogLevel; object: object; message: string }
  | { type: 'closed' };

export type ToTrackerThread =
  | { type: 'resolved'; id: number; login: TrackerLogin; error?: string }
  | { type: 'answered'; id: number; answer: TrackerDevice | TrackerRetranslator | null; error?: string }
  /**
   * `stored`: the requests whose fixes committed, to be acknowledged once `commit` (the latest of
   * their commits) is on disk; `failed`: those that were not stored, with why.
   */
  | { type: 'ingested'; stored: number[]; commit: CommitSequence; failed: [id: number, message: string][] }
  | { type: 'close' };

/** Numbers before a fix's sensors: subscriber, time, valid, latitude, longitude, angle, speed, the five readings, sensor count. */
const FIXED_FIELDS = 13;

/** null as NaN (no reading is NaN: the reading maps keep finite values only), booleans as 1 and 0. */
const fromNullable = (value: number | null) => (value === null ? Number.NaN : value);
const fromSwitch = (value: boolean | null) => (value === null ? Number.NaN : value ? 1 : 0);
const toNullable = (value: number) => (Number.isNaN(value) ? null : value);
const toSwitch = (value: number) => (Number.isNaN(value) ? null : value === 1);

/**
 * Numbers written one after the other into a buffer that is kept and grows by doubling; `take`
 * copies out the ones written (to be transferred) and starts again. A plain array grown anew for
 * every hand-over was an eighth of the tracker thread's allocations in a burst.
 */
export class PackedNumbers {
  private values = new Float64Array(1024);
  private length = 0;

  get size(): number {
    return this.length;
  }

  add(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  take(): Float64Array {
    const taken = this.values.slice(0, this.length);
    this.length = 0;
    return taken;
  }
}

/** Appends the fixes to `into` as numbers; `unpackFixes` reads them back. */
export function packFixes(fixes: readonly Fix[], into: PackedNumbers): void {
  for (const fix of fixes) {
    into.add(fix.subscriberId);
    into.add(fix.locationDateMs);
    into.add(fix.isValid ? 1 : 0);
    into.add(fix.latitude);
    into.add(fix.longitude);
    into.add(fix.angle);
    into.add(fix.velocityKmh);
    into.add(fromNullable(fix.fuelLevel));
    into.add(fromSwitch(fix.ignition));
    into.add(fromSwitch(fix.externalPower));
    into.add(fromNullable(fix.odometer));
    into.add(fromNullable(fix.engineHours));
    into.add(fix.sensors === null ? -1 : fix.sensors.length);
    for (const sensor of fix.sensors ?? []) {
      into.add(sensor.sensorID);
      into.add(sensor.value);
    }
  }
}

/** `count` fixes packed by `packFixes`, from `offset`; the offset after them. */
export function unpackFixes(values: Float64Array, offset: number, count: number): { fixes: Fix[]; next: number } {
  const fixes: Fix[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    const sensorCount = values[at + 12]!;
    const fix: Fix = {
      subscriberId: values[at]!,
      locationDateMs: values[at + 1]!,
      isValid: values[at + 2] === 1,
      latitude: values[at + 3]!,
      longitude: values[at + 4]!,
      angle: values[at + 5]!,
      velocityKmh: values[at + 6]!,
      fuelLevel: toNullable(values[at + 7]!),
      ignition: toSwitch(values[at + 8]!),
      externalPower: toSwitch(values[at + 9]!),
      odometer: toNullable(values[at + 10]!),
      engineHours: toNullable(values[at + 11]!),
      sensors: sensorCount < 0 ? null : [],
    };
    at += FIXED_FIELDS;
    for (let s = 0; s < sensorCount; s++, at += 2) fix.sensors!.push({ sensorID: values[at]!, value: values[at + 1]! });
    fixes.push(fix);
  }
  return { fixes, next: at };
}

/** The offset after `count` fixes packed from `offset`. */
export function skipFixes(values: Float64Array, offset: number, count: number): number {
  let at = offset;
  for (let i = 0; i < count; i++) at += FIXED_FIELDS + 2 * Math.max(0, values[at + 12]!);
  return at;
}
