import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import type { Period } from '../http/list-params.js';
import type { LatestFix, ReportData, ReportTrack } from '../positioning/positioning.js';
import { chunkedRows, type ReportChunk } from './report-chunks.js';
import type { ReportRow, StopRecord, TripRecord } from './report-schema.js';

export interface Page {
  limit: number;
  offset: number;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Trips: the tracks route 3 lists for the period, with their highest and average speeds. */
export async function tripRows(data: ReportData, account: Account, ids: number[], period: Period, page: Page | null): Promise<ReportRow<'trips'>[]> {
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
export async function tripChunkRows(data: ReportData, account: Account, chunk: ReportChunk): Promise<ReportRow<'trips'>[]> {
  const tracks = await data.tracks(account.id, chunk.ids, chunk.fromMs, chunk.toMs);
  return tracks.filter((t) => chunk.first || t.startMs >= chunk.fromMs).map((t) => ({ subscriberId: t.subscriberId, record: toTrip(t, account.timeZone) }));
}

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
export async function* stopChunks(data: ReportData, account: Account, chunks: Iterable<ReportChunk>, period: Period): AsyncGenerator<ReportRow<'stops'>[]> {
  const carried = new Map<number, ReportTrack>();
  yield* chunkedRows(chunks, async (chunk) => {
    const rows: ReportRow<'stops'>[] = [];
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
