import type { ReadingMap } from './reading-map.js';
import type { TrackerConnection, TrackerSession } from './tracker-protocol.js';

/**
 * What Lokator knows of one device protocol, in one object (`src/devices/<protocol>/`), listed
 * once in `protocols.ts`. The list drives everything that differs by protocol: the port settings
 * (config.ts), the listeners (a thread per transport, tracker-listeners.ts and http-listener.ts),
 * the form of a device key and password (employees), the workspace's connection settings and the
 * protocol table of docs/operators/trackers.md. A definition imports nothing outside src/devices/
 * and the kernel (.dependency-cruiser.mjs), so every module may read the list.
 */
interface ProtocolBase<Name extends string, Setting extends string> {
  /** The employee's `deviceProtocol` in the API and the workspace; the listener's name in logs. */
  readonly name: Name;
  /** As people write it: the workspace's choice of protocol, the docs. */
  readonly label: string;
  readonly port: {
    /** The environment variable of the listener's port; 0 switches the listener off. */
    readonly setting: Setting;
    /** The port Traccar uses for it: a terminal set up for Traccar needs only the host changed. */
    readonly default: number;
    /** The setting's line in `loadConfig`'s errors and in docs/operators/configuration.md. */
    readonly doc: string;
  };
  readonly deviceKey: {
    /** Why `key` cannot be a device key heard on this protocol, or null when it can. */
    problem(key: string): string | null;
    /** What the key is for this protocol, under the key field of the workspace, per language. */
    readonly hint: { readonly en: string; readonly ru: string };
  };
  /** A login that carries a password (checked when the employee has one): why a password does not suit it, or null. Null: the protocol carries none. */
  readonly password: { problem(password: string): string | null } | null;
  /** How the protocol's inputs become Lokator's readings, before an employee's own map (reading-map.ts). */
  readonly defaultReadingMap: ReadingMap;
}

/** A protocol of terminals that keep a TCP connection: the listener frames the stream and runs a session per connection. */
export interface TcpDeviceProtocol<Name extends string = string, Setting extends string = string> extends ProtocolBase<Name, Setting> {
  readonly transport: 'tcp';
  /** The largest frame a terminal of this protocol legitimately sends; bigger ones close the connection. */
  readonly maxFrameBytes: number;
  /**
   * The length of the frame at the head of `buffer`: 0 while it is incomplete, -1 when these bytes
   * cannot start a frame of this protocol (the connection is then closed: its framing is lost).
   */
  frameLength(buffer: Buffer): number;
  /** The dialogue with one connected terminal. */
  open(connection: TrackerConnection): TrackerSession;
}

/** A protocol of one fix per HTTP request, any path (http-listener.ts). */
export interface HttpDeviceProtocol<Name extends string = string, Setting extends string = string> extends ProtocolBase<Name, Setting> {
  readonly transport: 'http';
  /**
   * One request's fix from its query string or its body (JSON parsed, anything else parsed as a
   * form); throws DeviceRequestError naming what is wrong (a 400).
   */
  decode(query: Record<string, unknown>, body: unknown, nowMs: number): HttpDeviceFix;
}

/** The fix one HTTP request carries, with the device key it was sent with. */
export interface HttpDeviceFix {
  deviceKey: string;
  locationDateMs: number;
  isValid: boolean;
  latitude: number;
  longitude: number;
  /** Whole degrees from north, clockwise. */
  angle: number;
  velocityKmh: number;
  /** The inputs the request carried, by the protocol's names, for the default reading map. */
  readings: Record<string, number>;
  /** The receiver's estimate of its error, metres; null when not sent. */
  accuracyM: number | null;
}

export type DeviceProtocolDefinition<Name extends string = string, Setting extends string = string> = TcpDeviceProtocol<Name, Setting> | HttpDeviceProtocol<Name, Setting>;

/** A request an HTTP protocol cannot take a fix from: answered 400 with this message. */
export class DeviceRequestError extends Error {}

/** A device password of 1 to 32 printable characters: what a terminal's login field holds. */
export function printablePasswordProblem(password: string): string | null {
  return /^[\x21-\x7e]{1,32}$/.test(password) ? null : 'must be 1 to 32 printable characters (no spaces)';
}
