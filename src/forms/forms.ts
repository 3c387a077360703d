/** The face of forms: the forms filled on tasks, read from the tasks' custom fields (see .dependency-cruiser.mjs). */
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import type { TaskReader } from '../tasks/tasks.js';
import { formRoutes } from './form-routes.js';
import { FormService, type FormFiles } from './form-service.js';

export interface FormsDependencies {
  database: Database;
  tasks: TaskReader;
  /** A form's template name. */
  templates: Pick<CustomFieldTemplates, 'find'>;
  /** The pictures a form's picture and file fields name, for `items`. */
  files: FormFiles;
}

export interface Forms {
  /** Under `/v6/api`: the forms. */
  routes: Routes;
}

export function createForms({ database, tasks, templates, files }: FormsDependencies): Forms {
  return { routes: formRoutes(new FormService(database, tasks, templates, files)) };
}
