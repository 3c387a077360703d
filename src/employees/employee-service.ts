import { randomInt } from 'node:crypto';
import type { Account, AccountService, Principal } from '../accounts/account-service.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import type { SubscribersTable } from '../store/schema.js';
import { PRESENCE_AGENT_ID, type Change, type ChangeEvents, type Initiator } from './change-events.js';
import {
  customFieldTypes,
  defaultVehicleSettings,
  type Employee,
  type EmployeeListQuery,
  type EmployeePatch,
  type EmployeeWrite,
  type VehicleSettings,
} from './employee-schema.js';

export type { Initiator } from './change-events.js';

/** One change of one employee; every write passes through `EmployeeService.commit`. */
export type EmployeeChange =
  | { type: 'add'; after: Employee }
  | { type: 'edit'; before: Employee; after: Employee }
  | { type: 'delete'; before: Employee };

/** A living employee found by the key its phone sends on the OsmAnd port. */
export interface DeviceOwner {
  accountId: number;
  subscriberId: number;
}

/** The employee as interface 2.9 carries it in events: without the device key (a credential) and the vehicle settings. */
export type CarriedEmployee = Omit<Employee, 'deviceKey' | 'vehicleSettings'>;

export interface PresenceOptions {
  /** ONLINE_TIMEOUT: isOnline turns false when no fix arrived for this long. */
  onlineTimeoutMs?: number;
}

const DEFAULT_ONLINE_TIMEOUT_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

export interface EmployeeIdentity {
  name: string;
  externalSubscriberID: string | null;
  living: boolean;
}

const notFound = (id: number | string) => new ApiError('NO_SUCH_SUBSCRIBER', `no subscriber ${id}`);

export class EmployeeService {
  readonly onlineTimeoutMs: number;
  /**
   * How stale the stored arrival time may get before a batch rewrites it: a tenth of the timeout,
   * at most 30 s, so a vehicle reporting every few seconds costs one write per that period.
   */
  readonly seenGranularityMs: number;

  constructor(
    private readonly database: Database,
    private readonly accounts: AccountService,
    private readonly events: ChangeEvents,
    private readonly clock: () => number = Date.now,
    presence: PresenceOptions = {},
  ) {
    this.onlineTimeoutMs = presence.onlineTimeoutMs ?? DEFAULT_ONLINE_TIMEOUT_MS;
    this.seenGranularityMs = Math.min(30_000, Math.floor(this.onlineTimeoutMs / 10));
  }

  async list(account: Account, query: EmployeeListQuery): Promise<Employee[]> {
    let select = this.database.db
      .selectFrom('subscribers')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('deleted_at', 'is', null);
    if (query.isActive !== undefined) select = select.where('is_active', '=', query.isActive ? 1 : 0);
    if (query.subscriberIDs?.length) select = select.where('id', 'in', query.subscriberIDs);
    if (query.subscriberGroupIDs?.length) select = select.where('group_id', 'in', query.subscriberGroupIDs);
    const rows = await select.orderBy('id').execute();
    const employees = rows.map(fromRow);
    if (query.withCustomTemplateItems === false) for (const e of employees) delete e.customFieldFormItems;
    return employees;
  }

  async get(account: Account, subscriberID: number): Promise<Employee> {
    const row = await this.database.db
      .selectFrom('subscribers')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('id', '=', subscriberID)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(subscriberID);
    return fromRow(row);
  }

  async getByExternalId(account: Account, externalID: string): Promise<Employee> {
    const row = await this.database.db
      .selectFrom('subscribers')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('external_id', '=', externalID)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(externalID);
    return fromRow(row);
  }

