/** The face of customfields: what other modules may use of it (see .dependency-cruiser.mjs). */
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { customFieldRoutes } from './custom-field-routes.js';
import { CustomFieldService } from './custom-field-service.js';

/** What zones, tasks, employees and forms ask of the templates: one by id, and the check of what an object fills. */
export type CustomFieldTemplates = Pick<CustomFieldService, 'find' | 'checkUse'>;

export interface CustomFieldsDependencies {
  database: Database;
  clock?: () => number;
}

export interface CustomFields extends CustomFieldTemplates {
  /** Under `/v6/api`: the custom-field templates. */
  routes: Routes;
}

export function createCustomFields({ database, clock = Date.now }: CustomFieldsDependencies): CustomFields {
  const templates = new CustomFieldService(database, clock);
  return {
    find: (executor, accountId, id) => templates.find(executor, accountId, id),
    checkUse: (tx, accountId, after, before) => templates.checkUse(tx, accountId, after, before),
    routes: customFieldRoutes(templates),
  };
}
