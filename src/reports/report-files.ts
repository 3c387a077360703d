import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { columnTotal, reportColumns, reportTitles, type CellType, type ReportColumn } from './report-columns.js';
import type { RecordOf, ReportKind, ReportRow } from './report-schema.js';

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
export function reportCsv<K extends ReportKind>(kind: K, rows: readonly ReportRow<K>[], names: ReadonlyMap<number, string>): string {
  const columns = reportColumns[kind] as ReportColumn<K>[];
  const lines = [['Employee ID', 'Employee', ...columns.map((c) => (c.type === 'duration' ? `${c.header}, s` : c.header))].map(csvField).join(',')];
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
 * The report as an XLSX workbook, streamed to `output` as it is written (exceljs's streaming
 * writer: rows are committed one by one, never held as a whole workbook): one sheet, a header row,
 * a row per record with real number and date cells, and a totals row. Excel dates carry no zone,
 * so a date cell holds the wall-clock time of the account's zone the JSON answer shows.
 */
export async function writeReportXlsx<K extends ReportKind>(kind: K, rows: readonly ReportRow<K>[], names: ReadonlyMap<number, string>, output: Writable): Promise<void> {
  const columns = reportColumns[kind] as ReportColumn<K>[];
  // Fast deflate: the sheet XML is repetitive, so level 1 is nearly as small and much quicker.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  workbook.creator = 'Lokator';
  const sheet = workbook.addWorksheet(reportTitles[kind], { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'Employee ID', key: 'id', width: 12 },
    { header: 'Employee', key: 'name', width: 24 },
    ...columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? Math.max(12, c.header.length + 2) })),
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  // One style object per column, given to each of its cells: exceljs recognises an object it has
  // seen and reuses its style id, where a column style would be copied (and worked out) per cell.
  const styles: Partial<ExcelJS.Style>[] = [{ numFmt: '0' }, {}, ...columns.map((c) => ({ numFmt: numberFormat(c) }))];
  const bold = styles.map((style) => ({ ...style, font: { bold: true } }));
  const add = (values: ExcelJS.CellValue[], cellStyles: Partial<ExcelJS.Style>[]) => {
    const row = sheet.addRow(values);
    for (let i = 0; i < cellStyles.length; i++) row.getCell(i + 1).style = cellStyles[i]!;
    row.commit();
  };
  for (const { subscriberId, record } of rows) {
    add([subscriberId, names.get(subscriberId) ?? '', ...columns.map((c) => cellValue(c.type, c.value(record)))], styles);
  }
  const records = rows.map((r) => r.record) as RecordOf[K][];
  add([null, 'Total', ...columns.map((c) => cellValue(c.type, columnTotal(c, records)))], bold);
  sheet.commit();
  await workbook.commit();
}

function numberFormat(column: { type: CellType; digits?: number }): string | undefined {
  if (column.type === 'number') return column.digits ? `0.${'0'.repeat(column.digits)}` : '0';
  return NUMBER_FORMATS[column.type];
}

function cellValue(type: CellType, value: string | number | boolean | null): ExcelJS.CellValue {
  if (value === null) return null;
  if (type === 'date' && typeof value === 'string') return new Date(`${value.slice(0, 19)}Z`);
  if (type === 'day' && typeof value === 'string') return new Date(`${value}T00:00:00Z`);
  if (type === 'duration' && typeof value === 'number') return value / DAY_S;
  return value;
}

/** `trips-2026-05-01-2026-05-31.xlsx` */
export function reportFileName(kind: ReportKind, firstDay: string, lastDay: string, format: 'csv' | 'xlsx'): string {
  return `${kind}-${firstDay}${lastDay === firstDay ? '' : `-${lastDay}`}.${format}`;
}
