/** The face of reports: the reports, their schedules, the scheduler and the e-mail attachments (see .dependency-cruiser.mjs). */
import type { AccountReader } from '../accounts/accounts.js';
import type { AttachmentSource, OutboxWriter } from '../delivery/delivery.js';
import type { Routes } from '../http/route-types.js';
import type { ReportData } from '../positioning/positioning.js';
import type { Database } from '../store/database.js';
import { ReportAttachments } from './report-attachments.js';
import { reportRoutes } from './report-routes.js';
import { ReportScheduler } from './report-scheduler.js';
import { ReportService, type ReportEmployees } from './report-service.js';
import { scheduleRoutes } from './schedule-routes.js';
import { ScheduleService } from './schedule-service.js';

export interface ReportsDependencies {
  database: Database;
  clock?: () => number;
  /** The account of a scheduled report: its zone and language. */
  accounts: Pick<AccountReader, 'get'>;
  employees: ReportEmployees;
  data: ReportData;
  /** Where the scheduler writes the e-mails of due schedules. */
  outbox: OutboxWriter;
}

export interface Reports {
  /** Sends due schedules; started and stopped by main.ts (and ticked by tests that send schedules). */
  scheduler: Pick<ReportScheduler, 'start' | 'stop' | 'tick'>;
  /** The e-mail channel's attachment source: a scheduled report's XLSX, made when its e-mail is sent. */
  attachments: AttachmentSource;
  /** Under `/v6/api/reports`: the reports and their schedules. */
  routes: Routes;
}

export function createReports({ database, clock = Date.now, accounts, employees, data, outbox }: ReportsDependencies): Reports {
  const reports = new ReportService({ database, employees, data, clock });
  const attachments = new ReportAttachments(accounts, reports);
  const schedules = new ScheduleService(database, clock);
  return {
    scheduler: new ReportScheduler({ database, accounts, outbox, clock }),
    attachments: (accountId, spec) => attachments.render(accountId, spec),
    routes: async (api) => {
      await api.register(scheduleRoutes(schedules));
      await api.register(reportRoutes(reports));
    },
  };
}

export { deleteReportRunsBefore, REPORT_RUN_MIN_DAYS } from './report-run-retention.js';
