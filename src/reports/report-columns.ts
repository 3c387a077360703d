/**
 * How a column is written: `date` and `day` are date cells (a date-time or a day of the account's
 * zone), `duration` a time span in seconds (a [h]:mm:ss cell), the rest as they are.
 */
export type CellType = 'text' | 'integer' | 'number' | 'date' | 'day' | 'duration' | 'boolean';

/** A column of a report's files (kinds/<name>-report.ts lists them). */
export interface ReportColumn {
  /** The record's field it shows; its header is the catalogue's `reports.columns.<report>.<field>`. */
  field: string;
  type: CellType;
  /** How the totals row sums the column up; no total without it. */
  total?: 'sum' | 'max';
  /** Decimal places shown (numbers). */
  digits?: number;
}

export type CellValue = string | number | boolean | null;

/** A column as a file writer reads it: its header in the file's language, and its value in a record. */
export interface FileColumn extends ReportColumn {
  header: string;
  value(record: unknown): CellValue;
}

/**
 * A column's header in a file whose date-times carry no offset (an XLSX date cell, an Excel CSV):
 * a date-time column names the account's zone its wall-clock times are in.
 */
export function zonedHeader(column: FileColumn, timeZone: string): string {
  return column.type === 'date' ? `${column.header} (${timeZone})` : column.header;
}

/**
 * The totals row of a report, added up record by record as a file is written (the records are not
 * kept): per column, null when the column has none or no record has a value.
 */
export class ColumnTotals {
  private readonly sums: (number | null)[];

  constructor(private readonly columns: readonly FileColumn[]) {
    this.sums = columns.map(() => null);
  }

  add(record: unknown): void {
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i]!;
      if (!column.total) continue;
      const value = column.value(record);
      if (typeof value !== 'number') continue;
      const total = this.sums[i]!;
      this.sums[i] = total === null ? value : column.total === 'sum' ? total + value : Math.max(total, value);
    }
  }

  /** Each column's total, rounded to the digits it shows. */
  values(): (number | null)[] {
    return this.columns.map((column, i) => {
      const total = this.sums[i]!;
      if (total === null) return null;
      const digits = column.digits ?? 0;
      return Math.round(total * 10 ** digits) / 10 ** digits;
    });
  }
}
