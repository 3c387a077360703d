import { catalogueOf, type Catalogue, type Locale } from '../i18n/catalogue.js';
import { reportKindOf, type ReportKind } from './kinds/report-kinds.js';
import type { CellValue, FileColumn } from './report-columns.js';

/**
 * The words of a report's file in the account's language. Only the words: the columns, their
 * order, types and numbers are the report's (kinds/<name>-report.ts), the same in every language;
 * the catalogue names each column's header by its field. JSON answers keep their field names.
 */

/** A report's columns with their headers in `locale`: what a file writer reads. */
export function reportColumnsIn(kind: ReportKind, locale: Locale): FileColumn[] {
  const headers: Readonly<Record<string, string>> = catalogueOf(locale).reports.columns[kind];
  return reportKindOf(kind)!.columns.map((column) => {
    const { field } = column;
    return { ...column, header: headers[field] ?? field, value: (record) => (record as Record<string, CellValue>)[field]! };
  });
}

/** The rest of a file's words: the sheet's name (`titles`), the employee's columns, the totals row, the seconds of a CSV duration. */
export function reportWords(locale: Locale): Catalogue['reports'] {
  return catalogueOf(locale).reports;
}
