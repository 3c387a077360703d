import type { RecordOf, ReportKind } from './report-schema.js';

/**
 * How a column is written: `date` and `day` are date cells (a date-time or a day of the account's
 * zone), `duration` a time span in seconds (a [h]:mm:ss cell), the rest as they are.
 */
export type CellType = 'text' | 'integer' | 'number' | 'date' | 'day' | 'duration' | 'boolean';

export interface ReportColumn<K extends ReportKind> {
  /** The English header; files take the account's language's from `reportColumnsIn` (report-words.ts). */
  header: string;
  type: CellType;
  value: (record: RecordOf[K]) => string | number | boolean | null;
  /** How the totals row sums the column up; no total without it. */
  total?: 'sum' | 'max';
  /** Decimal places shown (numbers). */
  digits?: number;
}

type Columns = { [K in ReportKind]: ReportColumn<K>[] };

/** Each report's columns after the employee's id and name, in the files' order. */
export const reportColumns: Columns = {
  trips: [
    { header: 'Track ID', type: 'integer', value: (r) => r.trackID },
    { header: 'Start', type: 'date', value: (r) => r.startDate },
    { header: 'Finish', type: 'date', value: (r) => r.finishDate },
    { header: 'Start address', type: 'text', value: (r) => r.startAddress },
    { header: 'Finish address', type: 'text', value: (r) => r.finishAddress },
    { header: 'Distance, m', type: 'integer', value: (r) => r.distance, total: 'sum' },
    { header: 'Duration', type: 'duration', value: (r) => r.duration, total: 'sum' },
    { header: 'Max speed, km/h', type: 'number', value: (r) => r.maxSpeed, total: 'max', digits: 1 },
    { header: 'Average speed, km/h', type: 'number', value: (r) => r.averageSpeed, digits: 1 },
  ],
  stops: [
    { header: 'Start', type: 'date', value: (r) => r.startDate },
    { header: 'Finish', type: 'date', value: (r) => r.finishDate },
    { header: 'Duration', type: 'duration', value: (r) => r.duration, total: 'sum' },
    { header: 'Idling', type: 'duration', value: (r) => r.idleSeconds, total: 'sum' },
    { header: 'Address', type: 'text', value: (r) => r.address },
    { header: 'Latitude', type: 'number', value: (r) => r.latitude, digits: 6 },
    { header: 'Longitude', type: 'number', value: (r) => r.longitude, digits: 6 },
  ],
  fuel: [
    { header: 'Date', type: 'day', value: (r) => r.date },
    { header: 'Start fuel, l', type: 'number', value: (r) => r.startFuelLevel, digits: 2 },
    { header: 'End fuel, l', type: 'number', value: (r) => r.endFuelLevel, digits: 2 },
    { header: 'Fillings', type: 'integer', value: (r) => r.fillings, total: 'sum' },
    { header: 'Filled, l', type: 'number', value: (r) => r.filledLitres, total: 'sum', digits: 2 },
    { header: 'Drains', type: 'integer', value: (r) => r.drains, total: 'sum' },
    { header: 'Drained, l', type: 'number', value: (r) => r.drainedLitres, total: 'sum', digits: 2 },
    { header: 'Consumption, l', type: 'number', value: (r) => r.fuelConsumption, total: 'sum', digits: 2 },
    { header: 'Mileage, km', type: 'number', value: (r) => r.mileage, total: 'sum', digits: 3 },
    { header: 'l/100 km', type: 'number', value: (r) => r.consumptionPer100Km, digits: 2 },
  ],
  zoneVisits: [
    { header: 'Zone ID', type: 'integer', value: (r) => r.zoneID },
    { header: 'Zone', type: 'text', value: (r) => r.zoneName },
    { header: 'Entered', type: 'date', value: (r) => r.enteredDate },
    { header: 'Left', type: 'date', value: (r) => r.leftDate },
    { header: 'Time inside', type: 'duration', value: (r) => r.duration, total: 'sum' },
    { header: 'Latitude', type: 'number', value: (r) => r.latitude, digits: 6 },
    { header: 'Longitude', type: 'number', value: (r) => r.longitude, digits: 6 },
  ],
  speeding: [
    { header: 'Date', type: 'date', value: (r) => r.date },
    { header: 'Max speed, km/h', type: 'number', value: (r) => r.maxSpeed, total: 'max', digits: 1 },
    { header: 'Limit, km/h', type: 'number', value: (r) => r.speedLimit, digits: 0 },
    { header: 'Prolonged', type: 'boolean', value: (r) => r.prolonged },
    { header: 'Latitude', type: 'number', value: (r) => r.latitude, digits: 6 },
    { header: 'Longitude', type: 'number', value: (r) => r.longitude, digits: 6 },
  ],
  summary: [
    { header: 'Date', type: 'day', value: (r) => r.date },
    { header: 'Mileage, km', type: 'number', value: (r) => r.mileage, total: 'sum', digits: 3 },
    { header: 'Trips', type: 'integer', value: (r) => r.trips, total: 'sum' },
    { header: 'Driving', type: 'duration', value: (r) => r.drivingSeconds, total: 'sum' },
    { header: 'Engine, h', type: 'number', value: (r) => r.engineMotohours, total: 'sum', digits: 3 },
    { header: 'Idling', type: 'duration', value: (r) => r.idleSeconds, total: 'sum' },
    { header: 'Max speed, km/h', type: 'number', value: (r) => r.maxSpeed, total: 'max', digits: 1 },
    { header: 'Fuel used, l', type: 'number', value: (r) => r.fuelConsumption, total: 'sum', digits: 2 },
    { header: 'Filled, l', type: 'number', value: (r) => r.filledLitres, total: 'sum', digits: 2 },
    { header: 'Drained, l', type: 'number', value: (r) => r.drainedLitres, total: 'sum', digits: 2 },
    { header: 'Speedings', type: 'integer', value: (r) => r.speedings, total: 'sum' },
    { header: 'Zone visits', type: 'integer', value: (r) => r.zoneVisits, total: 'sum' },
  ],
};

/**
 * A column's header in a file whose date-times carry no offset (an XLSX date cell, an Excel CSV):
 * a date-time column names the account's zone its wall-clock times are in.
 */
export function zonedHeader<K extends ReportKind>(column: ReportColumn<K>, timeZone: string): string {
  return column.type === 'date' ? `${column.header} (${timeZone})` : column.header;
}

/**
 * The totals row of a report, added up record by record as a file is written (the records are not
 * kept): per column, null when the column has none or no record has a value.
 */
export class ColumnTotals<K extends ReportKind> {
  private readonly sums: (number | null)[];

  constructor(private readonly columns: readonly ReportColumn<K>[]) {
    this.sums = columns.map(() => null);
  }

  add(record: RecordOf[K]): void {
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
