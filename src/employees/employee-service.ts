import type { Account, AccountReader, Principal } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import { ApiError } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import { initiatorOf, type ChangeRecorder } from '../events/events.js';
import { EmployeeChanges, type EmployeeChange } from './employee-changes.js';
import { EmployeePresence, type PresenceRow } from './employee-presence.js';
import { hashDevicePassword, type DeviceProtocol } from './device-identity.js';
import { DeviceKeys, type DeviceLogin, type DeviceOwner } from './device-keys.js';
import { buildEmployee, fromRow, patchEmployee, toRow } from './employee-rows.js';
import type { Employee, EmployeeListQuery, EmployeePatch, EmployeeWrite, VehicleSettings } from './employee-schema.js';
import * as store from './employee-store.js';
import { SubscriberGroupService } from './subscriber-group-service.js';

export type { CarriedEmployee, EmployeeChange } from './employee-changes.js';
export type { DeviceLogin, DeviceOwner } from './device-keys.js';

/** An employee as ingestion needs it (see `ingestTargetsOf`). */
export interface IngestTarget {
  vehicleSettings: VehicleSettings;
  presence: PresenceRow;
  /** The key the employee's device sends now: a frame sent with another key is not theirs (any more). */
  deviceKey: string | null;
}

export interface EmployeeIdentity {
  name: string;
  externalSubscriberID: string | null;
  living: boolean;
}

const notFound = (id: number | string) => new ApiError('NO_SUCH_SUBSCRIBER', `no subscriber ${id}`);

export interface EmployeeServiceOptions {
  database: Database;
  /** The presence flips read the account they belong to. */
  accounts: Pick<AccountReader, 'get'>;
  /** Where every change becomes its change event (interface 6.5). */
  events: ChangeRecorder;
  clock?: () => number;
  /** ONLINE_TIMEOUT: isOnline turns false after this long without fixes. */
  onlineTimeoutMs?: number;
  /** Checks the custom-field template and values an employee names; none: not checked. */
  templates?: CustomFieldTemplates | null;
  /** Where the changes made through the routes are logged, in their transaction. */
  audit?: AuditRecorder;
}

export class EmployeeService {
  /** isOnline (interface 2.9): turned on by arriving fixes, off by silence; see EmployeePresence. */
  readonly presence: EmployeePresence;
  private readonly changes: EmployeeChanges;
  /** Employee groups: their routes, and the check of an employee's subscriberGroupID. */
  readonly groups: SubscriberGroupService;
  /** Device keys to their owners: the OsmAnd port's and the tracker listeners' lookups. */
  private readonly deviceKeys: DeviceKeys;
  private readonly database: Database;
  private readonly clock: () => number;
  private readonly templates: CustomFieldTemplates | null;
  private readonly audit: AuditRecorder;

  constructor({ database, accounts, events, clock = Date.now, onlineTimeoutMs, templates = null, audit = noAudit }: EmployeeServiceOptions) {
    this.database = database;
    this.audit = audit;
    this.clock = clock;
    this.templates = templates;
    this.deviceKeys = new DeviceKeys(database, clock);
    this.changes = new EmployeeChanges(events, clock, (change) => {
      // A key an employee had or got no longer answers from the cache: the next fix reads it afresh.
      // A change that leaves the owner as cached (isOnline turning with the fixes, a new name) keeps
      // it: a fleet's first fixes each turn an employee online, and forgetting their keys then
      // cost every phone a second lookup.
      if (!changesDeviceOwner(change)) return;
      if (change.type !== 'add' && change.before.deviceKey) this.deviceKeys.forget(change.before.deviceKey);
      if (change.type !== 'delete' && change.after.deviceKey) this.deviceKeys.forget(change.after.deviceKey);
    });
    this.groups = new SubscriberGroupService(database, clock, audit);
    this.presence = new EmployeePresence({ database, accounts, clock, onlineTimeoutMs, changes: this.changes });
  }

