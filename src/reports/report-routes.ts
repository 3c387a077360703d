import { PassThrough } from 'node:stream';
import { described } from '../http/examples.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { MAX_REPORT_DAYS } from './report-chunks.js';
import { localDate } from './report-days.js';
import { reportCsv } from './report-csv.js';
import { reportFileName, writeReportXlsx } from './report-files.js';
import { REPORT_KINDS } from './kinds/report-kinds.js';
import { reportAnswerWithExample, ReportQueryWithExamples } from './report-examples.js';
import { reportAnswer } from './report-schema.js';
import type { ReportService } from './report-service.js';

const tags = ['Reports'];
const errors = { 400: ErrorBody, 401: ErrorBody };
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `GET /v6/api/reports/{kind}`: a page in JSON, or the whole report as CSV or XLSX. */
export function reportRoutes(reports: ReportService) {
  return async (api: Api) => {
    for (const { name: kind, summary, description, record, examples } of REPORT_KINDS) {
      api.get(
        `/reports/${kind}`,
        {
          config: { permission: 'view' },
          schema: {
            tags,
            summary,
            description:
              `${description} ` +
              'Employees: `subscriberIDs` and/or `subscriberGroupIDs` (either counts; neither: all). JSON is paged by `count` and `offset` ' +
              '(records across the answer, before grouping); `format=csv` (text/csv, RFC 4180) and `format=xlsx` answer the whole report as a file, ' +
              'streamed as it is read. The period (`dateFrom` to `dateTo`, default the 72 hours before `dateTo`) is at most ' +
              `${MAX_REPORT_DAYS} days long; a longer one is refused with 400, code 2, naming \`dateTo\` (\`dateFrom\` when \`dateTo\` is omitted).`,
            querystring: ReportQueryWithExamples,
            response: { 200: described(reportAnswerWithExample(reportAnswer(record), examples), 'the records, grouped per employee'), ...errors },
          },
        },
        async (request, reply) => {
          const { account } = request.principal;
          const { query } = request;
          if (!query.format || query.format === 'json') return reports.answer(account, kind, query);
          const period = reports.period(account, query);
          const subjects = await reports.subjects(account, query.subscriberIDs, query.subscriberGroupIDs);
          const rows = reports.stream(account, { kind, period }, subjects.ids);
          const name = reportFileName(kind, localDate(period.fromMs, account.timeZone), localDate(period.toMs, account.timeZone), query.format);
          reply.header('content-disposition', `attachment; filename="${name}"`);
          // A file is not the JSON answer the schema describes: sent as it is, past the serializer.
          const raw = reply as unknown as { type(type: string): { send(payload: unknown): void } };
          if (query.format === 'csv') {
            raw.type('text/csv; charset=utf-8').send(reportCsv(kind, rows, subjects.names, { timeZone: account.timeZone, locale: account.locale, dialect: query.csvDialect }));
            return reply;
          }
          const body = new PassThrough();
          writeReportXlsx(kind, rows, subjects.names, { timeZone: account.timeZone, locale: account.locale }, body).catch((error: unknown) => body.destroy(error as Error));
          raw.type(XLSX_TYPE).send(body);
          return reply;
        },
      );
    }
  };
}