  async create(principal: Principal, input: EmployeeWrite): Promise<Employee> {
    const account = principal.account;
    return this.database.transaction(async (tx) => {
      const draft = buildEmployee(0, input, null);
      const now = this.clock();
      const inserted = await this.writeGuarded(() =>
        tx
          .insertInto('subscribers')
          .values({ ...toRow(draft), account_id: account.id, created_at: now, updated_at: now, deleted_at: null })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      const after = { ...draft, subscriberID: inserted.id };
      await this.commit(tx, account, [{ type: 'add', after }], { userID: principal.userID });
      return after;
    });
  }

  async replace(principal: Principal, subscriberID: number, input: EmployeeWrite): Promise<void> {
    await this.update(principal, subscriberID, (before) => buildEmployee(subscriberID, input, before));
  }

  async patch(principal: Principal, subscriberID: number, input: EmployeePatch): Promise<void> {
    await this.update(principal, subscriberID, (before) => patchEmployee(before, input));
  }

  async delete(principal: Principal, subscriberID: number): Promise<void> {
    const account = principal.account;
    await this.database.transaction(async (tx) => {
      const before = await this.lockLiving(tx, account, subscriberID);
      await tx
        .updateTable('subscribers')
        .set({ deleted_at: this.clock(), device_key: null, external_id: null })
        .where('account_id', '=', account.id)
        .where('id', '=', subscriberID)
        .execute();
      await this.commit(tx, account, [{ type: 'delete', before }], { userID: principal.userID });
    });
  }

  /**
   * Vehicle settings of the living employees among `ids` of this account, read in the caller's
   * transaction; an id missing from the answer is not one of the account's employees.
   */
  async vehicleSettingsOf(executor: Db, accountId: number, ids: number[]): Promise<Map<number, VehicleSettings>> {
    if (ids.length === 0) return new Map();
    const rows = await executor
      .selectFrom('subscribers')
      .select(['id', 'vehicle_settings'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    return new Map(rows.map((r) => [r.id, JSON.parse(r.vehicle_settings) as VehicleSettings]));
  }

  /**
   * Name and external id of the account's employees among `ids`, read in the caller's transaction;
   * `living` is false for a deleted one (it keeps its name; its external id is freed).
   */
  async identitiesOf(executor: Db, accountId: number, ids: number[]): Promise<Map<number, EmployeeIdentity>> {
    if (ids.length === 0) return new Map();
    const rows = await executor
      .selectFrom('subscribers')
      .select(['id', 'name', 'external_id', 'deleted_at'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, { name: r.name, externalSubscriberID: r.external_id, living: r.deleted_at === null }]));
  }

  async findByDeviceKey(deviceKey: string): Promise<DeviceOwner | null> {
    const row = await this.database.db
      .selectFrom('subscribers')
      .select(['account_id', 'id'])
      .where('device_key', '=', deviceKey)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? { accountId: row.account_id, subscriberId: row.id } : null;
  }

  private async update(principal: Principal, subscriberID: number, change: (before: Employee) => Employee): Promise<void> {
    const account = principal.account;
    await this.database.transaction(async (tx) => {
      const before = await this.lockLiving(tx, account, subscriberID);
      const after = change(before);
      await this.writeGuarded(() =>
        tx
          .updateTable('subscribers')
          .set({ ...toRow(after), updated_at: this.clock() })
          .where('account_id', '=', account.id)
          .where('id', '=', subscriberID)
          .execute(),
      );
      await this.commit(tx, account, [{ type: 'edit', before, after }], { userID: principal.userID });
    });
  }

  private async lockLiving(tx: Tx, account: Account, subscriberID: number): Promise<Employee> {
    let select = tx
      .selectFrom('subscribers')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('id', '=', subscriberID)
      .where('deleted_at', 'is', null);
    if (this.database.dialect === 'postgres') select = select.forUpdate();
    const row = await select.executeTakeFirst();
    if (!row) throw notFound(subscriberID);
    return fromRow(row);
  }

  /**
   * Fixes arrived for these employees (the ingest transaction, CONTRACT §4): an employee whose
   * isOnline is false turns true, an employee change by the presence agent. For the others only
   * the arrival time is kept, and only when it is staler than `seenGranularityMs`, so a batch
   * usually costs one indexed read here.
   */
  async fixesArrived(tx: Tx, account: Account, subscriberIds: number[], atMs: number): Promise<void> {
    if (subscriberIds.length === 0) return;
    const rows = await tx
      .selectFrom('subscribers')
      .select(['id', 'is_online', 'seen_at'])
      .where('account_id', '=', account.id)
      .where('id', 'in', subscriberIds)
      .where('deleted_at', 'is', null)
      .execute();
    const offline = rows.filter((r) => r.is_online === 0).map((r) => r.id);
    const stale = rows.filter((r) => r.is_online === 1 && (r.seen_at ?? 0) < atMs - this.seenGranularityMs).map((r) => r.id);
    if (stale.length > 0) {
      const updated = await tx
        .updateTable('subscribers')
        .set({ seen_at: atMs })
        .where('account_id', '=', account.id)
        .where('id', 'in', stale)
        .where('is_online', '=', 1)
        .returning('id')
        .execute();
      // Not updated: the sweeper turned it offline since the read above; it is back online now.
      const kept = new Set(updated.map((r) => r.id));
      offline.push(...stale.filter((id) => !kept.has(id)));
    }
    if (offline.length > 0) await this.setOnline(tx, account, offline, true, () => ({ atMs, firedMs: atMs }));
  }

  /**
   * isOnline true → false for employees no fix arrived for in `onlineTimeoutMs` (for every
   * account; run periodically). The stored arrival time may be up to `seenGranularityMs` older
   * than the last arrival, so silence is certain only that much later. The event is dated when the
   * silence began to count as offline, and fired now. Returns how many employees went offline.
   */
  async sweepOffline(): Promise<number> {
    let flipped = 0;
    for (;;) {
      const now = this.clock();
      const cutoff = now - this.onlineTimeoutMs - this.seenGranularityMs;
      const candidates = await this.database.db
        .selectFrom('subscribers')
        .select(['account_id', 'id'])
        .where('is_online', '=', 1)
        .where('seen_at', '<=', cutoff)
        .where('deleted_at', 'is', null)
        .orderBy('account_id')
        .orderBy('id')
        .limit(SWEEP_BATCH)
        .execute();
      const byAccount = new Map<number, number[]>();
      for (const c of candidates) byAccount.set(c.account_id, [...(byAccount.get(c.account_id) ?? []), c.id]);
      for (const [accountId, ids] of byAccount) {
        const account = await this.accounts.get(accountId);
        if (!account) continue;
        flipped += await this.database.transaction((tx) =>
          this.setOnline(tx, account, ids, false, (seenAt) => ({ atMs: Math.min(now, seenAt + this.onlineTimeoutMs), firedMs: now }), cutoff),
        );
      }
      if (candidates.length < SWEEP_BATCH) return flipped;
    }
  }

  /**
   * Flips isOnline of those of `ids` whose flag is not yet `online` (and, going offline, still
   * silent since `cutoff`), rechecked under the rows' locks so two servers flip each employee
   * once; each flip is an employee change by the presence agent.
   */
  private async setOnline(
    tx: Tx,
    account: Account,
    ids: number[],
    online: boolean,
    timing: (seenAt: number) => { atMs: number; firedMs: number },
    cutoff?: number,
  ): Promise<number> {
    let select = tx
      .selectFrom('subscribers')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .where('is_online', '=', online ? 0 : 1)
      .orderBy('id');
    if (cutoff !== undefined) select = select.where('seen_at', '<=', cutoff);
    if (this.database.dialect === 'postgres') select = select.forUpdate();
    const rows = await select.execute();
    if (rows.length === 0) return 0;
    const update = tx.updateTable('subscribers').where('account_id', '=', account.id).where('id', 'in', rows.map((r) => r.id));
    if (online) await update.set({ is_online: 1, seen_at: timing(0).atMs }).execute();
    else await update.set({ is_online: 0 }).execute();
    const seenAt = new Map(rows.map((r) => [r.id, r.seen_at ?? 0]));
    const changes = rows.map((row): EmployeeChange => {
      const before = fromRow(row);
      return { type: 'edit', before, after: { ...before, isOnline: online } };
    });
    await this.commit(tx, account, changes, { agentID: PRESENCE_AGENT_ID }, (change) => timing(seenAt.get(entityIdOf(change))!));
    return rows.length;
  }

  /**
   * The one place every employee change passes, inside the transaction that writes it, so the
   * change events of interface 6.5 are recorded atomically with the change itself.
   */
  private async commit(
    tx: Tx,
    account: Account,
    changes: EmployeeChange[],
    initiator: Initiator,
    timing?: (change: EmployeeChange) => { atMs: number; firedMs: number },
  ): Promise<void> {
    const now = this.clock();
    await this.events.record(
      tx,
      account,
      'employee',
      changes.map((change) => {
        const entityId = entityIdOf(change);
        return { change: carryChange(change), entityId, subscriberIds: [entityId], initiator, ...(timing?.(change) ?? { atMs: now, firedMs: now }) };
      }),
    );
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

/** A full employee from a POST or PUT body: omitted fields take their defaults; a PUT keeps the device key and online flag. */
function buildEmployee(subscriberID: number, input: EmployeeWrite, previous: Employee | null): Employee {
  checkCustomFieldTypes(input.customFieldFormItems);
  return {
    subscriberID,
    name: input.name,
    regionID: input.regionID ?? null,
    isActive: input.isActive ?? true,
    subscriberTariffTypeID: input.subscriberTariffTypeID ?? null,
    canTrack: input.canTrack ?? false,
    canRequest: input.canRequest ?? false,
    canSend: input.canSend ?? false,
    isOnline: previous?.isOnline ?? false,
    isLocateEnabled: input.isLocateEnabled ?? true,
    isBlockEnabled: input.isBlockEnabled ?? true,
    phone: input.phone ?? '',
    icon: input.icon ?? '',
    subscriberGroupID: input.subscriberGroupID ?? null,
    externalSubscriberID: input.externalSubscriberID ?? null,
    allowedOvertime: input.allowedOvertime ?? 0,
    workScheduleID: input.workScheduleID ?? null,
    startLocationLatitude: input.startLocationLatitude ?? null,
    startLocationLongitude: input.startLocationLongitude ?? null,
    customFieldsFormTemplateID: input.customFieldsFormTemplateID ?? input.customFieldFormTemplateID ?? null,
    customFieldFormItems: input.customFieldFormItems ?? [],
    competences: input.competences ?? [],
    zones: input.zones ?? [],
    mapObjects: input.mapObjects ?? [],
    subscriberTypeID: input.subscriberTypeID ?? null,
    userBossID: input.userBossID ?? null,
    vehicleSettings: { ...defaultVehicleSettings, ...input.vehicleSettings } as VehicleSettings,
    deviceKey: input.deviceKey !== undefined ? input.deviceKey : previous ? previous.deviceKey : newDeviceKey(),
  };
}

function patchEmployee(before: Employee, input: EmployeePatch): Employee {
  checkCustomFieldTypes(input.customFieldFormItems);
  const { customFieldFormTemplateID, vehicleSettings, ...fields } = input;
  const after: Employee = { ...before };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (after as Record<string, unknown>)[key] = value;
  }
  if (input.customFieldsFormTemplateID === undefined && customFieldFormTemplateID !== undefined) {
    after.customFieldsFormTemplateID = customFieldFormTemplateID;
  }
  if (vehicleSettings) after.vehicleSettings = { ...before.vehicleSettings, ...vehicleSettings } as VehicleSettings;
  return after;
}

const entityIdOf = (change: EmployeeChange) => (change.type === 'add' ? change.after.subscriberID : change.before.subscriberID);

function carry(employee: Employee): CarriedEmployee {
  const { deviceKey: _key, vehicleSettings: _settings, ...carried } = employee;
  return carried;
}

function carryChange(change: EmployeeChange): Change<CarriedEmployee> {
  switch (change.type) {
    case 'add':
      return { type: 'add', after: carry(change.after) };
    case 'edit':
      return { type: 'edit', before: carry(change.before), after: carry(change.after) };
    case 'delete':
      return { type: 'delete', before: carry(change.before) };
  }
}

function checkCustomFieldTypes(items: { type: string }[] | undefined): void {
  items?.forEach((item, index) => {
    if (!customFieldTypes.includes(item.type.toLowerCase())) {
      throw invalidField(`customFieldFormItems[${index}].type`, `must be one of ${customFieldTypes.join(', ')}`);
    }
  });
}

// Unambiguous characters only: the key is typed into the phone's tracking app by hand.
const KEY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newDeviceKey(): string {
  return Array.from({ length: 12 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
}

type Row = Pick<SubscribersTable, 'name' | 'external_id' | 'is_active' | 'group_id' | 'device_key' | 'document' | 'vehicle_settings'>;

/** isOnline is a column of its own, written only by the presence functions, never by a client's change. */
function toRow(employee: Employee): Row {
  const { subscriberID: _id, name, externalSubscriberID, isActive, subscriberGroupID, deviceKey, vehicleSettings, isOnline: _online, ...rest } = employee;
  return {
    name,
    external_id: externalSubscriberID,
    is_active: isActive ? 1 : 0,
    group_id: subscriberGroupID,
    device_key: deviceKey,
    document: JSON.stringify(rest),
    vehicle_settings: JSON.stringify(vehicleSettings),
  };
}

function fromRow(row: Row & { id: number; is_online: number }): Employee {
  const rest = JSON.parse(row.document) as Omit<Employee, 'subscriberID' | 'name' | 'isOnline'>;
  return {
    ...rest,
    subscriberID: row.id,
    isOnline: row.is_online === 1,
    name: row.name,
    externalSubscriberID: row.external_id,
    isActive: row.is_active === 1,
    subscriberGroupID: row.group_id,
    deviceKey: row.device_key,
    vehicleSettings: JSON.parse(row.vehicle_settings) as VehicleSettings,
  };
}
