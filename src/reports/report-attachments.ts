import { PassThrough } from 'node:stream';
import type { AccountReader } from '../accounts/accounts.js';
import type { MailAttachment } from '../delivery/delivery.js';
import { writeReportXlsx } from './report-files.js';
import { reportKindNames } from './kinds/report-kinds.js';
import type { ReportService } from './report-service.js';
import type { ReportAttachmentSpec } from './report-scheduler.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Makes a scheduled report's XLSX when its e-mail is sent (the e-mail channel asks, through the
 * attachment source it was given at start): from the period and employees written in the
 * outbox payload, with the data as it is then, so a retry sends the same report, late fixes included.
 */
export class ReportAttachments {
  constructor(
    private readonly accounts: Pick<AccountReader, 'get'>,
    private readonly reports: ReportService,
  ) {}

  async render(accountId: number, spec: unknown): Promise<MailAttachment> {
    const report = spec as ReportAttachmentSpec;
    if (report?.source !== 'report' || !reportKindNames.includes(report.kind)) throw new Error('not a report attachment');
    const account = await this.accounts.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const subjects = await this.reports.subjects(account, report.subscriberIDs, report.subscriberGroupIDs);
    // The same chunked reading as a download: the mail is sent whole, so only the deflated file is held.
    const rows = this.reports.stream(account, { kind: report.kind, period: { fromMs: report.fromMs, toMs: report.toMs } }, subjects.ids);
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve, reject) => {
      sink.on('end', resolve);
      sink.on('error', reject);
    });
    await writeReportXlsx(report.kind, rows, subjects.names, { timeZone: account.timeZone, locale: account.locale }, sink);
    await ended;
    return { filename: report.filename, content: Buffer.concat(chunks), contentType: XLSX_TYPE };
  }
}
