import type { Database } from '../store/database.js';
import { heardBy, verifyDevicePassword, type DeviceProtocol } from './device-identity.js';
import type { VehicleSettings } from './employee-schema.js';
import * as store from './employee-store.js';

/** A living employee found by the key its phone or tracker sends. */
export interface DeviceOwner {
  accountId: number;
  subscriberId: number;
  /** vehicleSettings.readingMap: how a native tracker's inputs become readings (null: its protocol's defaults). */
  readingMap: VehicleSettings['readingMap'] | null;
}

/**
 * What a listener's login of a terminal comes to (`authenticateDevice`): `unknown` when no living
 * employee has the key for this protocol; `password-required` when the employee has a device
 * password and the login gave none; `wrong-password` when it gave another.
 */
export type DeviceLogin =
  | { outcome: 'accepted'; owner: DeviceOwner }
  | { outcome: 'unknown' }
  | { outcome: 'password-required' }
  | { outcome: 'wrong-password' };

/** A device key as read: its owner, the listener that hears it (null: every one) and the password's hash. */
interface DeviceEntry {
  owner: DeviceOwner;
  protocol: DeviceProtocol | null;
  passwordHash: string | null;
}

/** Device keys whose owner is remembered; past this, the memory starts afresh. */
const MAX_CACHED_DEVICE_KEYS = 100_000;
/** Device keys looked up in one statement at most. */
const KEYS_PER_READ = 500;

/** Device keys to their living owners: the OsmAnd port's lookup, its cache, and the tracker listeners' logins. */
export class DeviceKeys {
  /** Device key → living owner, as last read; see `findByDeviceKeyCached`. */
  private readonly owners = new Map<string, DeviceOwner>();
  /** Keys asked for in this turn of the event loop, read together once it ends (see `findByDeviceKey`). */
  private keysToRead = new Map<string, { resolve: (entry: DeviceEntry | null) => void; reject: (error: unknown) => void }[]>();
  private keysReadScheduled = false;

