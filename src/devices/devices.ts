/** The face of devices: what the composition root uses of it (see .dependency-cruiser.mjs). */
export { startDeviceListeners } from './device-listeners.js';
export type { DeviceListeners } from './device-listeners.js';
export { deviceDirectory } from './tracker-sink.js';
export { deviceConnections, devicePorts, deviceProtocols } from './protocols.js';
export type { DeviceConnection, DevicePortSetting, DeviceProtocol } from './protocols.js';
export { retranslatorRoutes } from './retranslator-routes.js';
export { EgtsRetranslators } from './retranslators.js';
