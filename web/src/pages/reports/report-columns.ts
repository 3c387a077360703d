import { formatDateTime, formatNumber } from '../../i18n/format';
import { t, type PlainKey } from '../../i18n/i18n';
import type { ReportKind } from '../../types';
import type { Row } from './report-model';

/** A column of the on-screen table: how it reads and how it sorts. */
export interface Column {
  key: string;
  label: PlainKey;
  text: (row: Row) => string;
  sort: (row: Row) => string | number;
  numeric?: boolean;
}

type Get = (row: Row) => unknown;
const num = (get: Get) => (row: Row) => (typeof get(row) === 'number' ? (get(row) as number) : -Infinity);
const fixed = (get: Get, digits: number) => (row: Row) => (typeof get(row) === 'number' ? formatNumber(get(row) as number, digits, digits) : '–');

/** `2026-05-20T14:30:00+05:30` as `2026-05-20 14:30` (the account's zone, as the server wrote it). */
export const shortDate = (value: unknown) => (typeof value === 'string' ? formatDateTime(`${value.slice(0, 16)}:00Z`, 'UTC') : '–');

/** Seconds as `h:mm`. */
export function duration(seconds: unknown): string {
  if (typeof seconds !== 'number') return '–';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

function column(key: string, label: PlainKey, kind: 'text' | 'date' | 'duration' | number = 'text'): Column {
  const get: Get = (row) => (row as unknown as Record<string, unknown>)[key];
  if (kind === 'date') return { key, label, text: (r) => shortDate(get(r)), sort: (r) => String(get(r) ?? '') };
  if (kind === 'duration') return { key, label, text: (r) => duration(get(r)), sort: num(get), numeric: true };
  if (typeof kind === 'number') return { key, label, text: fixed(get, kind), sort: num(get), numeric: true };
  return { key, label, text: (r) => String(get(r) ?? '–'), sort: (r) => String(get(r) ?? '') };
}

const employee: Column = { key: 'name', label: 'reports.employee', text: (r) => r.name, sort: (r) => r.name.toLowerCase() };

export const COLUMNS: Record<ReportKind, Column[]> = {
  summary: [
    employee,
    column('date', 'reports.date'),
    column('mileage', 'reports.mileage', 1),
    column('trips', 'reports.trips', 0),
    column('drivingSeconds', 'reports.driving', 'duration'),
    column('engineMotohours', 'reports.engine', 2),
    column('idleSeconds', 'reports.idling', 'duration'),
    column('maxSpeed', 'reports.maxSpeed', 0),
    column('fuelConsumption', 'reports.fuelUsedL', 1),
    column('speedings', 'reports.speedings', 0),
    column('zoneVisits', 'reports.zoneVisits', 0),
  ],
  trips: [
    employee,
    column('startDate', 'reports.start', 'date'),
    column('finishDate', 'reports.finish', 'date'),
    column('startAddress', 'reports.fromPlace'),
    column('finishAddress', 'reports.toPlace'),
    { ...column('distance', 'reports.distanceKm', 1), text: (r) => formatNumber((r as Row<'trips'>).distance / 1000, 1, 1) },
    column('duration', 'reports.duration', 'duration'),
    column('maxSpeed', 'reports.maxSpeed', 0),
    column('averageSpeed', 'reports.average', 0),
  ],
  stops: [
    employee,
    column('startDate', 'reports.stopFrom', 'date'),
    column('finishDate', 'reports.until', 'date'),
    column('duration', 'reports.duration', 'duration'),
    column('idleSeconds', 'reports.idling', 'duration'),
    column('address', 'reports.place'),
  ],
  fuel: [
    employee,
    column('date', 'reports.date'),
    column('startFuelLevel', 'reports.startL', 1),
    column('endFuelLevel', 'reports.endL', 1),
    column('filledLitres', 'reports.filledL', 1),
    column('drainedLitres', 'reports.drainedL', 1),
    column('fuelConsumption', 'reports.usedL', 1),
    column('mileage', 'reports.mileage', 1),
    column('consumptionPer100Km', 'reports.per100', 1),
  ],
  zoneVisits: [
    employee,
    column('zoneName', 'reports.zone'),
    column('enteredDate', 'reports.entered', 'date'),
    column('leftDate', 'reports.left', 'date'),
    column('duration', 'reports.inside', 'duration'),
  ],
  speeding: [
    employee,
    column('date', 'reports.when', 'date'),
    column('maxSpeed', 'reports.maxSpeed', 0),
    column('speedLimit', 'reports.limit', 0),
    { key: 'prolonged', label: 'reports.prolonged', text: (r) => ((r as Row<'speeding'>).prolonged ? t('reports.yes') : t('reports.no')), sort: (r) => Number((r as Row<'speeding'>).prolonged) },
  ],
};
