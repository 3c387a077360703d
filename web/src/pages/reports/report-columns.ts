import type { ReportKind } from '../../types';
import type { Row } from './report-model';

/** A column of the on-screen table: how it reads and how it sorts. */
export interface Column {
  key: string;
  label: string;
  text: (row: Row) => string;
  sort: (row: Row) => string | number;
  numeric?: boolean;
}

type Get = (row: Row) => unknown;
const num = (get: Get) => (row: Row) => (typeof get(row) === 'number' ? (get(row) as number) : -Infinity);
const fixed = (get: Get, digits: number) => (row: Row) => (typeof get(row) === 'number' ? (get(row) as number).toFixed(digits) : '–');

/** `2026-05-20T14:30:00+05:30` as `2026-05-20 14:30` (the account's zone, as the server wrote it). */
export const shortDate = (value: unknown) => (typeof value === 'string' ? value.slice(0, 16).replace('T', ' ') : '–');

/** Seconds as `h:mm`. */
export function duration(seconds: unknown): string {
  if (typeof seconds !== 'number') return '–';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

function column(key: string, label: string, kind: 'text' | 'date' | 'duration' | number = 'text'): Column {
  const get: Get = (row) => (row as unknown as Record<string, unknown>)[key];
  if (kind === 'date') return { key, label, text: (r) => shortDate(get(r)), sort: (r) => String(get(r) ?? '') };
  if (kind === 'duration') return { key, label, text: (r) => duration(get(r)), sort: num(get), numeric: true };
  if (typeof kind === 'number') return { key, label, text: fixed(get, kind), sort: num(get), numeric: true };
  return { key, label, text: (r) => String(get(r) ?? '–'), sort: (r) => String(get(r) ?? '') };
}

const employee: Column = { key: 'name', label: 'Employee', text: (r) => r.name, sort: (r) => r.name.toLowerCase() };

export const COLUMNS: Record<ReportKind, Column[]> = {
  summary: [
    employee,
    column('date', 'Date'),
    column('mileage', 'Mileage, km', 1),
    column('trips', 'Trips', 0),
    column('drivingSeconds', 'Driving', 'duration'),
    column('engineMotohours', 'Engine, h', 2),
    column('idleSeconds', 'Idling', 'duration'),
    column('maxSpeed', 'Max speed, km/h', 0),
    column('fuelConsumption', 'Fuel used, l', 1),
    column('speedings', 'Speedings', 0),
    column('zoneVisits', 'Zone visits', 0),
  ],
  trips: [
    employee,
    column('startDate', 'Start', 'date'),
    column('finishDate', 'Finish', 'date'),
    column('startAddress', 'From'),
    column('finishAddress', 'To'),
    { ...column('distance', 'Distance, km', 1), text: (r) => ((r as Row<'trips'>).distance / 1000).toFixed(1) },
    column('duration', 'Duration', 'duration'),
    column('maxSpeed', 'Max speed, km/h', 0),
    column('averageSpeed', 'Average, km/h', 0),
  ],
  stops: [
    employee,
    column('startDate', 'From', 'date'),
    column('finishDate', 'Until', 'date'),
    column('duration', 'Duration', 'duration'),
    column('idleSeconds', 'Idling', 'duration'),
    column('address', 'Place'),
  ],
  fuel: [
    employee,
    column('date', 'Date'),
    column('startFuelLevel', 'Start, l', 1),
    column('endFuelLevel', 'End, l', 1),
    column('filledLitres', 'Filled, l', 1),
    column('drainedLitres', 'Drained, l', 1),
    column('fuelConsumption', 'Used, l', 1),
    column('mileage', 'Mileage, km', 1),
    column('consumptionPer100Km', 'l/100 km', 1),
  ],
  zoneVisits: [
    employee,
    column('zoneName', 'Zone'),
    column('enteredDate', 'Entered', 'date'),
    column('leftDate', 'Left', 'date'),
    column('duration', 'Time inside', 'duration'),
  ],
  speeding: [
    employee,
    column('date', 'When', 'date'),
    column('maxSpeed', 'Max speed, km/h', 0),
    column('speedLimit', 'Limit, km/h', 0),
    { key: 'prolonged', label: 'Prolonged', text: (r) => ((r as Row<'speeding'>).prolonged ? 'yes' : 'no'), sort: (r) => Number((r as Row<'speeding'>).prolonged) },
  ],
};
