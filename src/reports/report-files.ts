import type { Writable } from 'node:stream';
import type { Locale } from '../i18n/catalogue.js';
import { columnTotal, type CellType } from './report-columns.js';
import type { RecordOf, ReportKind, ReportRow } from './report-schema.js';
import { reportColumnsIn, reportWords } from './report-words.js';
import { XlsxSheetWriter, type XlsxValue } from './xlsx-writer.js';

const NUMBER_FORMATS: Partial<Record<CellType, string>> = {
  integer: '0',
  date: 'yyyy-mm-dd hh:mm:ss',
  day: 'yyyy-mm-dd',
  duration: '[h]:mm:ss',
};
const DAY_S = 86_400;

/**
 * The report as CSV (RFC 4180): a header row, then one line per record, CRLF line ends, a field
 * quoted when it holds a comma, a quote or a line break (quotes doubled). Date-times as the JSON
 * answer writes them (the account's zone with its offset), durations in seconds.
 */
export function reportCsv<K extends ReportKind>(kind: K, rows: readonly ReportRow<K>[], names: ReadonlyMap<number, string>, file: { locale: Locale }): string {
  const columns = reportColumnsIn(kind, file.locale);
  const words = reportWords(file.locale);
  const lines = [[words.employeeId, words.employee, ...columns.map((c) => (c.type === 'duration' ? words.inSeconds(c.header) : c.header))].map(csvField).join(',')];
  for (const { subscriberId, record } of rows) {
    const fields = [subscriberId, names.get(subscriberId) ?? '', ...columns.map((c) => c.value(record))];
    lines.push(fields.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The report as an XLSX workbook, streamed to `output` as it is written (xlsx-writer.ts: rows are
 * written and deflated as they come, never held as a whole workbook): one sheet, a bold header row,
 * a row per record with real number and date cells, and a bold totals row. Excel dates carry no
 * zone, so a date cell holds the wall-clock time of the account's zone the JSON answer shows.
 */
export async function writeReportXlsx<K extends ReportKind>(kind: K, rows: readonly ReportRow<K>[], names: ReadonlyMap<number, string>, output: Writable, locale: Locale): Promise<void> {
  const columns = reportColumnsIn(kind, locale);
  const words = reportWords(locale);
  const sheet = new XlsxSheetWriter(output, words.titles[kind], [
    { width: 12, numFmt: '0' },
    { width: 24 },
    ...columns.map((c) => ({ width: c.width ?? Math.max(12, c.header.length + 2), numFmt: numberFormat(c) })),
  ]);
  sheet.header([words.employeeId, words.employee, ...columns.map((c) => c.header)]);
  let written = 0;
  for (const { subscriberId, record } of rows) {
    if (++written % ROWS_PER_TURN === 0) await sheet.pause();
    sheet.row([subscriberId, names.get(subscriberId) ?? '', ...columns.map((c) => cellValue(c.type, c.value(record)))]);
  }
  const records = rows.map((r) => r.record) as RecordOf[K][];
  sheet.row([null, words.total, ...columns.map((c) => cellValue(c.type, columnTotal(c, records)))], true);
  await sheet.end();
}

/** Rows written between two turns of the event loop (see `XlsxSheetWriter.pause`). */
const ROWS_PER_TURN = 500;

function numberFormat(column: { type: CellType; digits?: number }): string | undefined {
  if (column.type === 'number') return column.digits ? `0.${'0'.repeat(column.digits)}` : '0';
  return NUMBER_FORMATS[column.type];
}

/**
 * A cell's value: a date or a day as Excel's serial of its wall-clock time (days since 1899-12-30,
 * what a date cell holds; its number format makes it one), read from the digits of the JSON
 * answer's text (`YYYY-MM-DDTHH:mm:ss…`, the offset left out) without making a Date of it.
 */
function cellValue(type: CellType, value: string | number | boolean | null): XlsxValue {
  if (value === null) return null;
  if ((type === 'date' || type === 'day') && typeof value === 'string') return excelSerial(value);
  if (type === 'duration' && typeof value === 'number') return value / DAY_S;
  return value;
}

const EXCEL_EPOCH_DAYS = 25_569; // 1970-01-01 as an Excel serial
const DAY_MS = 86_400_000;

function excelSerial(text: string): number {
  const time = text.length >= 19;
  const wallMs = Date.UTC(digits(text, 0, 4), digits(text, 5, 7) - 1, digits(text, 8, 10), time ? digits(text, 11, 13) : 0, time ? digits(text, 14, 16) : 0, time ? digits(text, 17, 19) : 0);
  return EXCEL_EPOCH_DAYS + wallMs / DAY_MS;
}

function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/** `trips-2026-05-01-2026-05-31.xlsx` */
export function reportFileName(kind: ReportKind, firstDay: string, lastDay: string, format: 'csv' | 'xlsx'): string {
  return `${kind}-${firstDay}${lastDay === firstDay ? '' : `-${lastDay}`}.${format}`;
}
