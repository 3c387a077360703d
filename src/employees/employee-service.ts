import type { Account, AccountService, Principal } from '../accounts/accounts.js';
import type { CustomFieldService } from '../customfields/customfields.js';
import { ApiError } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import type { ChangeRecorder } from '../events/events.js';
import { EmployeeChanges, type EmployeeChange } from './employee-changes.js';
import { EmployeePresence, type PresenceOptions, type PresenceRow } from './employee-presence.js';
import { hashDevicePassword, heardBy, verifyDevicePassword, type DeviceProtocol } from './device-identity.js';
import { buildEmployee, fromRow, patchEmployee, toRow } from './employee-rows.js';
import type { Employee, EmployeeListQuery, EmployeePatch, EmployeeWrite, VehicleSettings } from './employee-schema.js';
import * as store from './employee-store.js';
import { SubscriberGroupService } from './subscriber-group-service.js';

export type { CarriedEmployee, EmployeeChange } from './employee-changes.js';

/** An employee as ingestion needs it (see `ingestTargetsOf`). */
export interface IngestTarget {
  vehicleSettings: VehicleSettings;
  presence: PresenceRow;
  /** The key the employee's device sends now: a frame sent with another key is not theirs (any more). */
  deviceKey: string | null;
}

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

export interface EmployeeIdentity {
  name: string;
  externalSubscriberID: string | null;
  living: boolean;
}

/** Device keys whose owner is remembered; past this, the memory starts afresh. */
const MAX_CACHED_DEVICE_KEYS = 100_000;
/** Device keys looked up in one statement at most. */
const KEYS_PER_READ = 500;

const notFound = (id: number | string) => new ApiError('NO_SUCH_SUBSCRIBER', `no subscriber ${id}`);

export class EmployeeService {
  /** isOnline (interface 2.9): turned on by arriving fixes, off by silence; see EmployeePresence. */
  readonly presence: EmployeePresence;
  private readonly changes: EmployeeChanges;
  /** Employee groups: their routes, and the check of an employee's subscriberGroupID. */
  readonly groups: SubscriberGroupService;
  /** Device key → living owner, as last read; see `findByDeviceKeyCached`. */
  private readonly deviceOwners = new Map<string, DeviceOwner>();
  /** Keys asked for in this turn of the event loop, read together once it ends (see `findByDeviceKey`). */
  private keysToRead = new Map<string, { resolve: (entry: DeviceEntry | null) => void; reject: (error: unknown) => void }[]>();
  private keysReadScheduled = false;

  constructor(
    private readonly database: Database,
    accounts: AccountService,
    events: ChangeRecorder,
    private readonly clock: () => number = Date.now,
    presence: PresenceOptions = {},
    private readonly templates: CustomFieldService | null = null,
  ) {
    this.changes = new EmployeeChanges(events, clock, (change) => {
      // A key an employee had or got no longer answers from the cache: the next fix reads it afresh.
      // A change that leaves the owner as cached (isOnline turning with the fixes, a new name) keeps
      // it: a fleet's first fixes each turn an employee online, and forgetting their keys then
      // cost every phone a second lookup.
      if (!changesDeviceOwner(change)) return;
      if (change.type !== 'add' && change.before.deviceKey) this.deviceOwners.delete(change.before.deviceKey);
      if (change.type !== 'delete' && change.after.deviceKey) this.deviceOwners.delete(change.after.deviceKey);
    });
    this.groups = new SubscriberGroupService(database, clock);
    this.presence = new EmployeePresence(database, accounts, clock, presence, this.changes);
  }

  /** Fixes arrived for these employees, in the ingest transaction: see `EmployeePresence.fixesArrived`. */
  fixesArrived(tx: Tx, account: Account, targets: ReadonlyMap<number, IngestTarget>, atMs: number): Promise<void> {
    return this.presence.fixesArrived(tx, account, [...targets.values()].map((t) => t.presence), atMs);
  }

  async list(account: Account, query: EmployeeListQuery): Promise<Employee[]> {
    // Without `count`, every employee (SQLite takes OFFSET only after a LIMIT; -1 is its "no limit").
    const limit = query.count !== undefined || query.offset ? (query.count ?? (this.database.dialect === 'sqlite' ? -1 : Number.MAX_SAFE_INTEGER)) : null;
    const rows = await store.listEmployees(this.database.db, account.id, {
      isActive: query.isActive,
      ids: query.subscriberIDs,
      groupIds: query.subscriberGroupIDs,
      limit,
      offset: query.offset ?? 0,
    });
    const employees = rows.map(fromRow);
    if (query.withCustomTemplateItems === false) for (const e of employees) delete e.customFieldFormItems;
    return employees;
  }

