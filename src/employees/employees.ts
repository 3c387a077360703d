/** The face of employees: what other modules may use of it (see .dependency-cruiser.mjs). */
export { CustomFieldItem, customFieldTypes } from './employee-schema.js';
export type { VehicleSettings } from './employee-schema.js';
export type { EmployeeIdentity, EmployeeService, IngestTarget } from './employee-service.js';
export { ReadingMapOverride } from './reading-map-schema.js';
export type { ScaledInput, SensorInput, SwitchInput } from './reading-map-schema.js';
