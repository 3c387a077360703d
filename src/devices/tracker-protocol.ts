import type { TrackerRecord } from './tracker-record.js';

/** What a protocol's dialogue may do on its connection; the listener (tracker-server.ts) provides it. */
export interface TrackerConnection {
  /**
   * Looks the terminal up by the device keys it names, most specific first (EGTS: its IMEI, then
   * its terminal id). True when an employee has one of them; the connection is then bound to that
   * employee for good. A terminal none of whose keys is known counts as one unknown key toward
   * its address's throttle, however many it named, and is logged once.
   */
  identify(deviceKeys: readonly string[]): Promise<boolean>;
  /**
   * `identify` with the password the terminal's login carries (null: none, or the protocol's "no
   * password"), for protocols whose login has one: `accepted` binds the connection as `identify`
   * does; `password-required` (none given) and `wrong-password` say the key is known but its
   * device password was not given, and count toward the address's throttle as an unknown key
   * does. Call it once per login, with the password when the protocol carries one.
   */
  login(deviceKeys: readonly string[], password: string | null): Promise<LoginOutcome>;
  /**
   * Authenticates a retranslator (another platform relaying many vehicles) by the dispatcher id
   * and password an account configured. True binds the connection to that account: records then
   * name their vehicle (`TrackerRecord.deviceKey`), found by `findObject`.
   */
  identifyRetranslator(dispatcherId: number, password: string): Promise<boolean>;
  readonly retranslating: boolean;
  /**
   * In a retranslator's connection: whether this device key is a vehicle of its account heard on
   * this protocol (a device password does not matter: the retranslator proved the account's own
   * credentials). Answers are kept for the connection.
   */
  findObject(deviceKey: string): Promise<boolean>;
  /** A terminal or a retranslator was identified. */
  readonly identified: boolean;
  /**
   * Stores the records of the identified terminal (or, from a retranslator, of the vehicles
   * `findObject` found), in order, and resolves only after they committed: the dialogue
   * acknowledges after this and never before. Rejects when they were not stored (the listener
   * then drops the connection unanswered, and the tracker sends again).
   */
  store(records: TrackerRecord[]): Promise<void>;
  send(bytes: Buffer | string): void;
  /** The server's clock (a Wialon record dated NA takes the time of arrival). */
  now(): number;
  /** Ends the connection once what was sent has gone out; no further frame is handled. */
  close(reason: string): void;
  /** A line in the server's log about this connection (never with a device key in clear). */
  warn(message: string, details?: Record<string, unknown>): void;
}

/** What a terminal's login came to (EmployeeService.authenticateDevice's outcomes). */
export type LoginOutcome = 'accepted' | 'unknown' | 'password-required' | 'wrong-password';

/** A dialogue with one connected terminal: the state a protocol keeps between frames. */
export interface TrackerSession {
  /** One whole frame; the listener hands frames over one at a time, in arrival order. */
  handle(frame: Buffer): Promise<void>;
}
