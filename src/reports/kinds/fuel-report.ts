import { Type, type Static } from 'typebox';
import { dailyRows, dayTotals, round, type VehicleDay } from '../daily-report.js';
import { chunkedRows, DAILY_CHUNK_VEHICLE_DAYS } from '../report-chunks.js';
import { EVENT } from '../report-events.js';
import { LocalDate, NullableNumber } from '../report-schema.js';
import { defineReportKind } from './report-kind.js';

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
export type FuelRecord = Static<typeof FuelRecord>;

/** The fuel of one vehicle-day. */
function fuelOf(d: VehicleDay): FuelRecord {
  const totals = dayTotals(d);
  return {
    date: d.day.date,
    startFuelLevel: totals.startFuel === null ? null : round(totals.startFuel, 2),
    endFuelLevel: totals.endFuel === null ? null : round(totals.endFuel, 2),
    fillings: d.events.filter((e) => e.type === EVENT.filling).length,
    filledLitres: round(totals.fillsLitres, 2),
    drains: d.events.filter((e) => e.type === EVENT.drain).length,
    drainedLitres: round(totals.drainsLitres, 2),
    fuelConsumption: totals.fuelConsumption,
    mileage: totals.mileageKm,
    consumptionPer100Km: totals.mileageKm > 0 ? round((totals.fuelConsumption / totals.mileageKm) * 100, 2) : null,
  };
}

const fuelDays = { full: false, recordOf: fuelOf };

/** Fuel: one record per employee and day of the account's zone. */
export const fuelReport = defineReportKind({
  name: 'fuel',
  record: FuelRecord,
  summary: 'Fuel per employee and day: levels, fillings, drains, consumption (route 7 per day)',
  description:
    'One record per employee and day of the account’s time zone: fuel at the first and last fix, fillings and drains, and consumption per 100 ' +
    'km.',
  examples: [
    {
      date: '2026-03-02',
      startFuelLevel: 23,
      endFuelLevel: 50.3,
      fillings: 1,
      filledLitres: 38.5,
      drains: 0,
      drainedLitres: 0,
      fuelConsumption: 11.2,
      mileage: 84.3,
      consumptionPer100Km: 13.3,
    },
  ],
  chunkVehicleDays: DAILY_CHUNK_VEHICLE_DAYS,
  readPage: ({ data }, account, ids, period, page) => dailyRows(data, account, ids, period, page, fuelDays),
  stream: ({ data }, account, chunks) => chunkedRows(chunks, (chunk) => dailyRows(data, account, chunk.ids, chunk, null, fuelDays)),
  columns: [
    { field: 'date', type: 'day' },
    { field: 'startFuelLevel', type: 'number', digits: 2 },
    { field: 'endFuelLevel', type: 'number', digits: 2 },
    { field: 'fillings', type: 'integer', total: 'sum' },
    { field: 'filledLitres', type: 'number', total: 'sum', digits: 2 },
    { field: 'drains', type: 'integer', total: 'sum' },
    { field: 'drainedLitres', type: 'number', total: 'sum', digits: 2 },
    { field: 'fuelConsumption', type: 'number', total: 'sum', digits: 2 },
    { field: 'mileage', type: 'number', total: 'sum', digits: 3 },
    { field: 'consumptionPer100Km', type: 'number', digits: 2 },
  ],
  workspace: {
    label: 'reports.kindFuel',
    dailyChart: true,
    columns: [
      { field: 'date', label: 'reports.date' },
      { field: 'startFuelLevel', label: 'reports.startL', show: 1 },
      { field: 'endFuelLevel', label: 'reports.endL', show: 1 },
      { field: 'filledLitres', label: 'reports.filledL', show: 1 },
      { field: 'drainedLitres', label: 'reports.drainedL', show: 1 },
      { field: 'fuelConsumption', label: 'reports.usedL', show: 1 },
      { field: 'mileage', label: 'reports.mileage', show: 1 },
      { field: 'consumptionPer100Km', label: 'reports.per100', show: 1 },
    ],
  },
});
