import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import type { Period } from '../http/list-params.js';
import type { ReportData, ReportTrack } from '../positioning/positioning.js';
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

/**
 * Stops: the time between one track's finish and the next one's start, listed when it overlaps the
 * period (the last one, after the latest track, while the vehicle still stands). Idling is the
 * engine time between those two fixes: the running engine total on each (nothing in between is in
 * a track, so all of it was parked).
 */
export async function stopRows(data: ReportData, account: Account, ids: number[], period: Period): Promise<ReportRow<'stops'>[]> {
  const rows: ReportRow<'stops'>[] = [];
  const inPeriod = await data.tracks(account.id, ids, period.fromMs, period.toMs);
  const latest = await data.latestFixes(account.id, ids);
  for (const id of ids) {
    const own = inPeriod.filter((t) => t.subscriberId === id);
    const { before, after } = await data.neighbourTracks(account.id, id, own[0]?.startMs ?? period.fromMs, period.toMs);
    const tracks = [...(before ? [before] : []), ...own, ...(after ? [after] : [])];
    if (tracks.length === 0) continue;
    const engine = await data.engineSecondsAt(account.id, id, tracks.flatMap((t) => [t.startMs, t.finishMs]));
    const last = latest.get(id);
    tracks.forEach((track, i) => {
      if (track.isOpen) return;
      const next = tracks[i + 1] ?? null;
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
    });
  }
  return rows;
}
