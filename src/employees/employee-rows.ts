import { randomInt } from 'node:crypto';
import { invalidField } from '../http/errors.js';
import type { SubscribersTable } from '../store/schema.js';
import { deviceKeyProblem, devicePasswordProblem, passwordProtocols, type DeviceProtocol } from './device-identity.js';
import { customFieldTypes, defaultVehicleSettings, type Employee, type EmployeePatch, type EmployeeWrite, type StoredEmployee, type VehicleSettings } from './employee-schema.js';

/**
 * A full employee from a POST or PUT body: omitted fields take their defaults; a PUT keeps the
 * device key, its protocol and password, and the online flag (a PUT that does not name the
 * password must not open the vehicle to anyone who knows its IMEI).
 */
export function buildEmployee(subscriberID: number, input: EmployeeWrite, previous: Employee | null): Employee {
  checkCustomFieldTypes(input.customFieldFormItems);
  const deviceProtocol = input.deviceProtocol !== undefined ? input.deviceProtocol : (previous?.deviceProtocol ?? null);
  // A tracker's identifier is its own: none is made up for it.
  const madeUpKey = deviceProtocol === null || deviceProtocol === 'osmand' ? newDeviceKey() : null;
  const employee: Employee = {
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
    kind: input.kind ?? 'person',
    vehiclePlate: input.vehiclePlate ?? '',
    vehicleModel: input.vehicleModel ?? '',
    deviceType: input.deviceType !== undefined ? input.deviceType : previous && input.deviceProtocol === undefined ? previous.deviceType : deviceTypeOf(deviceProtocol),
    deviceKey: input.deviceKey !== undefined ? input.deviceKey : previous ? previous.deviceKey : madeUpKey,
    deviceProtocol,
    hasDevicePassword: input.devicePassword !== undefined ? input.devicePassword !== null : (previous?.hasDevicePassword ?? false),
  };
  checkDeviceIdentity(employee, input.devicePassword, previous);
  return employee;
}

export function patchEmployee(before: Employee, input: EmployeePatch): Employee {
  checkCustomFieldTypes(input.customFieldFormItems);
  const { customFieldFormTemplateID, vehicleSettings, devicePassword, ...fields } = input;
  const after: Employee = { ...before };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (after as Record<string, unknown>)[key] = value;
  }
  if (input.customFieldsFormTemplateID === undefined && customFieldFormTemplateID !== undefined) {
    after.customFieldsFormTemplateID = customFieldFormTemplateID;
  }
  if (vehicleSettings) after.vehicleSettings = { ...before.vehicleSettings, ...vehicleSettings } as VehicleSettings;
  if (devicePassword !== undefined) after.hasDevicePassword = devicePassword !== null;
  // A protocol changed without naming the device type: the type follows the protocol.
  if (input.deviceType === undefined && input.deviceProtocol !== undefined && input.deviceProtocol !== before.deviceProtocol) after.deviceType = deviceTypeOf(input.deviceProtocol);
  checkDeviceIdentity(after, devicePassword, before);
  return after;
}

/**
 * The device key suits its protocol, and a password is set only where the protocol's login carries
 * one. Checked on the employee as it would be after the change: a new protocol is checked against
 * the key kept, a kept password against the new protocol.
 */
function checkDeviceIdentity(after: Employee, password: string | null | undefined, before: Employee | null): void {
  const protocol = after.deviceProtocol as DeviceProtocol | null;
  if (after.deviceKey !== null) {
    const problem = deviceKeyProblem(protocol, after.deviceKey);
    if (problem) throw invalidField(before && before.deviceKey === after.deviceKey ? 'deviceProtocol' : 'deviceKey', problem);
  }
  if (typeof password === 'string') {
    const problem = devicePasswordProblem(protocol, password);
    if (problem) throw invalidField('devicePassword', problem);
  } else if (after.hasDevicePassword && (protocol === null || !passwordProtocols.includes(protocol))) {
    throw invalidField('deviceProtocol', `a ${protocol ?? 'phone'} device carries no password: set devicePassword to null first or in the same request`);
  }
}

/**
 * The device type an employee has when none was named: a tracker when its protocol is a
 * tracker's, else a phone (OsmAnd's protocol, or none, as every employee before device types).
 */
export function deviceTypeOf(protocol: string | null): 'phone' | 'tracker' {
  return protocol === null || protocol === 'osmand' ? 'phone' : 'tracker';
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

export type Row = Pick<SubscribersTable, 'name' | 'external_id' | 'is_active' | 'group_id' | 'device_key' | 'device_protocol' | 'document' | 'vehicle_settings'>;

/**
 * isOnline is a column of its own, written only by the presence functions, never by a client's
 * change; so is the device password's hash, written only when a request sets or clears it.
 */
export function toRow(employee: Employee): Row {
  const {
    subscriberID: _id,
    name,
    externalSubscriberID,
    isActive,
    subscriberGroupID,
    deviceKey,
    deviceProtocol,
    hasDevicePassword: _password,
    vehicleSettings,
    isOnline: _online,
    ...rest
  } = employee as StoredEmployee;
  delete rest.deviceSeen;
  return {
    name,
    external_id: externalSubscriberID,
    is_active: isActive ? 1 : 0,
    group_id: subscriberGroupID,
    device_key: deviceKey,
    device_protocol: deviceProtocol,
    document: JSON.stringify(rest),
    vehicle_settings: JSON.stringify(vehicleSettings),
  };
}

type ReadRow = Row & { id: number; is_online: number; device_password: string | null; seen_at?: number | null; device_address?: string | null; device_connected_at?: number | null };

export function fromRow(row: ReadRow): StoredEmployee {
  const rest = JSON.parse(row.document) as Omit<Employee, 'subscriberID' | 'name' | 'isOnline'>;
  const protocol = row.device_protocol as DeviceProtocol | null;
  return {
    ...rest,
    // Employees stored before kinds and device types were named: a person, and the type their protocol implies.
    kind: rest.kind ?? 'person',
    vehiclePlate: rest.vehiclePlate ?? '',
    vehicleModel: rest.vehicleModel ?? '',
    deviceType: rest.deviceType !== undefined ? rest.deviceType : deviceTypeOf(protocol),
    subscriberID: row.id,
    isOnline: row.is_online === 1,
    name: row.name,
    externalSubscriberID: row.external_id,
    isActive: row.is_active === 1,
    subscriberGroupID: row.group_id,
    deviceKey: row.device_key,
    deviceProtocol: row.device_protocol as DeviceProtocol | null,
    hasDevicePassword: row.device_password !== null,
    vehicleSettings: JSON.parse(row.vehicle_settings) as VehicleSettings,
    ...(row.seen_at !== undefined ? { deviceSeen: { address: row.device_address ?? null, connectedAtMs: row.device_connected_at ?? null, seenAtMs: row.seen_at } } : {}),
  };
}
