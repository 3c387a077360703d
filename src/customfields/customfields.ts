/** The face of customfields: what other modules may use of it (see .dependency-cruiser.mjs). */
export type { CustomFieldService } from './custom-field-service.js';
