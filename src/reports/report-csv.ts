import { Readable } from 'node:stream';
import type { Locale } from '../i18n/catalogue.js';
import { zonedHeader, type CellType, type CellValue, type FileColumn } from './report-columns.js';
import type { ReportKind } from './kinds/report-kinds.js';
import type { CsvDialect, ReportRow } from './report-schema.js';
import { reportColumnsIn, reportWords } from './report-words.js';

/** Whose rows a file lists: the report's records chunk by chunk (`ReportService.stream`). */
export type RowChunks = AsyncIterable<readonly ReportRow<unknown>[]>;

interface DialectRules {
  separator: string;
  /** A byte-order mark first: without it Excel reads UTF-8 as the system's code page. */
  bom: boolean;
  decimalComma: boolean;
  /** Date-times as `YYYY-MM-DD HH:mm:ss` (wall-clock of the account's zone), which Excel reads as dates; else as JSON writes them. */
  excelDates: boolean;
  /** Text that Excel would take for a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'`. */
  defuseFormulas: boolean;
}

const DIALECTS: Record<CsvDialect, DialectRules> = {
  rfc4180: { separator: ',', bom: false, decimalComma: false, excelDates: false, defuseFormulas: false },
  'excel-en': { separator: ',', bom: true, decimalComma: false, excelDates: true, defuseFormulas: true },
  'excel-ru': { separator: ';', bom: true, decimalComma: true, excelDates: true, defuseFormulas: true },
};

/**
 * The report as CSV: a header row, then one line per record, CRLF line ends, a field quoted when it
 * holds the separator, a quote or a line break (quotes doubled); durations in seconds. `rfc4180`
 * (the default) is for programs: commas, date-times as the JSON answer writes them (the account's
 * zone with its offset), numbers with a decimal point, data as it is. The Excel dialects are for
 * people opening the file in Excel, which reads a CSV by the system's regional settings: a
 * byte-order mark (UTF-8, so Cyrillic names survive), date-times Excel takes for dates (their
 * column's header names the account's zone, as they carry no offset), text that
 * would run as a formula defused; `excel-ru` with `;` and decimal commas (Russian and most of
 * continental Europe), `excel-en` with `,` and decimal points. Made as it is read: a chunk of
 * records becomes one piece of text only when the response asks for more.
 */
export function reportCsv(
  kind: ReportKind,
  chunks: RowChunks,
  names: ReadonlyMap<number, string>,
  file: { timeZone: string; locale: Locale; dialect?: CsvDialect | undefined },
): Readable {
  const columns = reportColumnsIn(kind, file.locale);
  const words = reportWords(file.locale);
  const rules = DIALECTS[file.dialect ?? 'rfc4180'];
  const special = new RegExp(`["\\r\\n${rules.separator}]`);
  const field = (type: CellType, value: CellValue) => csvField(type, value, rules, special);
  const line = (fields: string[]) => `${fields.join(rules.separator)}\r\n`;
  async function* text(): AsyncGenerator<string> {
    const header = (c: FileColumn) => (c.type === 'duration' ? words.inSeconds(c.header) : rules.excelDates ? zonedHeader(c, file.timeZone) : c.header);
    const headers = [words.employeeId, words.employee, ...columns.map(header)];
    yield (rules.bom ? '\uFEFF' : '') + line(headers.map((h) => field('text', h)));
    for await (const rows of chunks) {
      let lines = '';
      for (const { subscriberId, record } of rows) {
        lines += line([field('integer', subscriberId), field('text', names.get(subscriberId) ?? ''), ...columns.map((c) => field(c.type, c.value(record)))]);
      }
      yield lines;
    }
  }
  return Readable.from(text(), { objectMode: false });
}

const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(type: CellType, value: CellValue, rules: DialectRules, special: RegExp): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'number' && rules.decimalComma) text = text.replace('.', ',');
  else if (type === 'date' && rules.excelDates && typeof value === 'string') text = `${value.slice(0, 10)} ${value.slice(11, 19)}`;
  else if (type === 'text' && rules.defuseFormulas && FORMULA_START.test(text)) text = `'${text}`;
  return special.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
