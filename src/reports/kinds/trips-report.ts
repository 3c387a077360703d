import { Type, type Static } from 'typebox';
import type { Account } from '../../accounts/accounts.js';
import { formatDateTime } from '../../http/datetime.js';
import type { Period } from '../../http/list-params.js';
import type { ReportData, ReportTrack } from '../../positioning/positioning.js';
import { chunkedRows, EVENT_CHUNK_VEHICLE_DAYS, type ReportChunk } from '../report-chunks.js';
import { DateTime, NullableNumber, type Page, type ReportRow } from '../report-schema.js';
import { defineReportKind } from './report-kind.js';

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
export type TripRecord = Static<typeof TripRecord>;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Trips: the tracks route 3 lists for the period, with their highest and average speeds. */
export async function tripRows(data: ReportData, account: Account, ids: number[], period: Period, page: Page | null): Promise<ReportRow<TripRecord>[]> {
  const tracks = await data.tracks(account.id, ids, period.fromMs, period.toMs, page);
  return tracks.map((t) => ({ subscriberId: t.subscriberId, record: toTrip(t, account.timeZone) }));
}

export function toTrip(t: ReportTrack, timeZone: string): TripRecord {
  // Whole metres and seconds, as route 3 answers them.
  const distance = Math.round(t.distanceM);
  const duration = Math.round((t.finishMs - t.startMs) / 1000);
  return {
    trackID: t.trackID,
    startDate: formatDateTime(t.startMs, timeZone),
    finishDate: formatDateTime(t.finishMs, timeZone),
    startAddress: t.startAddress,
    finishAddress: t.finishAddress,
    startLat: t.startLat,
    startLon: t.startLon,
    finishLat: t.finishLat,
    finishLon: t.finishLon,
    distance,
    duration,
    maxSpeed: t.maxSpeedKmh === null ? null : round(t.maxSpeedKmh, 1),
    averageSpeed: duration > 0 ? round((distance / duration) * 3.6, 1) : 0,
    inProgress: t.isOpen,
  };
}

/** The trips of one chunk of a report file: those that began in its window (or, in the first, before it). */
export async function tripChunkRows(data: ReportData, account: Account, chunk: ReportChunk): Promise<ReportRow<TripRecord>[]> {
  const tracks = await data.tracks(account.id, chunk.ids, chunk.fromMs, chunk.toMs);
  return tracks.filter((t) => chunk.first || t.startMs >= chunk.fromMs).map((t) => ({ subscriberId: t.subscriberId, record: toTrip(t, account.timeZone) }));
}

/** Trips: one record per track of route 3 overlapping the period. */
export const tripsReport = defineReportKind({
  name: 'trips',
  record: TripRecord,
  summary: 'Trips: the tracks of route 3 in the period, with highest and average speeds',
  description: 'One record per track (as route 3 lists them) that started in the period, with its highest and average speeds.',
  examples: [
    {
      trackID: 1207,
      startDate: '2026-03-02T08:02:11+03:00',
      finishDate: '2026-03-02T08:41:50+03:00',
      startAddress: 'Warehouse Sokolniki',
      finishAddress: '55.75583, 37.61173',
      startLat: 55.7892,
      startLon: 37.6805,
      finishLat: 55.75583,
      finishLon: 37.61173,
      distance: 7412,
      duration: 2379,
      maxSpeed: 64.8,
      averageSpeed: 11.2,
      inProgress: false,
    },
  ],
  chunkVehicleDays: EVENT_CHUNK_VEHICLE_DAYS,
  readPage: ({ data }, account, ids, period, page) => tripRows(data, account, ids, period, page),
  stream: ({ data }, account, chunks) => chunkedRows(chunks, (chunk) => tripChunkRows(data, account, chunk)),
  columns: [
    { field: 'trackID', type: 'integer' },
    { field: 'startDate', type: 'date' },
    { field: 'finishDate', type: 'date' },
    { field: 'startAddress', type: 'text' },
    { field: 'finishAddress', type: 'text' },
    { field: 'distance', type: 'integer', total: 'sum' },
    { field: 'duration', type: 'duration', total: 'sum' },
    { field: 'maxSpeed', type: 'number', total: 'max', digits: 1 },
    { field: 'averageSpeed', type: 'number', digits: 1 },
  ],
  workspace: {
    label: 'reports.kindTrips',
    columns: [
      { field: 'startDate', label: 'reports.start', show: 'date' },
      { field: 'finishDate', label: 'reports.finish', show: 'date' },
      { field: 'startAddress', label: 'reports.fromPlace' },
      { field: 'finishAddress', label: 'reports.toPlace' },
      { field: 'distance', label: 'reports.distanceKm', show: 1, divideBy: 1000 },
      { field: 'duration', label: 'reports.duration', show: 'duration' },
      { field: 'maxSpeed', label: 'reports.maxSpeed', show: 0 },
      { field: 'averageSpeed', label: 'reports.average', show: 0 },
    ],
  },
});
