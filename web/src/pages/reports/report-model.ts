import { api, query } from '../../api';
import type { ReportKind } from '../../types';
import { REPORT_KINDS, type ReportKindView } from '../../generated/kinds';
import { language, t } from '../../i18n/i18n';

/** The server's reports (generated/kinds.ts) as the picker lists them: the one the tab opens with first. */
export const REPORTS: readonly ReportKindView[] = [...REPORT_KINDS.filter((r) => r.default), ...REPORT_KINDS.filter((r) => !r.default)];

/** The report the tab and a new schedule start with. */
export const DEFAULT_REPORT: ReportKind = REPORTS[0]!.kind;

export const reportView = (kind: ReportKind): ReportKindView => REPORTS.find((r) => r.kind === kind) ?? REPORTS[0]!;

/** A report's name in the current language. */
export const reportName = (kind: ReportKind) => t(reportView(kind).label);

/** Whose report: everyone, one group (`g:<id>`) or one employee (`e:<id>`). */
export type Whose = string;

export function whoseParams(whose: Whose): { subscriberIDs?: number[]; subscriberGroupIDs?: number[] } {
  const [type, id] = whose.split(':');
  if (type === 'g') return { subscriberGroupIDs: [Number(id)] };
  if (type === 'e') return { subscriberIDs: [Number(id)] };
  return {};
}

/** A record with its employee, as the table and chart use it (the columns name its fields). */
export type Row = Record<string, unknown> & { subscriberID: number; name: string };

export interface ReportChoice {
  kind: ReportKind;
  whose: Whose;
  /** YYYY-MM-DD, days of the account's zone. */
  from: string;
  to: string;
}

/** The report's address: whole days from `from` to `to` in the account's zone. */
export function reportPath(choice: ReportChoice, format?: 'csv' | 'xlsx', page?: { count: number; offset: number }): string {
  return `/v6/api/reports/${choice.kind}${query({
    dateFrom: `${choice.from}T00:00:00`,
    dateTo: `${choice.to}T23:59:59`,
    ...whoseParams(choice.whose),
    ...(page ?? {}),
    format,
    // A CSV from the workspace is for a person opening it in Excel, which reads it by the
    // system's regional settings: Russian Excel wants a byte-order mark, `;` and decimal commas.
    csvDialect: format === 'csv' ? (language() === 'ru' ? 'excel-ru' : 'excel-en') : undefined,
  })}`;
}

const PAGE = 1000;
/** Pages read at most for the screen (the files hold everything). */
const MAX_PAGES = 20;

interface Answer {
  data: { subscriberID: number; name: string; records: Record<string, unknown>[] }[];
}

/** Every record of the report, page by page. */
export async function loadReport(choice: ReportChoice): Promise<{ rows: Row[]; complete: boolean }> {
  const rows: Row[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await api.get<Answer>(reportPath(choice, undefined, { count: PAGE, offset: page * PAGE }));
    const records = answer.data.flatMap((group) => group.records.map((record) => ({ ...record, subscriberID: group.subscriberID, name: group.name }) as Row));
    rows.push(...records);
    if (records.length < PAGE) return { rows, complete: true };
  }
  return { rows, complete: false };
}
