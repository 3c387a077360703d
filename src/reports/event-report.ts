import type { Account } from '../accounts/accounts.js';
import type { VehicleSettings } from '../employees/employees.js';
import { formatDateTime } from '../http/datetime.js';
import type { Period } from '../http/list-params.js';
import type { LatestFix, ReportData, ReportZoneVisit } from '../positioning/positioning.js';
import { chunkedRows, type ReportChunk } from './report-chunks.js';
import type { ReportRow } from './report-schema.js';
import type { Page } from './trip-report.js';

/** Interface 2.3 types the reports read. */
export const EVENT = { filling: 1, drain: 2, speeding: 4, prolongedSpeeding: 5 } as const;

/**
 * Zone visits overlapping the period: entered at the first fix inside a zone, left at the first fix
 * clear of it (where a zone exit signal fires). One still inside counts its time to the latest fix.
 */
export async function zoneVisitRows(data: ReportData, account: Account, ids: number[], period: Period, page: Page | null): Promise<ReportRow<'zoneVisits'>[]> {
  return visitRows(data, account, ids, await data.zoneVisits(account.id, ids, period.fromMs, period.toMs, page));
}

/** The zone visits of one chunk of a report file: those entered in its window (or, in the first, before it). */
export async function zoneVisitChunkRows(data: ReportData, account: Account, chunk: ReportChunk): Promise<ReportRow<'zoneVisits'>[]> {
  const visits = await data.zoneVisits(account.id, chunk.ids, chunk.fromMs, chunk.toMs);
  return visitRows(data, account, chunk.ids, chunk.first ? visits : visits.filter((v) => v.enteredMs >= chunk.fromMs));
}

async function visitRows(data: ReportData, account: Account, ids: number[], visits: ReportZoneVisit[]): Promise<ReportRow<'zoneVisits'>[]> {
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

/**
 * Speeding episodes: route 6's type 4 events, each marked prolonged when a type 5 began with it.
 * Read chunk by chunk (windows split the period at whole milliseconds, so an event is in one).
 */
export function speedingChunks(
  data: ReportData,
  account: Account,
  chunks: Iterable<ReportChunk>,
  settingsOf: (ids: number[]) => Promise<Map<number, VehicleSettings>>,
): AsyncGenerator<ReportRow<'speeding'>[]> {
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
