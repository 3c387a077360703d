import { Type, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { ReportQuery } from './report-schema.js';

/**
 * A report's JSON answer schema with its example: the records of one vehicle (the report's
 * `examples`). test/http/openapi-examples.test.ts checks each answer against its kind's schema.
 */
export function reportAnswerWithExample<T extends TSchema>(answer: T, records: readonly unknown[]): T {
  return withExamples(answer, { data: [{ subscriberID: 23, name: 'Truck 12 (Ivan Petrov)', records }] } as never);
}

/** The query every report takes, with example values. */
export const ReportQueryWithExamples = Type.Object({
  ...ReportQuery.properties,
  dateFrom: withExamples(ReportQuery.properties.dateFrom, '2026-03-02T00:00:00+03:00'),
  dateTo: withExamples(ReportQuery.properties.dateTo, '2026-03-02T23:59:59+03:00'),
  subscriberIDs: withExamples(ReportQuery.properties.subscriberIDs, [23]),
});