  async get(account: Account, subscriberID: number): Promise<Employee> {
    const row = await store.findEmployee(this.database.db, account.id, subscriberID);
    if (!row) throw notFound(subscriberID);
    return fromRow(row);
  }

  async getByExternalId(account: Account, externalID: string): Promise<Employee> {
    const row = await store.findEmployeeByExternalId(this.database.db, account.id, externalID);
    if (!row) throw notFound(externalID);
    return fromRow(row);
  }

  async create(principal: Principal, input: EmployeeWrite): Promise<Employee> {
    const account = principal.account;
    const draft = buildEmployee(0, input, null);
    const password = await passwordColumn(input.devicePassword);
    return this.database.transaction(async (tx) => {
      await this.checkReferences(tx, account, draft, null);
      const now = this.clock();
      const id = await this.writeGuarded(() => store.insertEmployee(tx, account.id, { ...toRow(draft), ...password }, now));
      const after = { ...draft, subscriberID: id };
      await this.changes.commit(tx, account, [{ type: 'add', after }], { userID: principal.userID });
      return after;
    });
  }

  async replace(principal: Principal, subscriberID: number, input: EmployeeWrite): Promise<void> {
    await this.update(principal, subscriberID, (before) => buildEmployee(subscriberID, input, before), input.devicePassword);
  }

  async patch(principal: Principal, subscriberID: number, input: EmployeePatch): Promise<void> {
    await this.update(principal, subscriberID, (before) => patchEmployee(before, input), input.devicePassword);
  }

  async delete(principal: Principal, subscriberID: number): Promise<void> {
    const account = principal.account;
    await this.database.transaction(async (tx) => {
      const before = await this.lockLiving(tx, account, subscriberID);
      await store.markEmployeeDeleted(tx, account.id, subscriberID, this.clock());
      await this.changes.commit(tx, account, [{ type: 'delete', before }], { userID: principal.userID });
    });
  }

  /**
   * Vehicle settings of the living employees among `ids` of this account, read in the caller's
   * transaction; an id missing from the answer is not one of the account's employees.
   */
  async vehicleSettingsOf(executor: Db, accountId: number, ids: number[]): Promise<Map<number, VehicleSettings>> {
    if (ids.length === 0) return new Map();
    const rows = await store.vehicleSettingsRows(executor, accountId, ids);
    return new Map(rows.map((r) => [r.id, JSON.parse(r.vehicle_settings) as VehicleSettings]));
  }

  /**
   * What ingestion needs of the living employees among `ids`, in one read of the ingest
   * transaction: vehicle settings for the pipeline, presence for isOnline. An id missing from the
   * answer is unknown, deleted or another account's.
   */
  async ingestTargetsOf(tx: Tx, accountId: number, ids: number[]): Promise<Map<number, IngestTarget>> {
    if (ids.length === 0) return new Map();
    const rows = await store.ingestTargetRows(tx, this.database, accountId, ids);
    return new Map(
      rows.map((r) => [
        r.id,
        { vehicleSettings: JSON.parse(r.vehicle_settings) as VehicleSettings, presence: { id: r.id, is_online: r.is_online, seen_at: r.seen_at }, deviceKey: r.device_key },
      ]),
    );
  }

  /** The account's living employees, ascending, or those of `ids` that are living. */
  livingIds(executor: Db, accountId: number, ids?: readonly number[]): Promise<number[]> {
    return store.livingIds(executor, accountId, ids);
  }

  /**
   * Name and external id of the account's employees among `ids`, read in the caller's transaction;
   * `living` is false for a deleted one (it keeps its name; its external id is freed).
   */
  async identitiesOf(executor: Db, accountId: number, ids: number[]): Promise<Map<number, EmployeeIdentity>> {
    if (ids.length === 0) return new Map();
    const rows = await store.identityRows(executor, accountId, ids);
    return new Map(rows.map((r) => [r.id, { name: r.name, externalSubscriberID: r.external_id, living: r.deleted_at === null }]));
  }

