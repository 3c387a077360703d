/** The face of employees: what other modules may use of it (see .dependency-cruiser.mjs). */
import type { FastifyRequest } from 'fastify';
import type { Routes } from '../http/route-types.js';
import { deviceRequestAuthenticator } from './device-request-auth.js';
import type { EmployeePresence } from './employee-presence.js';
import { employeeRoutes } from './employee-routes.js';
import { EmployeeService, type EmployeeServiceOptions } from './employee-service.js';
import { OnlineSweeper } from './online-sweeper.js';
import { subscriberGroupRoutes } from './subscriber-group-routes.js';

/** Employees as other modules read them: by id, as lists, names and vehicle settings, in the caller's transaction where it takes one. */
export type EmployeeDirectory = Pick<EmployeeService, 'get' | 'list' | 'livingIds' | 'identitiesOf' | 'vehicleSettingsOf'>;

/**
 * Who owns a device, and what arriving fixes change of an employee: the device listeners' logins
 * and positioning's ingest (the owner of a key, cached; presence in the ingest transaction).
 */
export type EmployeeDevices = Pick<
  EmployeeService,
  'findByDeviceKey' | 'findByDeviceKeyCached' | 'forgetDeviceKey' | 'authenticateDevice' | 'findDeviceOwner' | 'ingestTargetsOf' | 'fixesArrived'
>;

/** isOnline turned off by silence (ONLINE_TIMEOUT): one sweep, as the sweeper runs it. */
export type PresenceSweep = Pick<EmployeePresence, 'sweepOffline' | 'seenGranularityMs'>;

export type EmployeesDependencies = EmployeeServiceOptions;

/** What other modules may call on employees: reads, and what devices and their fixes need. Changes go through the routes only. */
export interface Employees extends EmployeeDirectory, EmployeeDevices {
  /** Which of these ids name an employee group of the account (the scopes of users and tokens). */
  existingGroupIds(accountId: number, ids: readonly number[]): Promise<number[]>;
  presence: PresenceSweep;
  /** Turns silent employees offline; started and stopped by main.ts. */
  sweeper: OnlineSweeper;
  /** Under `/v6/api`: employees and employee groups. */
  routes: Routes;
  /** The `/mobile/v1` routes' hook: `Authorization: Device <deviceKey>` sets `request.device`, else 401. */
  authenticateDeviceRequest: (request: FastifyRequest) => Promise<void>;
}

export function createEmployees(deps: EmployeesDependencies): Employees {
  const employees = new EmployeeService(deps);
  return {
    get: (account, subscriberID) => employees.get(account, subscriberID),
    list: (account, query) => employees.list(account, query),
    livingIds: (executor, accountId, ids) => employees.livingIds(executor, accountId, ids),
    identitiesOf: (executor, accountId, ids) => employees.identitiesOf(executor, accountId, ids),
    vehicleSettingsOf: (executor, accountId, ids) => employees.vehicleSettingsOf(executor, accountId, ids),
    findByDeviceKey: (deviceKey) => employees.findByDeviceKey(deviceKey),
    findByDeviceKeyCached: (deviceKey) => employees.findByDeviceKeyCached(deviceKey),
    forgetDeviceKey: (deviceKey) => employees.forgetDeviceKey(deviceKey),
    authenticateDevice: (protocol, identifier, password, address) => employees.authenticateDevice(protocol, identifier, password, address),
    findDeviceOwner: (protocol, identifier) => employees.findDeviceOwner(protocol, identifier),
    ingestTargetsOf: (tx, accountId, ids) => employees.ingestTargetsOf(tx, accountId, ids),
    fixesArrived: (tx, account, targets, newestFixMs, atMs) => employees.fixesArrived(tx, account, targets, newestFixMs, atMs),
    existingGroupIds: (accountId, ids) => employees.groups.existingIds(accountId, ids),
    presence: employees.presence,
    authenticateDeviceRequest: deviceRequestAuthenticator(deps.accounts, (key) => employees.findByDeviceKey(key)),
    sweeper: new OnlineSweeper(employees.presence),
    routes: async (api) => {
      await api.register(employeeRoutes(employees));
      await api.register(subscriberGroupRoutes(employees.groups));
    },
  };
}

export { CustomFieldItem, customFieldTypes } from './employee-schema.js';
export type { VehicleSettings } from './employee-schema.js';
export type { DeviceLogin, DeviceOwner, EmployeeIdentity, IngestTarget } from './employee-service.js';
export type { DeviceProtocol } from './device-identity.js';
export { ReadingMapOverride } from './reading-map-schema.js';
export type { ScaledInput, SensorInput, SwitchInput } from './reading-map-schema.js';
