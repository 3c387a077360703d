import type { Database } from '../store/database.js';
import { loadPipelineStates } from './pipeline/pipeline-store.js';
import type { FixMetrics } from './pipeline/pipeline-types.js';
import { engineTotalsAt, windowEdges } from './statistics-store.js';
import type { TrackService } from './track-service.js';
import { adjacentTrack, trackKeysBySubscriber, tracksBySubscriber, type TrackRow } from './track-store.js';
import { listVehicleEvents } from './vehicle-event-store.js';
import { listZoneVisits } from './zone-visit-store.js';

/** A track as the reports read it: route 3's row with its highest speed; an open track with its current finish. */
export interface ReportTrack {
  trackID: number;
  subscriberId: number;
  startMs: number;
  finishMs: number;
  startLat: number;
  startLon: number;
  finishLat: number;
  finishLon: number;
  startAddress: string;
  finishAddress: string;
  distanceM: number;
  maxSpeedKmh: number | null;
  isOpen: boolean;
}

/** The running totals at a day's edges, from the statistics buckets: route 7 interval 1 over that day. */
export interface DayEdges {
  subscriberId: number;
  /** Index of the day in the windows asked for. */
  day: number;
  /** Totals before the day's first fix (those at the last fix before the day). */
  start: FixMetrics;
  /** Smoothed fuel at the day's first fix. */
  startFuel: number | null;
  /** Totals at the day's last fix. */
  end: FixMetrics;
  lastFixMs: number;
}

export interface ReportEvent {
  subscriberId: number;
  type: number;
  eventMs: number;
  latitude: number;
  longitude: number;
  value: number;
}

export interface ReportZoneVisit {
  subscriberId: number;
  zoneId: number;
  zoneName: string;
  enteredMs: number;
  leftMs: number | null;
  latitude: number;
  longitude: number;
}

/** What the pipeline holds now for a vehicle: its latest valid fix and the totals there. */
export interface LatestFix {
  timeMs: number;
  metrics: FixMetrics;
}

/** How long the page starts of a trips report are reused: offsets into a list that grows are approximate anyway. */
const PAGE_KEYS_TTL_MS = 60_000;
const PAGE_KEYS_BLOCK = 50;
const PAGE_KEYS_KEPT = 64;

/**
 * The derived data the reports are made of, read for them through the positioning stores: tracks,
 * the statistics buckets at day edges, vehicle events, zone visits. Nothing here rescans fixes: a day costs four index seeks into
 * the buckets whatever the vehicle did in it, and the stops' engine figures are read at the fixes
 * where tracks start and end.
 */
export class ReportData {
  /** Where each block of 50 tracks of a recent trips report starts, by report: see `pageStart`. */
  private readonly pageKeys = new Map<string, { atMs: number; keys: [number, number][] }>();

