import type { AccountService } from '../accounts/accounts.js';
import type { Outbox } from '../delivery/delivery.js';
import type { EmployeeService } from '../employees/employees.js';
import type { Api } from '../http/route-types.js';
import type { ReportData } from '../positioning/positioning.js';
import type { Database } from '../store/database.js';
import { ReportAttachments } from './report-attachments.js';
import { reportRoutes as reportKindRoutes } from './report-routes.js';
import { ReportScheduler } from './report-scheduler.js';
import { ReportService } from './report-service.js';
import { scheduleRoutes } from './schedule-routes.js';
import { ScheduleService } from './schedule-service.js';

/** The reports module (issue 17): the reports, their schedules, the scheduler and the e-mail attachments. */
export interface Reports {
  reports: ReportService;
  schedules: ScheduleService;
  /** Started by main.ts (and by tests that send schedules). */
  scheduler: ReportScheduler;
  /** The e-mail channel's attachment source: a scheduled report's XLSX. */
  attachments: ReportAttachments;
}

export interface ReportDependencies {
  accounts: AccountService;
  employees: EmployeeService;
  data: ReportData;
  outbox: Outbox;
}

export function createReports(database: Database, deps: ReportDependencies, clock: () => number = Date.now): Reports {
  const reports = new ReportService(database, deps.employees, deps.data, clock);
  return {
    reports,
    schedules: new ScheduleService(database, clock),
    scheduler: new ReportScheduler(database, deps.accounts, deps.outbox, clock),
    attachments: new ReportAttachments(deps.accounts, reports),
  };
}

/** Everything under `/v6/api/reports`. */
export function reportRoutes(reports: Reports) {
  return async (api: Api) => {
    await api.register(scheduleRoutes(reports.schedules));
    await api.register(reportKindRoutes(reports.reports));
  };
}
export type { ReportScheduler } from './report-scheduler.js';
export { deleteReportRunsBefore, REPORT_RUN_MIN_DAYS } from './report-run-retention.js';
