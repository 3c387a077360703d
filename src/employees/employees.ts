/** The face of employees: what other modules may use of it (see .dependency-cruiser.mjs). */
export { CustomFieldItem, customFieldTypes } from './employee-schema.js';
export type { VehicleSettings } from './employee-schema.js';
export type { DeviceLogin, DeviceOwner, EmployeeIdentity, EmployeeService, IngestTarget } from './employee-service.js';
export type { DeviceProtocol } from './device-identity.js';
export { ReadingMapOverride } from './reading-map-schema.js';
export type { ScaledInput, SensorInput, SwitchInput } from './reading-map-schema.js';
