import type { Static, TSchema } from 'typebox';
import type { Account } from '../../accounts/accounts.js';
import type { VehicleSettings } from '../../employees/employees.js';
import type { Period } from '../../http/list-params.js';
import type { ReportData } from '../../positioning/positioning.js';
import type { ReportChunk } from '../report-chunks.js';
import type { ReportColumn } from '../report-columns.js';
import type { Page, ReportRow } from '../report-schema.js';

/**
 * What a report is: its name (the route `GET /v6/api/reports/{name}`), its record, how its records
 * are read, its columns in files and on screen. Each report is one definition in
 * `kinds/<name>-report.ts`, listed once in `report-kinds.ts`; the routes, the schedules, the
 * files (CSV, XLSX), the e-mails, the workspace's report picker and the docs read that list.
 * Every report takes the same query (a period, whose, a page) and comes in every format.
 */
export interface ReportKindDefinition<K extends string, S extends TSchema> {
  name: K;
  /** One record: the JSON answer and the OpenAPI document. */
  record: S;
  /** The route's summary in the OpenAPI document. */
  summary: string;
  /** What the OpenAPI document says of it beyond the summary, before what every report takes. */
  description: string;
  /** True records, for the OpenAPI document's example answer. */
  examples: readonly Static<S>[];
  /** How many vehicle-days a chunk of the whole report reads (report-chunks.ts). */
  chunkVehicleDays: number;
  /** A page of records sought in the store; without it a page is cut from `stream`. `page` null: all of them. */
  readPage?(sources: ReportSources, account: Account, ids: number[], period: Period, page: Page | null): Promise<ReportRow<Static<S>>[]>;
  /** The whole report chunk by chunk, in order (by employee, then time): what the files are written from. */
  stream(sources: ReportSources, account: Account, chunks: Iterable<ReportChunk>, period: Period): AsyncGenerator<ReportRow<Static<S>>[]>;
  /** The files' columns after the employee's id and name; headers from the catalogue, `reports.columns.<name>.<field>`. */
  columns: readonly ReportColumn[];
  workspace: ReportWorkspace;
}

/** What a report reads: the pipeline's derived data, and the vehicles' settings (their speed limits). */
export interface ReportSources {
  data: ReportData;
  vehicleSettingsOf(accountId: number, ids: number[]): Promise<Map<number, VehicleSettings>>;
}

/** What the workspace's Reports tab shows of a report, by the workspace catalogue's keys (web/src/i18n). */
export interface ReportWorkspace {
  /** The report's name in the picker and the captions. */
  label: string;
  /** The report the tab opens with (the first in its picker). */
  default?: boolean;
  /** A chart of distance and fuel per day over the table (a daily report: its records have `date`, `mileage`, `fuelConsumption`). */
  dailyChart?: boolean;
  /** The table's columns after the employee's name. */
  columns: readonly ScreenColumn[];
}

/**
 * A column of the on-screen table: a record's field, its label, how it reads: as it is (`text`),
 * a date-time, a duration (h:mm), yes or no, or a number with so many decimals (divided by
 * `divideBy` first, metres as kilometres; sorted by the field itself).
 */
export interface ScreenColumn {
  field: string;
  label: string;
  show?: 'text' | 'date' | 'duration' | 'yesNo' | number;
  divideBy?: number;
}

/** The columns' fields are the record's. */
type Fielded<R, C extends { field: string }> = Omit<C, 'field'> & { field: keyof R & string };

/** A report kind, its name and record kept (the list's types are made of them), its columns checked against its record. */
export function defineReportKind<const K extends string, S extends TSchema>(
  definition: Omit<ReportKindDefinition<K, S>, 'columns' | 'workspace'> & {
    columns: readonly Fielded<Static<S>, ReportColumn>[];
    workspace: Omit<ReportWorkspace, 'columns'> & { columns: readonly Fielded<Static<S>, ScreenColumn>[] };
  },
): ReportKindDefinition<K, S> {
  return definition;
}
