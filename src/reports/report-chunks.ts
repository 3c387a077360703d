import { setImmediate as nextTurn } from 'node:timers/promises';
import { invalidField } from '../http/errors.js';
import type { Period } from '../http/list-params.js';
import { localDays } from './report-days.js';

/**
 * The longest period a report covers: a year, a leap day included. A report is a fleet's days, so
 * its size grows with the period; a year is what a fleet asks of one (annual mileage, a year of
 * trips for the tax office), and more than that is a request for an archive, not a report.
 */
export const MAX_REPORT_DAYS = 366;
const DAY_MS = 86_400_000;

/**
 * How much of a report one chunk reads at once, in vehicle-days: a file is made chunk by chunk,
 * each read from the store, written out, then a turn of the event loop for every other request,
 * so neither its memory nor the longest pause it causes grows with the report. A daily report has
 * a row per vehicle-day and its cost is the store's seeks per day: 64 of them are a few
 * milliseconds. A vehicle-day of trips, stops, visits or speedings can be fifty rows (a courier):
 * 16 of them are 800 rows at most, some ten milliseconds of work. Each report names its own
 * (`chunkVehicleDays`).
 */
export const DAILY_CHUNK_VEHICLE_DAYS = 64;
export const EVENT_CHUNK_VEHICLE_DAYS = 16;

/** Refuses a period longer than `MAX_REPORT_DAYS` (CONTRACT §1's envelope, code 2, naming the field). */
export function checkReportPeriod(period: Period, named: { dateTo: boolean }): void {
  if (period.toMs - period.fromMs <= MAX_REPORT_DAYS * DAY_MS) return;
  if (named.dateTo) throw invalidField('dateTo', `must be at most ${MAX_REPORT_DAYS} days after dateFrom`);
  throw invalidField('dateFrom', `must be at most ${MAX_REPORT_DAYS} days before dateTo (now when dateTo is omitted)`);
}

/**
 * A piece of a report: some employees over a window `[fromMs, toMs]` of the period. Windows are
 * whole days of the account's zone (cut to the period at its ends), so a daily report's chunk holds
 * whole days. `first`: the window opens the period (it keeps what began before the period, as the
 * whole report does; later windows keep only what began in them). `last`: it closes the period.
 */
export interface ReportChunk {
  ids: number[];
  fromMs: number;
  toMs: number;
  first: boolean;
  last: boolean;
}

/**
 * The chunks of a report, in the report's order (by employee, then time): a short period takes
 * several employees whole per chunk; a long one takes one employee a window of days at a time.
 */
export function* reportChunks(period: Period, ids: readonly number[], timeZone: string, vehicleDays: number): Generator<ReportChunk> {
  const days = localDays(period.fromMs, period.toMs, timeZone);
  if (days.length === 0 || ids.length === 0) return;
  if (days.length <= vehicleDays) {
    const batch = Math.max(1, Math.floor(vehicleDays / days.length));
    for (let i = 0; i < ids.length; i += batch) yield { ids: ids.slice(i, i + batch), fromMs: period.fromMs, toMs: period.toMs, first: true, last: true };
    return;
  }
  for (const id of ids) {
    for (let start = 0; start < days.length; start += vehicleDays) {
      const end = Math.min(days.length, start + vehicleDays);
      yield {
        ids: [id],
        fromMs: start === 0 ? period.fromMs : days[start]!.fromMs,
        toMs: end === days.length ? period.toMs : days[end]!.fromMs - 1,
        first: start === 0,
        last: end === days.length,
      };
    }
  }
}

/** The rows each chunk makes, a turn of the event loop after each, so a long report never holds the thread. */
export async function* chunkedRows<T>(chunks: Iterable<ReportChunk>, rowsOf: (chunk: ReportChunk) => Promise<T[]>): AsyncGenerator<T[]> {
  for (const chunk of chunks) {
    const rows = await rowsOf(chunk);
    if (rows.length) yield rows;
    await nextTurn();
  }
}

/** `limit` rows after skipping `offset`, read chunk by chunk and stopping once the page is full. */
export async function pageOf<T>(source: AsyncIterable<readonly T[]>, page: { limit: number; offset: number } | null): Promise<T[]> {
  const rows: T[] = [];
  let skip = page?.offset ?? 0;
  const limit = page?.limit ?? Infinity;
  for await (const chunk of source) {
    const from = Math.min(skip, chunk.length);
    skip -= from;
    for (let i = from; i < chunk.length && rows.length < limit; i++) rows.push(chunk[i]!);
    if (rows.length >= limit) break;
  }
  return rows;
}
