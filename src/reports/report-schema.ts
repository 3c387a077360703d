import { Type, type Static, type TSchema } from 'typebox';
import { Count, DateTimeText, IdList, Offset } from '../http/list-params.js';

export const reportFormats = ['json', 'csv', 'xlsx'] as const;
export type ReportFormat = (typeof reportFormats)[number];
export const csvDialects = ['rfc4180', 'excel-en', 'excel-ru'] as const;
export type CsvDialect = (typeof csvDialects)[number];

/** The query every report takes: a period, whose employees (both lists empty: all), a page, a format. */
export const ReportQuery = Type.Object({
  dateFrom: Type.Optional(DateTimeText),
  dateTo: Type.Optional(DateTimeText),
  subscriberIDs: Type.Optional(IdList),
  subscriberGroupIDs: Type.Optional(IdList),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('xlsx')], {
      description: 'json (default; paged by count and offset), csv (RFC 4180, or as csvDialect says) or xlsx (one sheet, a header row and totals): files hold the whole report',
    }),
  ),
  csvDialect: Type.Optional(
    Type.Union([Type.Literal('rfc4180'), Type.Literal('excel-en'), Type.Literal('excel-ru')], {
      description:
        'With format=csv: rfc4180 (default, for programs: commas, ISO date-times with their offset, decimal points); ' +
        'excel-ru (for Excel with Russian or continental regional settings: UTF-8 with a byte-order mark, `;` between fields, decimal commas, ' +
        'date-times as `YYYY-MM-DD HH:mm:ss` in the account’s zone, text that would run as a formula prefixed with `\'`); ' +
        'excel-en (the same with `,` and decimal points, for English regional settings). Ignored by the other formats.',
    }),
  ),
});
export type ReportQuery = Static<typeof ReportQuery>;

/** The fields records are made of. */
export const DateTime = Type.String({ description: 'date-time in the account’s time zone' });
export const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
export const LocalDate = Type.String({ description: 'YYYY-MM-DD, a day of the account’s time zone' });

/** A report in JSON: records grouped per employee (`count`/`offset` apply to records before grouping, as route 6). */
export function reportAnswer<T extends TSchema>(record: T) {
  return Type.Object({
    data: Type.Array(Type.Object({ subscriberID: Type.Integer(), name: Type.String(), records: Type.Array(record) })),
  });
}

export interface ReportAnswer<R> {
  data: { subscriberID: number; name: string; records: R[] }[];
}

/** One record with whose it is: what the files list row by row. */
export interface ReportRow<R> {
  subscriberId: number;
  record: R;
}

/** A run of a report's records: `limit` after skipping `offset`. */
export interface Page {
  limit: number;
  offset: number;
}
