/** The face of tasks: what other modules may use of it (see .dependency-cruiser.mjs). */
export { openTaskDestinations } from './task-destinations.js';
export type { TaskDestination } from './task-destinations.js';
