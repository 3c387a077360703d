import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Database } from '../store/database.js';
import { pointKey, type AddressResolver } from './address-resolver.js';
import { coordinatesText } from '../geo/geo.js';
import type { Location } from './location-schema.js';
import { toLocation } from './location-service.js';
import { subscribersWithData, validFixesBetween } from './location-store.js';
import { loadPipelineStates } from './pipeline/pipeline-store.js';
import type { Track, TrackListQuery } from './track-schema.js';
import { findTrack, listTracks, tracksRunningAt, type TrackRow } from './track-store.js';

/** Routes 3-5 of interface 4.1: tracks are derived by the pipeline, read here. */
export class TrackService {
  constructor(
    private readonly database: Database,
    private readonly addresses: AddressResolver,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Tracks that overlap the period, `trackID` ascending; `lastTrackID` returns greater ids, `offset`
   * skips. Those that start in the period come from (account, start); of those that started
   * before, only each vehicle's last one can still run into it (a vehicle's tracks never
   * overlap), one seek per vehicle. So a day costs its own tracks, however many came before.
   */
  async list(account: Account, query: TrackListQuery): Promise<Track[]> {
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    const { db } = this.database;
    const subscriberIds = query.subscriberIDs?.length ? query.subscriberIDs : await subscribersWithData(db, account.id);
    const rows = await listTracks(db, account.id, {
      fromMs: period.fromMs,
      toMs: period.toMs,
      subscriberIds: query.subscriberIDs,
      running: await tracksRunningAt(this.database, db, account.id, subscriberIds, period.fromMs),
      afterId: query.lastTrackID,
      count: query.count ?? 1000,
      offset: query.offset ?? 0,
    });
    const current = await this.current(rows);
    return current.filter((row) => row.finish_ms >= period.fromMs).map((row) => toTrack(row, account.timeZone));
  }

  async get(account: Account, trackID: number): Promise<Track> {
    return toTrack(await this.row(account, trackID), account.timeZone);
  }

  /** The valid fixes of the track, oldest first. */
  async locations(account: Account, trackID: number): Promise<Location[]> {
    const track = await this.row(account, trackID);
    const rows = await validFixesBetween(this.database.db, account.id, track.subscriber_id, track.start_ms, track.finish_ms);
    return rows.map((row) => toLocation(row, account.timeZone));
  }

  private async row(account: Account, trackID: number): Promise<TrackRow> {
    const row = await findTrack(this.database.db, account.id, trackID);
    if (!row) throw new ApiError('TRACK_NOT_FOUND', `no track ${trackID}`);
    const [current] = await this.current([row]);
    return current!;
  }

  /**
   * A track in progress is written once, when it first qualifies; its latest fix and distance live
   * in the pipeline's state (a write per batch spared), so they are taken from there (CONTRACT §2:
   * listed with the latest fix as its finish).
   */
  async current(rows: TrackRow[]): Promise<TrackRow[]> {
    const open = rows.filter((r) => r.is_open === 1);
    if (open.length === 0) return rows;
    const states = await loadPipelineStates(this.database.db, open[0]!.account_id, [...new Set(open.map((r) => r.subscriber_id))]);
    const finishes = open.flatMap((r) => {
      const last = states.get(r.subscriber_id)?.track.track?.last;
      return last ? [{ latitude: last.lat, longitude: last.lon }] : [];
    });
    const names = await this.addresses.names(this.database.db, open[0]!.account_id, finishes);
    return rows.map((row) => {
      const track = row.is_open === 1 ? states.get(row.subscriber_id)?.track.track : undefined;
      if (!track || track.start.t !== row.start_ms) return row;
      const { last } = track;
      return {
        ...row,
        finish_ms: last.t,
        finish_lat: last.lat,
        finish_lon: last.lon,
        distance_m: track.distanceM,
        max_speed_kmh: track.maxKmh ?? row.max_speed_kmh,
        finish_address: names.get(pointKey(last.lat, last.lon)) ?? coordinatesText(last.lat, last.lon),
      };
    });
  }
}

function toTrack(row: TrackRow, timeZone: string): Track {
  return {
    trackID: row.id,
    subscriberID: row.subscriber_id,
    startDate: formatDateTime(row.start_ms, timeZone),
    finishDate: formatDateTime(row.finish_ms, timeZone),
    startAddress: row.start_address,
    finishAddress: row.finish_address,
    startLon: row.start_lon,
    startLat: row.start_lat,
    finishLon: row.finish_lon,
    finishLat: row.finish_lat,
    distance: Math.round(row.distance_m),
    duration: Math.round((row.finish_ms - row.start_ms) / 1000),
  };
}
