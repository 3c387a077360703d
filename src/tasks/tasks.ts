/** The face of tasks: what other modules may use of it (see .dependency-cruiser.mjs). */
import type { EmployeeDirectory } from '../employees/employees.js';
import type { Routes } from '../http/route-types.js';
import { mobileTaskRoutes } from './mobile-task-routes.js';
import { taskRoutes } from './task-routes.js';
import { TaskService, type TaskServiceOptions } from './task-service.js';

/** Tasks by id, as forms and estimated arrival read them (deleted ones and other accounts' left out). */
export type TaskReader = Pick<TaskService, 'listByIds'>;

export interface TasksDependencies extends Omit<TaskServiceOptions, 'employees'> {
  /** The employees tasks name (and the employee a device key names). */
  employees: Pick<EmployeeDirectory, 'identitiesOf'>;
}

export interface Tasks extends TaskReader {
  /** Under `/v6/api`: tasks and their history. */
  routes: Routes;
  /** Under `/mobile/v1` (the employee's app, its device key already checked): tasks, statuses, forms. */
  mobileRoutes: Routes;
}

export function createTasks(options: TasksDependencies): Tasks {
  const tasks = new TaskService(options);
  return {
    listByIds: (account, ids) => tasks.listByIds(account, ids),
    routes: taskRoutes(tasks),
    mobileRoutes: mobileTaskRoutes(tasks),
  };
}

export { openTaskDestinations } from './task-destinations.js';
export type { TaskDestination } from './task-destinations.js';
export type { Task } from './task-schema.js';
export type { FormFileCheck } from './task-service.js';
