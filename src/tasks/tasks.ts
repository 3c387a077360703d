/** The face of tasks: what other modules may use of it (see .dependency-cruiser.mjs). */
import type { AccountReader } from '../accounts/accounts.js';
import type { EmployeeDevices, EmployeeDirectory } from '../employees/employees.js';
import type { Routes } from '../http/route-types.js';
import { mobileTaskRoutes } from './mobile-task-routes.js';
import { taskRoutes } from './task-routes.js';
import { TaskService, type TaskServiceOptions } from './task-service.js';

/** Tasks by id, as forms and estimated arrival read them (deleted ones and other accounts' left out). */
export type TaskReader = Pick<TaskService, 'listByIds'>;

export interface TasksDependencies extends Omit<TaskServiceOptions, 'employees'> {
  /** The phone's status route finds the account of the employee whose device key it sends. */
  accounts: Pick<AccountReader, 'get'>;
  /** The employees tasks name, and the owners of the phones' device keys. */
  employees: Pick<EmployeeDirectory, 'identitiesOf'> & Pick<EmployeeDevices, 'findByDeviceKey'>;
}

export interface Tasks extends TaskReader {
  /** Under `/v6/api`: tasks and their history. */
  routes: Routes;
  /** At the root: `/mobile/v1`, the employee's phone, authenticated by its device key. */
  mobileRoutes: Routes;
}

export function createTasks({ accounts, ...options }: TasksDependencies): Tasks {
  const tasks = new TaskService(options);
  return {
    listByIds: (account, ids) => tasks.listByIds(account, ids),
    routes: taskRoutes(tasks),
    mobileRoutes: mobileTaskRoutes(accounts, options.employees, tasks),
  };
}

export { openTaskDestinations } from './task-destinations.js';
export type { TaskDestination } from './task-destinations.js';
export type { Task } from './task-schema.js';
