import { randomInt } from 'node:crypto';
import type { Account, Principal } from '../accounts/account-service.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import type { SubscribersTable } from '../store/schema.js';
import {
  customFieldTypes,
  defaultVehicleSettings,
  type Employee,
  type EmployeeListQuery,
  type EmployeePatch,
  type EmployeeWrite,
  type VehicleSettings,
} from './employee-schema.js';

/** Who changed an employee (interface 2.10): a user, the employee through the phone, or the service. */
export type Initiator = { userID: number } | { subscriberID: number } | { agentID: number };

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

const notFound = (id: number | string) => new ApiError('NO_SUCH_SUBSCRIBER', `no subscriber ${id}`);

export class EmployeeService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

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
      await this.commit(tx, account, { type: 'add', after }, { userID: principal.userID });
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
      await this.commit(tx, account, { type: 'delete', before }, { userID: principal.userID });
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
      await this.commit(tx, account, { type: 'edit', before, after }, { userID: principal.userID });
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
   * The one place every employee change passes, inside the transaction that writes it, so the
   * change events of interface 6.5 can be recorded atomically with the change itself.
   */
  private async commit(_tx: Tx, _account: Account, _change: EmployeeChange, _initiator: Initiator): Promise<void> {
    // Change events (interface 6.5) are written to the outbox here by the outgoing-calls module.
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

function toRow(employee: Employee): Row {
  const { subscriberID: _id, name, externalSubscriberID, isActive, subscriberGroupID, deviceKey, vehicleSettings, ...rest } = employee;
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

function fromRow(row: Row & { id: number }): Employee {
  const rest = JSON.parse(row.document) as Omit<Employee, 'subscriberID' | 'name'>;
  return {
    ...rest,
    subscriberID: row.id,
    name: row.name,
    externalSubscriberID: row.external_id,
    isActive: row.is_active === 1,
    subscriberGroupID: row.group_id,
    deviceKey: row.device_key,
    vehicleSettings: JSON.parse(row.vehicle_settings) as VehicleSettings,
  };
}