  /**
   * The living employee whose device key this is, read afresh. The keys asked for in one turn of
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
  async authenticateDevice(protocol: DeviceProtocol, identifier: string, password: string | null): Promise<DeviceLogin> {
    const entry = identifier === '' ? null : await this.readDeviceKey(identifier);
    if (!entry || !heardBy(entry.protocol, protocol)) return { outcome: 'unknown' };
    if (entry.passwordHash === null) return { outcome: 'accepted', owner: entry.owner };
    if (password === null || password === '') return { outcome: 'password-required' };
    return (await verifyDevicePassword(password, entry.passwordHash)) ? { outcome: 'accepted', owner: entry.owner } : { outcome: 'wrong-password' };
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
    const cached = this.deviceOwners.get(deviceKey);
    if (cached) return cached;
    const owner = await this.findByDeviceKey(deviceKey);
    if (owner) {
      if (this.deviceOwners.size >= MAX_CACHED_DEVICE_KEYS) this.deviceOwners.clear();
      this.deviceOwners.set(deviceKey, owner);
    }
    return owner;
  }

  /** Drops what `findByDeviceKeyCached` remembers of this key (found stale). */
  forgetDeviceKey(deviceKey: string): void {
    this.deviceOwners.delete(deviceKey);
  }

  private async update(principal: Principal, subscriberID: number, change: (before: Employee) => Employee, devicePassword: string | null | undefined): Promise<void> {
    const account = principal.account;
    // Hashed before the transaction: scrypt takes tens of milliseconds, no lock waits for it.
    const password = await passwordColumn(devicePassword);
    await this.database.transaction(async (tx) => {
      const before = await this.lockLiving(tx, account, subscriberID);
      const after = change(before);
      await this.checkReferences(tx, account, after, before);
      await this.writeGuarded(() => store.updateEmployee(tx, account.id, subscriberID, { ...toRow(after), ...password }, this.clock()));
      await this.changes.commit(tx, account, [{ type: 'edit', before, after }], { userID: principal.userID });
    });
  }

  /** The group and custom-field template an employee names exist in the account, checked when they change (400 code 2). */
  private async checkReferences(tx: Tx, account: Account, after: Employee, before: Employee | null): Promise<void> {
    if (after.subscriberGroupID !== null && after.subscriberGroupID !== before?.subscriberGroupID) {
      await this.groups.checkExists(tx, account.id, after.subscriberGroupID);
    }
    const use = (e: Employee) => ({ templateID: e.customFieldsFormTemplateID, items: e.customFieldFormItems });
    await this.templates?.checkUse(tx, account.id, use(after), before && use(before));
  }

  private async lockLiving(tx: Tx, account: Account, subscriberID: number): Promise<Employee> {
    const row = await store.findEmployee(tx, account.id, subscriberID, this.database.dialect === 'postgres');
    if (!row) throw notFound(subscriberID);
    return fromRow(row);
  }

  /** Unique indexes turn into the contract's conflicts: 409 code 4 for external ids, 1008 for device keys. */
  private async writeGuarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'external_id', 'subscribers_external_id')) {
        throw new ApiError('SUBSCRIBER_EXTERNAL_ID_EXISTS', 'externalSubscriberID is already used by another subscriber', {
          externalSubscriberID: 'already used by another subscriber',
        });
      }
      if (isUniqueViolation(error, 'device_key', 'subscribers_device_key')) {
        throw new ApiError('CONFLICT', 'deviceKey is already in use', { deviceKey: 'already in use' });
      }
      throw error;
    }
  }
}

/** Whether a change can alter what `findByDeviceKeyCached` answers for a key: the key, the employee, or its reading map. */
function changesDeviceOwner(change: EmployeeChange): boolean {
  if (change.type !== 'edit') return true;
  const { before, after } = change;
  return before.deviceKey !== after.deviceKey || before.deviceProtocol !== after.deviceProtocol || JSON.stringify(before.vehicleSettings) !== JSON.stringify(after.vehicleSettings);
}

/** The device password's column as a write sets it: its hash, null to clear it, nothing when the request does not name it. */
async function passwordColumn(password: string | null | undefined): Promise<{ device_password?: string | null }> {
  if (password === undefined) return {};
  return { device_password: password === null ? null : await hashDevicePassword(password) };
}