  /**
   * Fixes arrived for these employees, in the ingest transaction: see `EmployeePresence.fixesArrived`.
   * `newestFixMs` is the time of each employee's newest fix among them.
   */
  fixesArrived(tx: Tx, account: Account, targets: ReadonlyMap<number, IngestTarget>, newestFixMs: ReadonlyMap<number, number>, atMs: number): Promise<void> {
    const rows = [...targets.values()].map((t) => ({ ...t.presence, newestFixMs: newestFixMs.get(t.presence.id) ?? Number.NEGATIVE_INFINITY }));
    return this.presence.fixesArrived(tx, account, rows, atMs);
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
      await this.changes.commit(tx, account, [{ type: 'add', after }], initiatorOf(principal));
      await this.audit.record(tx, account.id, { kind: 'employee.create', objectId: id, after: withPasswordMark(after, input.devicePassword) });
      return after;
    });
  }

  async replace(principal: Principal, subscriberID: number, input: EmployeeWrite): Promise<Employee> {
    return this.update(principal, subscriberID, (before) => buildEmployee(subscriberID, input, before), input.devicePassword);
  }

  async patch(principal: Principal, subscriberID: number, input: EmployeePatch): Promise<Employee> {
    return this.update(principal, subscriberID, (before) => patchEmployee(before, input), input.devicePassword);
  }

  async delete(principal: Principal, subscriberID: number): Promise<void> {
    const account = principal.account;
    await this.database.transaction(async (tx) => {
      const before = await this.lockLiving(tx, account, subscriberID);
      await store.markEmployeeDeleted(tx, account.id, subscriberID, this.clock());
      await this.changes.commit(tx, account, [{ type: 'delete', before }], initiatorOf(principal));
      await this.audit.record(tx, account.id, { kind: 'employee.delete', objectId: subscriberID, before });
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

  /** The living employee whose device key a phone sends on the OsmAnd port (see DeviceKeys.findByDeviceKey). */
  findByDeviceKey(deviceKey: string): Promise<DeviceOwner | null> {
    return this.deviceKeys.findByDeviceKey(deviceKey);
  }

  /**
   * The login of a terminal on `protocol`'s listener: the one lookup every tracker listener makes
   * (see DeviceKeys.authenticateDevice).
   */
  authenticateDevice(protocol: DeviceProtocol, identifier: string, password: string | null, address: string | null = null): Promise<DeviceLogin> {
    return this.deviceKeys.authenticateDevice(protocol, identifier, password, address);
  }

  /**
   * The owner of a device key heard on `protocol`'s listener, whatever its device password: for a
   * retranslator's records (see DeviceKeys.findDeviceOwner).
   */
  findDeviceOwner(protocol: DeviceProtocol, identifier: string): Promise<DeviceOwner | null> {
    return this.deviceKeys.findDeviceOwner(protocol, identifier);
  }

  /** `findByDeviceKey` answered from memory for a device seen before (see DeviceKeys.findByDeviceKeyCached). */
  findByDeviceKeyCached(deviceKey: string): Promise<DeviceOwner | null> {
    return this.deviceKeys.findByDeviceKeyCached(deviceKey);
  }

  /** Drops what `findByDeviceKeyCached` remembers of this key (found stale). */
  forgetDeviceKey(deviceKey: string): void {
    this.deviceKeys.forget(deviceKey);
  }

  /** Applies a change and answers the employee as stored, read in the same transaction (what a GET would show). */
  private async update(principal: Principal, subscriberID: number, change: (before: Employee) => Employee, devicePassword: string | null | undefined): Promise<Employee> {
    const account = principal.account;
    // Hashed before the transaction: scrypt takes tens of milliseconds, no lock waits for it.
    const password = await passwordColumn(devicePassword);
    return this.database.transaction(async (tx) => {
      const before = await this.lockLiving(tx, account, subscriberID);
      const after = change(before);
      await this.checkReferences(tx, account, after, before);
      await this.writeGuarded(() => store.updateEmployee(tx, account.id, subscriberID, { ...toRow(after), ...password }, this.clock()));
      await this.changes.commit(tx, account, [{ type: 'edit', before, after }], initiatorOf(principal));
      await this.audit.record(tx, account.id, { kind: 'employee.update', objectId: subscriberID, before, after: withPasswordMark(after, devicePassword) });
      return this.lockLiving(tx, account, subscriberID);
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

/** The employee as the audit log compares it: a device password given marks the field changed (its value is never kept). */
function withPasswordMark(employee: Employee, devicePassword: string | null | undefined): object {
  return devicePassword === undefined ? employee : { ...employee, devicePassword: devicePassword === null ? null : 'set' };
}
