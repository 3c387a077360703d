import { Type, type Static } from 'typebox';
import type { Account } from '../../accounts/accounts.js';
import type { VehicleSettings } from '../../employees/employees.js';
import { formatDateTime } from '../../http/datetime.js';
import type { ReportData } from '../../positioning/positioning.js';
import { chunkedRows, EVENT_CHUNK_VEHICLE_DAYS, type ReportChunk } from '../report-chunks.js';
import { EVENT } from '../report-events.js';
import { DateTime, type ReportRow } from '../report-schema.js';
import { defineReportKind } from './report-kind.js';

export const SpeedingRecord = Type.Object({
  date: DateTime,
  latitude: Type.Number(),
  longitude: Type.Number(),
  maxSpeed: Type.Number({ description: 'km/h: the value of route 6’s type 4 event' }),
  speedLimit: Type.Number({ description: 'km/h: the vehicle’s limit now' }),
  prolonged: Type.Boolean({ description: 'a type 5 event (prolonged speeding) began with it' }),
});
export type SpeedingRecord = Static<typeof SpeedingRecord>;

/**
 * Speeding episodes: route 6's type 4 events, each marked prolonged when a type 5 began with it.
 * Read chunk by chunk (windows split the period at whole milliseconds, so an event is in one).
 */
export function speedingChunks(
  data: ReportData,
  account: Account,
  chunks: Iterable<ReportChunk>,
  settingsOf: (ids: number[]) => Promise<Map<number, VehicleSettings>>,
): AsyncGenerator<ReportRow<SpeedingRecord>[]> {
  return chunkedRows(chunks, async (chunk) => {
    const events = await data.events(account.id, chunk.ids, chunk.fromMs, chunk.toMs, [EVENT.speeding, EVENT.prolongedSpeeding]);
    if (events.length === 0) return [];
    const settings = await settingsOf(chunk.ids);
    const prolonged = new Set(events.filter((e) => e.type === EVENT.prolongedSpeeding).map((e) => `${e.subscriberId}:${e.eventMs}`));
    return events
      .filter((e) => e.type === EVENT.speeding)
      .map((e) => ({
        subscriberId: e.subscriberId,
        record: {
          date: formatDateTime(e.eventMs, account.timeZone),
          latitude: e.latitude,
          longitude: e.longitude,
          maxSpeed: e.value,
          speedLimit: settings.get(e.subscriberId)?.speedLimit ?? 0,
          prolonged: prolonged.has(`${e.subscriberId}:${e.eventMs}`),
        },
      }));
  });
}

/** Speeding: one record per speed exceeded event; a page is cut from the chunks. */
export const speedingReport = defineReportKind({
  name: 'speeding',
  record: SpeedingRecord,
  summary: 'Speeding episodes (route 6 types 4 and 5)',
  description: 'One record per speed-exceeded event (route 6, type 4), with the vehicle’s limit and whether it became prolonged speeding (type 5).',
  examples: [{ date: '2026-03-02T08:15:40+03:00', latitude: 55.77121, longitude: 37.65234, maxSpeed: 97, speedLimit: 90, prolonged: false }],
  chunkVehicleDays: EVENT_CHUNK_VEHICLE_DAYS,
  stream: ({ data, vehicleSettingsOf }, account, chunks) => speedingChunks(data, account, chunks, (ids) => vehicleSettingsOf(account.id, ids)),
  columns: [
    { field: 'date', type: 'date' },
    { field: 'maxSpeed', type: 'number', total: 'max', digits: 1 },
    { field: 'speedLimit', type: 'number', digits: 0 },
    { field: 'prolonged', type: 'boolean' },
    { field: 'latitude', type: 'number', digits: 6 },
    { field: 'longitude', type: 'number', digits: 6 },
  ],
  workspace: {
    label: 'reports.kindSpeeding',
    columns: [
      { field: 'date', label: 'reports.when', show: 'date' },
      { field: 'maxSpeed', label: 'reports.maxSpeed', show: 0 },
      { field: 'speedLimit', label: 'reports.limit', show: 0 },
      { field: 'prolonged', label: 'reports.prolonged', show: 'yesNo' },
    ],
  },
});
