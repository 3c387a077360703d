import type { Writable } from 'node:stream';
import type { Locale } from '../i18n/catalogue.js';
import { ColumnTotals, zonedHeader, type CellType } from './report-columns.js';
import type { RowChunks } from './report-csv.js';
import type { ReportKind } from './kinds/report-kinds.js';
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
 * The report as an XLSX workbook, streamed to `output` as it is written (xlsx-writer.ts: rows are
 * written and deflated as they come, never held as a whole workbook): one sheet, a bold header row,
 * a row per record with real number and date cells, and a bold totals row, added up as the rows
 * go by. Excel dates carry no zone, so a date cell holds the wall-clock time of the account's zone
 * the JSON answer shows, and its column's header names the zone.
 */
export async function writeReportXlsx(
  kind: ReportKind,
  chunks: RowChunks,
  names: ReadonlyMap<number, string>,
  file: { timeZone: string; locale: Locale },
  output: Writable,
): Promise<void> {
  const columns = reportColumnsIn(kind, file.locale);
  const words = reportWords(file.locale);
  // The widths go before the rows in the sheet: they are measured on the first chunk (up to some
  // hundreds of rows), read before anything is written.
  const rest = chunks[Symbol.asyncIterator]();
  const first = await rest.next();
  const firstRows = first.done ? [] : first.value;
  const headers = [words.employeeId, words.employee, ...columns.map((c) => zonedHeader(c, file.timeZone))];
  const widths = columnWidths(headers, [{ type: 'integer' }, { type: 'text' }, ...columns], [
    firstRows.map((r) => r.subscriberId),
    firstRows.map((r) => names.get(r.subscriberId) ?? ''),
    ...columns.map((c) => firstRows.map((r) => c.value(r.record))),
  ]);
  const sheet = new XlsxSheetWriter(output, words.titles[kind], [
    { width: widths[0]!, numFmt: '0' },
    { width: widths[1]! },
    ...columns.map((c, i) => ({ width: widths[i + 2]!, numFmt: numberFormat(c) })),
  ]);
  sheet.header(headers);
  const totals = new ColumnTotals(columns);
  let written = 0;
  try {
    for (let chunk = first; !chunk.done; chunk = await rest.next()) {
      for (const { subscriberId, record } of chunk.value) {
        if (++written % ROWS_PER_TURN === 0) await sheet.pause();
        sheet.row([subscriberId, names.get(subscriberId) ?? '', ...columns.map((c) => cellValue(c.type, c.value(record)))]);
        totals.add(record);
      }
      // Waits while the output is behind, so a slow reader holds back the reading, not memory.
      await sheet.pause();
    }
  } finally {
    // Stops the reading when the writing failed (the client went away).
    await rest.return?.();
  }
  const sums = totals.values();
  sheet.row([null, words.total, ...columns.map((c, i) => cellValue(c.type, sums[i]!))], true);
  await sheet.end();
}

/** The widest a column grows, in characters: a long address is cut at the column's edge rather than pushing the rest away. */
const MAX_WIDTH = 50;

/**
 * Each column's width, in characters (Excel's unit): its header's or its widest value's, as the
 * cell shows it, and two more; a column with a sum gets room for the total's extra digits. A date
 * column is never narrower than its date, so Excel never shows `###` for one.
 */
function columnWidths(headers: readonly string[], columns: readonly { type: CellType; digits?: number; total?: 'sum' | 'max' }[], values: readonly (readonly (string | number | boolean | null)[])[]): number[] {
  return columns.map((column, i) => {
    let widest = headers[i]!.length + 1; // the header is bold
    for (const value of values[i]!) widest = Math.max(widest, shownLength(column, value));
    if (column.type === 'date' || column.type === 'day') widest = Math.max(widest, shownLength(column, ''));
    return Math.min(MAX_WIDTH, widest + 2 + (column.total === 'sum' ? 2 : 0));
  });
}

/** How many characters a value takes in its cell, as its number format shows it. */
function shownLength(column: { type: CellType; digits?: number }, value: string | number | boolean | null): number {
  if (value === null) return 0;
  switch (column.type) {
    case 'number':
      return typeof value === 'number' ? value.toFixed(column.digits ?? 0).length : String(value).length;
    case 'duration':
      return typeof value === 'number' ? String(Math.floor(value / 3600)).length + 6 : 8;
    case 'date':
      return 19;
    case 'day':
      return 10;
    case 'boolean':
      return 5;
    default:
      return String(value).length;
  }
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