  constructor(
    private readonly database: Database,
    private readonly tracksService: TrackService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Tracks overlapping [fromMs, toMs] (as route 3 lists them), by subscriber and start; `limit`/`offset` page them. */
  async tracks(accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number, page: { limit: number; offset: number } | null = null): Promise<ReportTrack[]> {
    if (subscriberIds.length === 0) return [];
    const start = page ? await this.pageStart(accountId, subscriberIds, fromMs, toMs, page.offset) : { key: null, skip: 0 };
    // From the page's key on: the employees from its one, and in its one the tracks from its start
    // (the index is walked from there, not from the report's first track).
    const after = start.key ? { subscriberId: start.key[0], startMs: start.key[1] } : undefined;
    const rows = await tracksBySubscriber(this.database.db, accountId, subscriberIds, fromMs, toMs, page ? { after, limit: page.limit, offset: start.skip } : { after });
    const current = await this.tracksService.current(rows);
    return current.filter((row) => row.finish_ms >= fromMs).map(toReportTrack);
  }

  /**
   * Where the page at `offset` starts: the key (subscriber, start) of its block of 50 and how many
   * to skip after it. A client reading a month of a fleet page by page would otherwise make the store
   * step over every earlier page again for each one (quadratic in the report's length); the keys of
   * every 50th track are read once, from an index that holds them, and reused for a minute.
   */
  private async pageStart(accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number, offset: number): Promise<{ key: [number, number] | null; skip: number }> {
    if (offset < PAGE_KEYS_BLOCK) return { key: null, skip: offset };
    const cacheKey = `${accountId}:${fromMs}:${toMs}:${subscriberIds.join(',')}`;
    const nowMs = this.clock();
    let entry = this.pageKeys.get(cacheKey);
    if (!entry || nowMs - entry.atMs > PAGE_KEYS_TTL_MS) {
      const rows = await trackKeysBySubscriber(this.database.db, accountId, subscriberIds, fromMs, toMs);
      const keys: [number, number][] = [];
      for (let i = 0; i < rows.length; i += PAGE_KEYS_BLOCK) keys.push([rows[i]!.subscriber_id, rows[i]!.start_ms]);
      entry = { atMs: nowMs, keys };
      this.pageKeys.delete(cacheKey);
      if (this.pageKeys.size >= PAGE_KEYS_KEPT) this.pageKeys.delete(this.pageKeys.keys().next().value!);
      this.pageKeys.set(cacheKey, entry);
    }
    const block = Math.min(Math.floor(offset / PAGE_KEYS_BLOCK), entry.keys.length - 1);
    if (block < 1) return { key: null, skip: offset };
    return { key: entry.keys[block]!, skip: offset - block * PAGE_KEYS_BLOCK };
  }

  /** Per subscriber, the last track that started before `beforeMs` and the first that started after `afterMs`. */
  async neighbourTracks(accountId: number, subscriberId: number, beforeMs: number, afterMs: number): Promise<{ before: ReportTrack | null; after: ReportTrack | null }> {
    const before = await adjacentTrack(this.database.db, accountId, subscriberId, 'before', beforeMs);
    const after = await adjacentTrack(this.database.db, accountId, subscriberId, 'after', afterMs);
    const [b] = await this.tracksService.current(before ? [before] : []);
    const [a] = await this.tracksService.current(after ? [after] : []);
    return { before: b ? toReportTrack(b) : null, after: a ? toReportTrack(a) : null };
  }

  /**
   * For each subscriber and each window `[fromMs, toMs)` (whole quarter hours: local days), the
   * totals before the window's first fix and at its last, from the buckets (the one being filled is
   * in the pipeline's state). A window without fixes is absent.
   */
  async dayEdges(accountId: number, subscriberIds: readonly number[], windows: readonly { fromMs: number; toMs: number }[]): Promise<DayEdges[]> {
    if (subscriberIds.length === 0 || windows.length === 0) return [];
    const edges = new Map<string, DayEdges>();
    for (const r of await windowEdges(this.database, this.database.db, accountId, subscriberIds, windows)) {
      if (r.first_before === null || r.last_end === null) continue;
      edges.set(`${r.subscriber_id}:${r.day}`, {
        subscriberId: r.subscriber_id,
        day: r.day,
        start: JSON.parse(r.first_before) as FixMetrics,
        startFuel: r.first_fuel,
        end: JSON.parse(r.last_end) as FixMetrics,
        lastFixMs: Number(r.last_fix_ms),
      });
    }
    // The bucket being filled lives in the pipeline's state, not yet in a row: it is the latest of its day.
    for (const [subscriberId, state] of await loadPipelineStates(this.database.db, accountId, [...subscriberIds])) {
      const open = state.statistics.current;
      if (!open) continue;
      const day = windows.findIndex((w) => open.bucketMs >= w.fromMs && open.bucketMs < w.toMs);
      if (day < 0) continue;
      const key = `${subscriberId}:${day}`;
      const known = edges.get(key);
      if (known && known.lastFixMs >= open.lastFixMs) continue;
      edges.set(key, {
        subscriberId,
        day,
        start: known?.start ?? open.before,
        startFuel: known ? known.startFuel : open.firstFuel,
        end: open.end,
        lastFixMs: open.lastFixMs,
      });
    }
    return [...edges.values()].sort((a, b) => a.subscriberId - b.subscriberId || a.day - b.day);
  }

  /** Vehicle events of these types in [fromMs, toMs], by subscriber and time (route 6's rows). */
  async events(accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number, types: readonly number[]): Promise<ReportEvent[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await listVehicleEvents(this.database.db, accountId, { subscriberIds, fromMs, toMs, types });
    return rows.map((r) => ({ subscriberId: r.subscriber_id, type: r.type, eventMs: r.event_ms, latitude: r.latitude, longitude: r.longitude, value: r.value }));
  }

  /** Zone visits overlapping [fromMs, toMs], by subscriber and entry. */
  async zoneVisits(accountId: number, subscriberIds: readonly number[], fromMs: number, toMs: number, page: { limit: number; offset: number } | null = null): Promise<ReportZoneVisit[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await listZoneVisits(this.database.db, accountId, subscriberIds, fromMs, toMs, page);
    return rows.map((r) => ({
      subscriberId: r.subscriber_id,
      zoneId: r.zone_id,
      zoneName: r.zone_name,
      enteredMs: r.entered_ms,
      leftMs: r.left_ms,
      latitude: r.latitude,
      longitude: r.longitude,
    }));
  }

  /** Engine seconds counted up to each of these fixes of one subscriber (the running total on the fix), by fix time. */
  async engineSecondsAt(accountId: number, subscriberId: number, timesMs: readonly number[]): Promise<Map<number, number>> {
    const engine = new Map<number, number>();
    const unique = [...new Set(timesMs)];
    for (let i = 0; i < unique.length; i += 500) {
      for (const r of await engineTotalsAt(this.database.db, accountId, subscriberId, unique.slice(i, i + 500))) engine.set(r.location_date, r.cum_engine_s!);
    }
    return engine;
  }

  /** The latest valid fix the pipeline processed for each subscriber, with its running totals. */
  async latestFixes(accountId: number, subscriberIds: readonly number[]): Promise<Map<number, LatestFix>> {
    const latest = new Map<number, LatestFix>();
    for (const [id, state] of await loadPipelineStates(this.database.db, accountId, [...subscriberIds])) {
      if (state.lastValid) latest.set(id, { timeMs: state.lastValid.t, metrics: state.metrics });
    }
    return latest;
  }
}

function toReportTrack(row: TrackRow): ReportTrack {
  return {
    trackID: row.id,
    subscriberId: row.subscriber_id,
    startMs: row.start_ms,
    finishMs: row.finish_ms,
    startLat: row.start_lat,
    startLon: row.start_lon,
    finishLat: row.finish_lat,
    finishLon: row.finish_lon,
    startAddress: row.start_address,
    finishAddress: row.finish_address,
    distanceM: row.distance_m,
    maxSpeedKmh: row.max_speed_kmh,
    isOpen: row.is_open === 1,
  };
}