  /** Accepted logins not yet written: employee → where from and when (see `noteConnection`). */
  private connections = new Map<number, { accountId: number; address: string; atMs: number }>();
  private connectionsWriteScheduled = false;

  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The living employee whose device key a phone sends on the OsmAnd port (a key without a
   * protocol, or `osmand`'s; a tracker's is not a phone's), read afresh. The keys asked for in one turn of
   * the event loop are read together, in one statement once the turn's I/O is done: after a
   * restart, or when a fleet comes online, every phone's first fix and every tracker's login asks
   * for its key at once, and a read each cost PostgreSQL a round trip each.
   */
  async findByDeviceKey(deviceKey: string): Promise<DeviceOwner | null> {
    const entry = await this.readDeviceKey(deviceKey);
    return entry && heardBy(entry.protocol, 'osmand') ? entry.owner : null;
  }

  /**
   * The login of a terminal on `protocol`'s listener, by the identifier it sends and the password
   * its login carries (null: none, or the protocol's "no password"). A key registered for another
   * protocol is unknown here; a key without a protocol is heard by every listener. With a device
   * password set, the login must carry it. Read afresh (batched as `findByDeviceKey`); never
   * logs, and its answer names neither the key nor the password.
   */
  async authenticateDevice(protocol: DeviceProtocol, identifier: string, password: string | null, address: string | null = null): Promise<DeviceLogin> {
    const entry = identifier === '' ? null : await this.readDeviceKey(identifier);
    if (!entry || !heardBy(entry.protocol, protocol)) return { outcome: 'unknown' };
    const accepted = (): DeviceLogin => {
      if (address) this.noteConnection(entry.owner, address);
      return { outcome: 'accepted', owner: entry.owner };
    };
    if (entry.passwordHash === null) return accepted();
    if (password === null || password === '') return { outcome: 'password-required' };
    return (await verifyDevicePassword(password, entry.passwordHash)) ? accepted() : { outcome: 'wrong-password' };
  }

  /**
   * Remembers where an accepted login came from, written with the others of this turn of the
   * event loop once it ends: the login does not wait for it, and a fleet logging in again after an
   * outage costs one transaction, not one per terminal. A failed write loses only this bookkeeping.
   */
  private noteConnection(owner: DeviceOwner, address: string): void {
    this.connections.set(owner.subscriberId, { accountId: owner.accountId, address, atMs: this.clock() });
    if (this.connectionsWriteScheduled) return;
    this.connectionsWriteScheduled = true;
    setImmediate(() => {
      const noted = this.connections;
      this.connections = new Map();
      this.connectionsWriteScheduled = false;
      void this.database
        .transaction(async (tx) => {
          for (const [id, { accountId, address, atMs }] of noted) await store.recordDeviceConnection(tx, accountId, id, address, atMs);
        })
        .catch(() => {});
    });
  }


  /**
   * The owner of a device key heard on `protocol`'s listener, whatever its device password: for a
   * retranslator's records (the EGTS listener checks the owner is of the retranslator's account,
   * whose own credentials it proved). Read as `authenticateDevice` reads.
   */
  async findDeviceOwner(protocol: DeviceProtocol, identifier: string): Promise<DeviceOwner | null> {
    const entry = identifier === '' ? null : await this.readDeviceKey(identifier);
    return entry && heardBy(entry.protocol, protocol) ? entry.owner : null;
  }

  private readDeviceKey(deviceKey: string): Promise<DeviceEntry | null> {
    return new Promise((resolve, reject) => {
      const waiting = this.keysToRead.get(deviceKey);
      if (waiting) waiting.push({ resolve, reject });
      else this.keysToRead.set(deviceKey, [{ resolve, reject }]);
      if (!this.keysReadScheduled) {
        this.keysReadScheduled = true;
        setImmediate(() => void this.readKeys());
      }
    });
  }

  private async readKeys(): Promise<void> {
    const asked = this.keysToRead;
    this.keysToRead = new Map();
    this.keysReadScheduled = false;
    try {
      const owners = new Map<string, DeviceEntry>();
      const keys = [...asked.keys()];
      for (let i = 0; i < keys.length; i += KEYS_PER_READ) {
        for (const row of await store.findByDeviceKeys(this.database.db, this.database, keys.slice(i, i + KEYS_PER_READ))) {
          const { readingMap } = JSON.parse(row.vehicle_settings) as VehicleSettings;
          owners.set(row.device_key, {
            owner: { accountId: row.account_id, subscriberId: row.id, readingMap: readingMap ?? null },
            protocol: row.device_protocol as DeviceProtocol | null,
            passwordHash: row.device_password,
          });
        }
      }
      for (const [key, waiting] of asked) for (const { resolve } of waiting) resolve(owners.get(key) ?? null);
    } catch (error) {
      for (const waiting of asked.values()) for (const { reject } of waiting) reject(error);
    }
  }

  /**
   * `findByDeviceKey` without a round trip for a device seen before: the answer may be stale when
   * another server changed the employee since, so it is only for ingestion, whose transaction
   * reads the employee anyway and refuses a fix whose key is no longer theirs (IngestTarget).
   * Changes made through this server forget the keys they touch at once. Unknown keys are not
   * remembered.
   */
  async findByDeviceKeyCached(deviceKey: string): Promise<DeviceOwner | null> {
    const cached = this.owners.get(deviceKey);
    if (cached) return cached;
    const owner = await this.findByDeviceKey(deviceKey);
    if (owner) {
      if (this.owners.size >= MAX_CACHED_DEVICE_KEYS) this.owners.clear();
      this.owners.set(deviceKey, owner);
    }
    return owner;
  }

  /** Drops what `findByDeviceKeyCached` remembers of this key (found stale, or changed). */
  forget(deviceKey: string): void {
    this.owners.delete(deviceKey);
  }
}
