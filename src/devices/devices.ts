/** The face of devices: the listeners of the device protocols, and the EGTS retranslators accounts let in (see .dependency-cruiser.mjs). */
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { retranslatorRoutes } from './retranslator-routes.js';
import { EgtsRetranslators } from './retranslators.js';

export interface DevicesDependencies {
  database: Database;
  clock?: () => number;
}

export interface Devices {
  /** The logins of EGTS retranslators (the EGTS listener asks). */
  retranslators: Pick<EgtsRetranslators, 'authenticate'>;
  /** Under `/v6/api`: the account's EGTS retranslators. */
  routes: Routes;
}

export function createDevices({ database, clock = Date.now }: DevicesDependencies): Devices {
  const retranslators = new EgtsRetranslators(database, clock);
  return { retranslators, routes: retranslatorRoutes(retranslators) };
}

export { startDeviceListeners } from './device-listeners.js';
export type { DeviceListeners } from './device-listeners.js';
export { deviceDirectory } from './tracker-sink.js';
export { deviceConnections, devicePorts, deviceProtocols } from './protocols.js';
export type { DeviceConnection, DevicePortSetting, DeviceProtocol } from './protocols.js';
