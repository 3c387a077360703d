import type { EmployeeService } from '../employees/employees.js';
import type { Api } from '../http/route-types.js';
import type { ReportData } from '../positioning/positioning.js';
import type { Database } from '../store/database.js';
import { reportRoutes as reportKindRoutes } from './report-routes.js';
import { ReportService } from './report-service.js';

/** The reports module's services. */
export interface Reports {
  reports: ReportService;
}

export function createReports(database: Database, employees: EmployeeService, data: ReportData, clock: () => number = Date.now): Reports {
  return { reports: new ReportService(database, employees, data, clock) };
}

/** Everything under `/v6/api/reports`. */
export function reportRoutes(reports: Reports) {
  return async (api: Api) => {
    await api.register(reportKindRoutes(reports.reports));
  };
}
