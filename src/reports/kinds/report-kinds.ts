import { Type, type Static } from 'typebox';
import { fuelReport } from './fuel-report.js';
import { speedingReport } from './speeding-report.js';
import { stopsReport } from './stops-report.js';
import { summaryReport } from './summary-report.js';
import { tripsReport } from './trips-report.js';
import { zoneVisitsReport } from './zone-visits-report.js';

/** Every report, once, in the order of the routes and the OpenAPI document. */
export const REPORT_KINDS = [tripsReport, stopsReport, fuelReport, zoneVisitsReport, speedingReport, summaryReport] as const;

type Listed = (typeof REPORT_KINDS)[number];

/** A report's name: `GET /v6/api/reports/{name}`, a schedule's `report`. */
export type ReportKind = Listed['name'];

/** Each report's record, by name. */
export type RecordOf = { [D in Listed as D['name']]: Static<D['record']> };

/** A record of any report. */
export type ReportRecord = RecordOf[ReportKind];

export const reportKindNames: readonly ReportKind[] = REPORT_KINDS.map((definition) => definition.name);

/** A report's name in a schema (a schedule's `report`); typed as `ReportKind`, which a union made of a list's values is not. */
export const ReportKindName = Type.Unsafe<ReportKind>(
  Type.Union(
    REPORT_KINDS.map((definition) => Type.Literal(definition.name)),
    { description: reportKindNames.join(', ') },
  ),
);

const byName = new Map<string, Listed>(REPORT_KINDS.map((definition) => [definition.name, definition]));

/** The definition of a report; undefined for a name not in the list. */
export function reportKindOf(name: unknown): Listed | undefined {
  return typeof name === 'string' ? byName.get(name) : undefined;
}
