import { Type, type Static, type TSchema } from 'typebox';
import { Count, DateTimeText, IdList, Offset } from '../http/list-params.js';

export const reportKinds = ['trips', 'stops', 'fuel', 'zoneVisits', 'speeding', 'summary'] as const;
export type ReportKind = (typeof reportKinds)[number];
export const ReportKindName = Type.Union(
  [Type.Literal('trips'), Type.Literal('stops'), Type.Literal('fuel'), Type.Literal('zoneVisits'), Type.Literal('speeding'), Type.Literal('summary')],
  { description: reportKinds.join(', ') },
);

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

const DateTime = Type.String({ description: 'date-time in the account’s time zone' });
const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const LocalDate = Type.String({ description: 'YYYY-MM-DD, a day of the account’s time zone' });

/** A track of route 3 with its speeds. */
export const TripRecord = Type.Object({
  trackID: Type.Integer(),
  startDate: DateTime,
  finishDate: DateTime,
  startAddress: Type.String(),
  finishAddress: Type.String(),
  startLat: Type.Number(),
  startLon: Type.Number(),
  finishLat: Type.Number(),
  finishLon: Type.Number(),
  distance: Type.Integer({ description: 'metres, as route 3' }),
  duration: Type.Integer({ description: 'seconds, as route 3' }),
  maxSpeed: NullableNumber('km/h: the highest speed of the track’s fixes (null on tracks derived before it was kept)'),
  averageSpeed: Type.Number({ description: 'km/h: distance over duration' }),
  inProgress: Type.Boolean(),
});

/** The time between two tracks. */
export const StopRecord = Type.Object({
  startDate: DateTime,
  finishDate: Type.Union([DateTime, Type.Null()], { description: 'null while the vehicle still stands' }),
  duration: Type.Integer({ description: 'seconds (to the latest fix while it still stands)' }),
  latitude: Type.Number(),
  longitude: Type.Number(),
  address: Type.String(),
  idleSeconds: Type.Integer({ description: 'engine on while parked' }),
});

export const FuelRecord = Type.Object({
  date: LocalDate,
  startFuelLevel: NullableNumber('litres, smoothed, at the day’s first fix'),
  endFuelLevel: NullableNumber('litres, smoothed, at the day’s last fix'),
  fillings: Type.Integer(),
  filledLitres: Type.Number(),
  drains: Type.Integer(),
  drainedLitres: Type.Number(),
  fuelConsumption: Type.Number({ description: 'litres, as route 7 (interval 1) over the day' }),
  mileage: Type.Number({ description: 'km, as route 7 (interval 1) over the day' }),
  consumptionPer100Km: NullableNumber('litres per 100 km; null without mileage'),
});

export const ZoneVisitRecord = Type.Object({
  zoneID: Type.Integer(),
  zoneName: Type.String(),
  enteredDate: DateTime,
  leftDate: Type.Union([DateTime, Type.Null()], { description: 'null while the vehicle is inside' }),
  duration: Type.Integer({ description: 'seconds inside (to the latest fix while still inside)' }),
  latitude: Type.Number(),
  longitude: Type.Number(),
});

export const SpeedingRecord = Type.Object({
  date: DateTime,
  latitude: Type.Number(),
  longitude: Type.Number(),
  maxSpeed: Type.Number({ description: 'km/h: the value of route 6’s type 4 event' }),
  speedLimit: Type.Number({ description: 'km/h: the vehicle’s limit now' }),
  prolonged: Type.Boolean({ description: 'a type 5 event (prolonged speeding) began with it' }),
});

export const SummaryRecord = Type.Object({
  date: LocalDate,
  mileage: Type.Number({ description: 'km, as route 7 (interval 1) over the day' }),
  trips: Type.Integer({ description: 'tracks that started on the day' }),
  drivingSeconds: Type.Integer({ description: 'time inside tracks on the day' }),
  engineMotohours: Type.Number({ description: 'hours, as route 7 (interval 1) over the day' }),
  idleSeconds: Type.Integer({ description: 'engine on outside tracks' }),
  maxSpeed: NullableNumber('km/h, of the tracks on the day'),
  fuelConsumption: Type.Number({ description: 'litres, as route 7 (interval 1) over the day' }),
  filledLitres: Type.Number(),
  drainedLitres: Type.Number(),
  speedings: Type.Integer({ description: 'speed exceeded events (route 6 type 4)' }),
  zoneVisits: Type.Integer({ description: 'zone visits entered on the day' }),
});

export type TripRecord = Static<typeof TripRecord>;
export type StopRecord = Static<typeof StopRecord>;
export type FuelRecord = Static<typeof FuelRecord>;
export type ZoneVisitRecord = Static<typeof ZoneVisitRecord>;
export type SpeedingRecord = Static<typeof SpeedingRecord>;
export type SummaryRecord = Static<typeof SummaryRecord>;

export interface RecordOf {
  trips: TripRecord;
  stops: StopRecord;
  fuel: FuelRecord;
  zoneVisits: ZoneVisitRecord;
  speeding: SpeedingRecord;
  summary: SummaryRecord;
}

export const recordSchemas: Record<ReportKind, TSchema> = {
  trips: TripRecord,
  stops: StopRecord,
  fuel: FuelRecord,
  zoneVisits: ZoneVisitRecord,
  speeding: SpeedingRecord,
  summary: SummaryRecord,
};

/** A report in JSON: records grouped per employee (`count`/`offset` apply to records before grouping, as route 6). */
export function reportAnswer<T extends TSchema>(record: T) {
  return Type.Object({
    data: Type.Array(Type.Object({ subscriberID: Type.Integer(), name: Type.String(), records: Type.Array(record) })),
  });
}

export interface ReportAnswer<K extends ReportKind> {
  data: { subscriberID: number; name: string; records: RecordOf[K][] }[];
}

/** One record with whose it is: what the files list row by row. */
export interface ReportRow<K extends ReportKind> {
  subscriberId: number;
  record: RecordOf[K];
}
