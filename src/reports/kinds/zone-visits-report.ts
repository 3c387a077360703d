import { Type, type Static } from 'typebox';
import type { Account } from '../../accounts/accounts.js';
import { formatDateTime } from '../../http/datetime.js';
import type { Period } from '../../http/list-params.js';
import type { LatestFix, ReportData, ReportZoneVisit } from '../../positioning/positioning.js';
import { chunkedRows, EVENT_CHUNK_VEHICLE_DAYS, type ReportChunk } from '../report-chunks.js';
import { DateTime, type Page, type ReportRow } from '../report-schema.js';
import { defineReportKind } from './report-kind.js';

export const ZoneVisitRecord = Type.Object({
  zoneID: Type.Integer(),
  zoneName: Type.String(),
  enteredDate: DateTime,
  leftDate: Type.Union([DateTime, Type.Null()], { description: 'null while the vehicle is inside' }),
  duration: Type.Integer({ description: 'seconds inside (to the latest fix while still inside)' }),
  latitude: Type.Number(),
  longitude: Type.Number(),
});
export type ZoneVisitRecord = Static<typeof ZoneVisitRecord>;

/**
 * Zone visits overlapping the period: entered at the first fix inside a zone, left at the first fix
 * clear of it (where a zone exit signal fires). One still inside counts its time to the latest fix.
 */
export async function zoneVisitRows(data: ReportData, account: Account, ids: number[], period: Period, page: Page | null): Promise<ReportRow<ZoneVisitRecord>[]> {
  return visitRows(data, account, ids, await data.zoneVisits(account.id, ids, period.fromMs, period.toMs, page));
}

/** The zone visits of one chunk of a report file: those entered in its window (or, in the first, before it). */
export async function zoneVisitChunkRows(data: ReportData, account: Account, chunk: ReportChunk): Promise<ReportRow<ZoneVisitRecord>[]> {
  const visits = await data.zoneVisits(account.id, chunk.ids, chunk.fromMs, chunk.toMs);
  return visitRows(data, account, chunk.ids, chunk.first ? visits : visits.filter((v) => v.enteredMs >= chunk.fromMs));
}

async function visitRows(data: ReportData, account: Account, ids: number[], visits: ReportZoneVisit[]): Promise<ReportRow<ZoneVisitRecord>[]> {
  const latest = visits.some((v) => v.leftMs === null) ? await data.latestFixes(account.id, ids) : new Map<number, LatestFix>();
  return visits.map((v) => {
    const untilMs = v.leftMs ?? Math.max(v.enteredMs, latest.get(v.subscriberId)?.timeMs ?? v.enteredMs);
    return {
      subscriberId: v.subscriberId,
      record: {
        zoneID: v.zoneId,
        zoneName: v.zoneName,
        enteredDate: formatDateTime(v.enteredMs, account.timeZone),
        leftDate: v.leftMs === null ? null : formatDateTime(v.leftMs, account.timeZone),
        duration: Math.round((untilMs - v.enteredMs) / 1000),
        latitude: v.latitude,
        longitude: v.longitude,
      },
    };
  });
}

/** Zone visits: one record per visit overlapping the period. */
export const zoneVisitsReport = defineReportKind({
  name: 'zoneVisits',
  record: ZoneVisitRecord,
  summary: 'Zone visits: entered, left, time inside',
  description: 'One record per visit of an enabled zone: when the vehicle entered and left it, and how long it stayed.',
  examples: [
    { zoneID: 5, zoneName: 'Warehouse Sokolniki', enteredDate: '2026-03-02T07:58:02+03:00', leftDate: '2026-03-02T08:02:11+03:00', duration: 249, latitude: 55.7892, longitude: 37.6805 },
  ],
  chunkVehicleDays: EVENT_CHUNK_VEHICLE_DAYS,
  readPage: ({ data }, account, ids, period, page) => zoneVisitRows(data, account, ids, period, page),
  stream: ({ data }, account, chunks) => chunkedRows(chunks, (chunk) => zoneVisitChunkRows(data, account, chunk)),
  columns: [
    { field: 'zoneID', type: 'integer' },
    { field: 'zoneName', type: 'text' },
    { field: 'enteredDate', type: 'date' },
    { field: 'leftDate', type: 'date' },
    { field: 'duration', type: 'duration', total: 'sum' },
    { field: 'latitude', type: 'number', digits: 6 },
    { field: 'longitude', type: 'number', digits: 6 },
  ],
  workspace: {
    label: 'reports.kindZones',
    columns: [
      { field: 'zoneName', label: 'reports.zone' },
      { field: 'enteredDate', label: 'reports.entered', show: 'date' },
      { field: 'leftDate', label: 'reports.left', show: 'date' },
      { field: 'duration', label: 'reports.inside', show: 'duration' },
    ],
  },
});
