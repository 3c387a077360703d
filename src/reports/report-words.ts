import { catalogueOf, type Locale } from '../i18n/catalogue.js';
import { reportColumns } from './report-columns.js';
import type { ReportKind } from './report-schema.js';

/**
 * The words of a report's file in the account's language: its sheet's name and its header row.
 * Only the words: the columns, their order and their numbers are report-columns.ts's, the same in
 * every language (the catalogue lists each report's headers in that order; a test holds the two
 * together). JSON answers keep their field names.
 */

/** The header row: the employee's id and name, then each column's; in CSV, where durations are seconds, their headers say so. */
export function reportHeaders(kind: ReportKind, locale: Locale, format: 'csv' | 'xlsx'): string[] {
  const words = catalogueOf(locale).reports;
  const headers: readonly string[] = words.columns[kind];
  const columns: readonly { type: string }[] = reportColumns[kind];
  return [words.employeeId, words.employee, ...headers.map((header, i) => (format === 'csv' && columns[i]?.type === 'duration' ? words.inSeconds(header) : header))];
}

/** The sheet's name: the report's title. */
export function reportSheetName(kind: ReportKind, locale: Locale): string {
  return catalogueOf(locale).reports.titles[kind];
}

/** The label of the totals row. */
export function reportTotalLabel(locale: Locale): string {
  return catalogueOf(locale).reports.total;
}
