import { catalogueOf, type Catalogue, type Locale } from '../i18n/catalogue.js';
import { reportColumns, type ReportColumn } from './report-columns.js';
import type { ReportKind } from './report-schema.js';

/**
 * The words of a report's file in the account's language. Only the words: the columns, their
 * order, types and numbers are report-columns.ts's, the same in every language (the catalogue
 * lists each report's headers in that order; a test holds the two together). JSON answers keep
 * their field names.
 */

/** A report's columns with their headers in `locale`: what a file writer reads `header` from. */
export function reportColumnsIn<K extends ReportKind>(kind: K, locale: Locale): ReportColumn<K>[] {
  const headers: readonly string[] = catalogueOf(locale).reports.columns[kind];
  return (reportColumns[kind] as ReportColumn<K>[]).map((column, i) => ({ ...column, header: headers[i] ?? column.header }));
}

/** The rest of a file's words: the sheet's name (`titles`), the employee's columns, the totals row, the seconds of a CSV duration. */
export function reportWords(locale: Locale): Catalogue['reports'] {
  return catalogueOf(locale).reports;
}
