import { formatDateTime, formatNumber } from '../../i18n/format';
import { t, type PlainKey } from '../../i18n/i18n';
import type { ReportKind } from '../../types';
import type { ScreenColumnView } from '../../generated/kinds';
import { reportView, type Row } from './report-model';

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

function column({ field: key, label, show = 'text', divideBy }: ScreenColumnView): Column {
  const get: Get = (row) => (row as unknown as Record<string, unknown>)[key];
  if (show === 'date') return { key, label, text: (r) => shortDate(get(r)), sort: (r) => String(get(r) ?? '') };
  if (show === 'duration') return { key, label, text: (r) => duration(get(r)), sort: num(get), numeric: true };
  if (show === 'yesNo') return { key, label, text: (r) => (get(r) ? t('reports.yes') : t('reports.no')), sort: (r) => Number(get(r)) };
  if (typeof show === 'number') {
    const shown: Get = divideBy === undefined ? get : (row) => (typeof get(row) === 'number' ? (get(row) as number) / divideBy : get(row));
    return { key, label, text: fixed(shown, show), sort: num(get), numeric: true };
  }
  return { key, label, text: (r) => String(get(r) ?? '–'), sort: (r) => String(get(r) ?? '') };
}

const employee: Column = { key: 'name', label: 'reports.employee', text: (r) => r.name, sort: (r) => r.name.toLowerCase() };

/** A report's table: the employee, then the report's columns (generated/kinds.ts). */
export function columnsOf(kind: ReportKind): Column[] {
  return [employee, ...reportView(kind).columns.map(column)];
}
