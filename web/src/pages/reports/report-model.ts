import { api, query } from '../../api';
import type { RecordOf, ReportKind } from '../../types';
import { language, t, type PlainKey } from '../../i18n/i18n';

export const REPORTS: { kind: ReportKind; label: PlainKey }[] = [
  { kind: 'summary', label: 'reports.kindSummary' },
  { kind: 'trips', label: 'reports.kindTrips' },
  { kind: 'stops', label: 'reports.kindStops' },
  { kind: 'fuel', label: 'reports.kindFuel' },
  { kind: 'zoneVisits', label: 'reports.kindZones' },
  { kind: 'speeding', label: 'reports.kindSpeeding' },
];

/** A report's name in the current language. */
export const reportName = (kind: ReportKind) => t(REPORTS.find((r) => r.kind === kind)?.label ?? 'reports.kindSummary');

/** Whose report: everyone, one group (`g:<id>`) or one employee (`e:<id>`). */
export type Whose = string;

export function whoseParams(whose: Whose): { subscriberIDs?: number[]; subscriberGroupIDs?: number[] } {
  const [type, id] = whose.split(':');
  if (type === 'g') return { subscriberGroupIDs: [Number(id)] };
  if (type === 'e') return { subscriberIDs: [Number(id)] };
  return {};
}

/** A record with its employee, as the table and chart use it. */
export type Row<K extends ReportKind = ReportKind> = RecordOf[K] & { subscriberID: number; name: string };

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
  data: { subscriberID: number; name: string; records: RecordOf[ReportKind][] }[];
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
