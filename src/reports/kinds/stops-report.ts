import { Type, type Static } from 'typebox';
import type { Account } from '../../accounts/accounts.js';
import { formatDateTime } from '../../http/datetime.js';
import type { Period } from '../../http/list-params.js';
import type { LatestFix, ReportData, ReportTrack } from '../../positioning/positioning.js';
import { chunkedRows, EVENT_CHUNK_VEHICLE_DAYS, type ReportChunk } from '../report-chunks.js';
import { DateTime, type ReportRow } from '../report-schema.js';
import { defineReportKind } from './report-kind.js';

/** The time between two tracks. */
export const StopRecord = Type.Object({
  startDate: DateTime,
  finishDate: Type.Union([DateTime, Type.Null()], { description: 'null while the vehicle still stands' }),
  duration: Type.Integer({ description: 'seconds (to the latest fix while it still stands)' }),
  latitude: Type.Number(),
  longitude: Type.Number(),
  address: Type.String(),
  idleSeconds: Type.Integer({ description: 'engine on while parked' }),
});
export type StopRecord = Static<typeof StopRecord>;

/**
 * Stops: the time between one track's finish and the next one's start, listed when it overlaps the
 * period (the last one, after the latest track, while the vehicle still stands, to its latest fix).
 * A stop begins and ends at fixes: before a vehicle's first track there is none, whenever its data
 * begins, and none is cut to the period's edges. Idling is the engine time between those two fixes:
 * the running engine total on each (nothing in between is in a track, so all of it was parked).
 *
 * Made chunk by chunk (report-chunks.ts): each vehicle's tracks are walked window by window in
 * order, the last track of a window carried to the next, where the stop after it ends.
 */
export async function* stopChunks(data: ReportData, account: Account, chunks: Iterable<ReportChunk>, period: Period): AsyncGenerator<ReportRow<StopRecord>[]> {
  const carried = new Map<number, ReportTrack>();
  yield* chunkedRows(chunks, async (chunk) => {
    const rows: ReportRow<StopRecord>[] = [];
    const inWindow = await data.tracks(account.id, chunk.ids, chunk.fromMs, chunk.toMs);
    const latest = chunk.last ? await data.latestFixes(account.id, chunk.ids) : new Map<number, LatestFix>();
    for (const id of chunk.ids) {
      const own = inWindow.filter((t) => t.subscriberId === id && (chunk.first || t.startMs >= chunk.fromMs));
      const tracks: ReportTrack[] = [];
      const carry = carried.get(id);
      if (carry) tracks.push(carry);
      if (chunk.first || chunk.last) {
        const { before, after } = await data.neighbourTracks(account.id, id, period.fromMs, period.toMs);
        // The last track begun before the period is the window's first when it runs into the period.
        if (chunk.first && before && before.trackID !== own[0]?.trackID) tracks.push(before);
        tracks.push(...own);
        if (chunk.last && after) tracks.push(after);
      } else tracks.push(...own);
      carried.delete(id);
      if (tracks.length === 0) continue;
      const engine = await data.engineSecondsAt(account.id, id, tracks.flatMap((t) => [t.startMs, t.finishMs]));
      const last = latest.get(id);
      const stopAfter = (track: ReportTrack, next: ReportTrack | null) => {
        if (track.isOpen) return;
        const endMs = next ? next.startMs : (last?.timeMs ?? track.finishMs);
        if (track.finishMs > period.toMs || endMs < period.fromMs) return;
        const engineAtEnd = next ? engine.get(next.startMs) : last?.metrics.cumEngineS;
        const engineAtStart = engine.get(track.finishMs);
        const idle = engineAtEnd !== undefined && engineAtStart !== undefined ? Math.max(0, engineAtEnd - engineAtStart) : 0;
        const record: StopRecord = {
          startDate: formatDateTime(track.finishMs, account.timeZone),
          finishDate: next ? formatDateTime(next.startMs, account.timeZone) : null,
          duration: Math.round((endMs - track.finishMs) / 1000),
          latitude: track.finishLat,
          longitude: track.finishLon,
          address: track.finishAddress,
          idleSeconds: Math.round(idle),
        };
        rows.push({ subscriberId: id, record });
      };
      for (let i = 0; i + 1 < tracks.length; i++) stopAfter(tracks[i]!, tracks[i + 1]!);
      if (chunk.last) stopAfter(tracks.at(-1)!, null);
      else carried.set(id, tracks.at(-1)!);
    }
    return rows;
  });
}

/** Stops: one record per stop between tracks overlapping the period; a page is cut from the chunks. */
export const stopsReport = defineReportKind({
  name: 'stops',
  record: StopRecord,
  summary: 'Stops between tracks, with idling (engine on while parked)',
  description: 'One record per stop: the time between two tracks, where the vehicle stood, and how long its engine ran while it did.',
  examples: [
    {
      startDate: '2026-03-02T08:41:50+03:00',
      finishDate: '2026-03-02T09:05:30+03:00',
      duration: 1420,
      latitude: 55.75583,
      longitude: 37.61173,
      address: 'Pharmacy on Tverskaya',
      idleSeconds: 240,
    },
  ],
  chunkVehicleDays: EVENT_CHUNK_VEHICLE_DAYS,
  stream: ({ data }, account, chunks, period) => stopChunks(data, account, chunks, period),
  columns: [
    { field: 'startDate', type: 'date' },
    { field: 'finishDate', type: 'date' },
    { field: 'duration', type: 'duration', total: 'sum' },
    { field: 'idleSeconds', type: 'duration', total: 'sum' },
    { field: 'address', type: 'text' },
    { field: 'latitude', type: 'number', digits: 6 },
    { field: 'longitude', type: 'number', digits: 6 },
  ],
  workspace: {
    label: 'reports.kindStops',
    columns: [
      { field: 'startDate', label: 'reports.stopFrom', show: 'date' },
      { field: 'finishDate', label: 'reports.until', show: 'date' },
      { field: 'duration', label: 'reports.duration', show: 'duration' },
      { field: 'idleSeconds', label: 'reports.idling', show: 'duration' },
      { field: 'address', label: 'reports.place' },
    ],
  },
});
