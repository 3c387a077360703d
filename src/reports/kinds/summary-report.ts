import { Type, type Static } from 'typebox';
import { dailyRows, dayTotals, round, type VehicleDay } from '../daily-report.js';
import { chunkedRows, DAILY_CHUNK_VEHICLE_DAYS } from '../report-chunks.js';
import { EVENT } from '../report-events.js';
import { LocalDate, NullableNumber } from '../report-schema.js';
import { defineReportKind } from './report-kind.js';

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
export type SummaryRecord = Static<typeof SummaryRecord>;

/** The summary of one vehicle-day. */
function summaryOf(d: VehicleDay): SummaryRecord {
  const totals = dayTotals(d);
  const { fromMs, toMs } = d.day;
  const speeds = d.tracks.flatMap((t) => (t.maxSpeedKmh === null ? [] : [t.maxSpeedKmh]));
  return {
    date: d.day.date,
    mileage: totals.mileageKm,
    trips: d.tracks.filter((t) => t.startMs >= fromMs).length,
    drivingSeconds: Math.round(d.tracks.reduce((total, t) => total + Math.max(0, Math.min(t.finishMs, toMs) - Math.max(t.startMs, fromMs)), 0) / 1000),
    engineMotohours: totals.engineHours,
    idleSeconds: totals.idleS,
    maxSpeed: speeds.length ? round(Math.max(...speeds), 1) : null,
    fuelConsumption: totals.fuelConsumption,
    filledLitres: round(totals.fillsLitres, 2),
    drainedLitres: round(totals.drainsLitres, 2),
    speedings: d.events.filter((e) => e.type === EVENT.speeding).length,
    zoneVisits: d.visits.length,
  };
}

const summaryDays = { full: true, recordOf: summaryOf };

/** Summary: one record per employee and day of the account's zone. */
export const summaryReport = defineReportKind({
  name: 'summary',
  record: SummaryRecord,
  summary: 'Summary per employee and day: mileage, trips, driving, engine, idling, fuel, speedings, zone visits',
  description: 'One record per employee and day of the account’s time zone: what a fleet manager reads first.',
  examples: [
    {
      date: '2026-03-02',
      mileage: 84.3,
      trips: 6,
      drivingSeconds: 15120,
      engineMotohours: 3.5,
      idleSeconds: 1260,
      maxSpeed: 97,
      fuelConsumption: 11.2,
      filledLitres: 38.5,
      drainedLitres: 0,
      speedings: 1,
      zoneVisits: 3,
    },
  ],
  chunkVehicleDays: DAILY_CHUNK_VEHICLE_DAYS,
  readPage: ({ data }, account, ids, period, page) => dailyRows(data, account, ids, period, page, summaryDays),
  stream: ({ data }, account, chunks) => chunkedRows(chunks, (chunk) => dailyRows(data, account, chunk.ids, chunk, null, summaryDays)),
  columns: [
    { field: 'date', type: 'day' },
    { field: 'mileage', type: 'number', total: 'sum', digits: 3 },
    { field: 'trips', type: 'integer', total: 'sum' },
    { field: 'drivingSeconds', type: 'duration', total: 'sum' },
    { field: 'engineMotohours', type: 'number', total: 'sum', digits: 3 },
    { field: 'idleSeconds', type: 'duration', total: 'sum' },
    { field: 'maxSpeed', type: 'number', total: 'max', digits: 1 },
    { field: 'fuelConsumption', type: 'number', total: 'sum', digits: 2 },
    { field: 'filledLitres', type: 'number', total: 'sum', digits: 2 },
    { field: 'drainedLitres', type: 'number', total: 'sum', digits: 2 },
    { field: 'speedings', type: 'integer', total: 'sum' },
    { field: 'zoneVisits', type: 'integer', total: 'sum' },
  ],
  workspace: {
    label: 'reports.kindSummary',
    default: true,
    dailyChart: true,
    columns: [
      { field: 'date', label: 'reports.date' },
      { field: 'mileage', label: 'reports.mileage', show: 1 },
      { field: 'trips', label: 'reports.trips', show: 0 },
      { field: 'drivingSeconds', label: 'reports.driving', show: 'duration' },
      { field: 'engineMotohours', label: 'reports.engine', show: 2 },
      { field: 'idleSeconds', label: 'reports.idling', show: 'duration' },
      { field: 'maxSpeed', label: 'reports.maxSpeed', show: 0 },
      { field: 'fuelConsumption', label: 'reports.fuelUsedL', show: 1 },
      { field: 'speedings', label: 'reports.speedings', show: 0 },
      { field: 'zoneVisits', label: 'reports.zoneVisits', show: 0 },
    ],
  },
});
