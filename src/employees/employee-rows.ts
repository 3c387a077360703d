import { randomInt } from 'node:crypto';
import { invalidField } from '../http/errors.js';
import type { SubscribersTable } from '../store/schema.js';
import { customFieldTypes, defaultVehicleSettings, type Employee, type EmployeePatch, type EmployeeWrite, type VehicleSettings } from './employee-schema.js';

/** A full employee from a POST or PUT body: omitted fields take their defaults; a PUT keeps the device key and online flag. */
export function buildEmployee(subscriberID: number, input: EmployeeWrite, previous: Employee | null): Employee {
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

export function patchEmployee(before: Employee, input: EmployeePatch): Employee {
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

export type Row = Pick<SubscribersTable, 'name' | 'external_id' | 'is_active' | 'group_id' | 'device_key' | 'document' | 'vehicle_settings'>;

/** isOnline is a column of its own, written only by the presence functions, never by a client's change. */
export function toRow(employee: Employee): Row {
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

export function fromRow(row: Row & { id: number; is_online: number }): Employee {
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
