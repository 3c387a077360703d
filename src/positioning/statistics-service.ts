import type { Account } from '../accounts/accounts.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { formatDateTime, offsetMinutes } from '../http/datetime.js';
import { invalidField } from '../http/errors.js';
import { resolvePeriod, type Period } from '../http/list-params.js';
import type { Database } from '../store/database.js';
import { loadPipelineStates } from './pipeline/pipeline-store.js';
import type { FixMetrics } from './pipeline/pipeline-types.js';
import { BUCKET_MS, type BucketRecord } from './pipeline/statistics-accumulator.js';
import { removedBefore } from './retention-store.js';
import { bucketEdges, bucketRows, fuelChanges, periodEdges, processedFixes } from './statistics-store.js';
import type { StatisticsQuery, StatisticsRecord } from './track-schema.js';
import { groupBySubscriber } from './vehicle-event-service.js';

export interface StatisticsAnswer {
  data: { subscriberID: number; statistics: StatisticsRecord[] }[];
}

/** A fix's time and the pipeline's running totals at it. */
interface MetricPoint extends FixMetrics {
  subscriberId: number;
  timeMs: number;
}

/** A record before formatting: what the three intervals share. */
interface Reading {
  subscriberId: number;
  timeMs: number;
  start: FixMetrics | null;
  startFuel: number | null;
  end: FixMetrics;
  /** Litres filled minus litres drained (vehicle events 1 and 2) up to the reading. */
  netFilledLitres: number;
}

const ZERO: FixMetrics = { cumDistanceM: 0, cumTrackM: 0, cumEngineS: 0, fuelSmoothed: null, odoAnchorKm: null, odoAnchorCumM: 0, odoAnchorTrackM: 0 };
const HOUR_MS = 3_600_000;

/**
 * Route 7 of interface 4.1. Every value is a difference of the running totals the pipeline keeps
 * on each fix and in quarter-hour buckets, so no period, however long, rescans its fixes:
 * interval 1 reads three fixes per vehicle, interval 2 the period's buckets, interval 3 the page's fixes.
 */
export class StatisticsService {
  constructor(
    private readonly database: Database,
    private readonly employees: Pick<EmployeeDirectory, 'vehicleSettingsOf'>,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account, query: StatisticsQuery): Promise<StatisticsAnswer> {
    if (query.interval === undefined || ![1, 2, 3].includes(query.interval)) throw invalidField('interval', 'must be 1, 2 or 3');
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    const ids = [...new Set(query.subscriberIDs)].sort((a, b) => a - b);
    const settings = await this.employees.vehicleSettingsOf(this.database.db, account.id, ids);
    const fills = await this.fills(account, ids, period);

    let readings: Reading[];
    if (query.interval === 1) readings = await this.latest(account, ids, period, fills);
    else if (query.interval === 2) readings = await this.hourly(account, ids, period, fills);
    else readings = await this.perFix(account, ids, period, fills, query);
    if (query.interval !== 3) readings = readings.slice(query.offset ?? 0, (query.offset ?? 0) + (query.count ?? 1000));

    // Interval 1 counts mileage from tracks; 2 and 3 from locations (interface 4.1).
    const fromTracks = query.interval === 1;
    const records = readings.map((r) => ({ subscriber_id: r.subscriberId, record: toRecord(r, settings.get(r.subscriberId)?.initialOdometer ?? 0, fromTracks, account.timeZone) }));
    return { data: groupBySubscriber(records, (r) => r.record).map(([subscriberID, statistics]) => ({ subscriberID, statistics })) };
  }

  /**
   * interval=1: one record per vehicle, at its last fix of the period. When retention has removed
   * fixes from the period's start (docs/operators/retention.md), the totals before the period come from
   * its first statistics bucket (whole quarter hours), and, where no fix of the period is left,
   * those at its end from its last.
   */
  private async latest(account: Account, ids: number[], period: Period, fills: FuelChangeIndex): Promise<Reading[]> {
    const edges = await periodEdges(this.database, this.database.db, account.id, ids, period.fromMs, period.toMs);
    const removedBeforeMs = await removedBefore(this.database.db, account.id);
    const buckets = removedBeforeMs !== null && period.fromMs < removedBeforeMs
      ? await bucketEdges(this.database, this.database.db, account.id, ids, Math.floor(period.fromMs / BUCKET_MS) * BUCKET_MS, period.toMs)
      : null;
    const readings: Reading[] = [];
    for (const id of ids) {
      const edge = edges.get(id);
      const bucket = buckets?.get(id);
      const fromFixes = { start: edge?.before ? toPoint(edge.before) : ZERO, startFuel: edge?.first?.fuel_smoothed ?? null };
      const start = bucket ? { start: JSON.parse(bucket.first.metrics_before) as FixMetrics, startFuel: bucket.first.first_fuel } : fromFixes;
      const end = edge?.last
        ? { timeMs: edge.last.location_date, end: toPoint(edge.last) }
        : bucket && { timeMs: bucket.last.last_fix_ms, end: JSON.parse(bucket.last.metrics_end) as FixMetrics };
      if (!end) continue;
      readings.push({ subscriberId: id, ...start, ...end, netFilledLitres: fills.sum(id, period.fromMs, period.toMs) });
    }
    return readings;
  }

  /** interval=2: one record per clock hour (account zone) with data, from the quarter-hour buckets. */
  private async hourly(account: Account, ids: number[], period: Period, fills: FuelChangeIndex): Promise<Reading[]> {
    const firstBucketMs = Math.floor(period.fromMs / BUCKET_MS) * BUCKET_MS;
    const inPeriod = (bucketMs: number) => bucketMs >= firstBucketMs && bucketMs <= period.toMs;
    const rows = await bucketRows(this.database.db, account.id, ids, firstBucketMs, period.toMs);
    const buckets: (BucketRecord & { subscriberId: number })[] = rows.map((r) => ({
      subscriberId: r.subscriber_id,
      bucketMs: r.bucket_ms,
      firstFixMs: 0,
      lastFixMs: r.last_fix_ms,
      fixCount: 0,
      before: JSON.parse(r.metrics_before) as FixMetrics,
      firstFuel: r.first_fuel,
      end: JSON.parse(r.metrics_end) as FixMetrics,
    }));
    // The bucket being filled lives in the pipeline's state, not yet in a row.
    for (const [subscriberId, state] of await loadPipelineStates(this.database.db, account.id, ids)) {
      const open = state.statistics.current;
      if (open && inPeriod(open.bucketMs)) buckets.push({ ...open, subscriberId });
    }
    buckets.sort((a, b) => a.subscriberId - b.subscriberId || a.bucketMs - b.bucketMs);

    const readings: Reading[] = [];
    let hourKey = '';
    for (const bucket of buckets) {
      const offsetMs = offsetMinutes(account.timeZone, bucket.bucketMs) * 60_000;
      const hourStart = Math.floor((bucket.bucketMs + offsetMs) / HOUR_MS) * HOUR_MS - offsetMs;
      const key = `${bucket.subscriberId}:${hourStart}`;
      const current = readings.at(-1);
      if (key === hourKey && current) {
        current.end = bucket.end;
        current.timeMs = bucket.lastFixMs;
        if (current.startFuel === null) current.startFuel = bucket.firstFuel;
      } else {
        hourKey = key;
        readings.push({
          subscriberId: bucket.subscriberId,
          timeMs: bucket.lastFixMs,
          start: bucket.before,
          startFuel: bucket.firstFuel,
          end: bucket.end,
          netFilledLitres: fills.sum(bucket.subscriberId, Math.max(hourStart, period.fromMs), Math.min(hourStart + HOUR_MS - 1, period.toMs)),
        });
      }
    }
    return readings;
  }

  /** interval=3: one record per valid fix, with the values from the start of the period to that fix. */
  private async perFix(account: Account, ids: number[], period: Period, fills: FuelChangeIndex, query: StatisticsQuery): Promise<Reading[]> {
    const rows = await processedFixes(this.database.db, account.id, ids, { fromMs: period.fromMs, toMs: period.toMs, count: query.count ?? 1000, offset: query.offset ?? 0 });
    // The baseline of each vehicle on the page: its last fix before the period and its first in it.
    const edges = await periodEdges(this.database, this.database.db, account.id, [...new Set(rows.map((r) => r.subscriber_id))], period.fromMs, period.toMs);
    const readings: Reading[] = [];
    for (const row of rows) {
      const point = toPoint(row);
      const edge = edges.get(point.subscriberId);
      readings.push({
        subscriberId: point.subscriberId,
        timeMs: point.timeMs,
        start: edge?.before ? toPoint(edge.before) : ZERO,
        startFuel: edge?.first?.fuel_smoothed ?? null,
        end: point,
        netFilledLitres: fills.sum(point.subscriberId, period.fromMs, point.timeMs),
      });
    }
    return readings;
  }

  private async fills(account: Account, ids: number[], period: Period): Promise<FuelChangeIndex> {
    return new FuelChangeIndex(await fuelChanges(this.database.db, account.id, ids, period.fromMs, period.toMs));
  }
}

/** Fuel fillings and drains of the period: litres filled minus litres drained over any part of it. */
class FuelChangeIndex {
  constructor(private readonly rows: { subscriber_id: number; type: number; event_ms: number; value: number }[]) {}

  sum(subscriberId: number, fromMs: number, toMs: number): number {
    let total = 0;
    for (const r of this.rows) {
      if (r.subscriber_id === subscriberId && r.event_ms >= fromMs && r.event_ms <= toMs) total += r.type === FUEL_DRAIN ? -r.value : r.value;
    }
    return total;
  }
}

const FUEL_DRAIN = 2;

type MetricRow = {
  subscriber_id: number;
  location_date: number;
  cum_distance_m: number | null;
  cum_track_m: number | null;
  cum_engine_s: number | null;
  fuel_smoothed: number | null;
  odo_anchor_km: number | null;
  odo_anchor_cum_m: number | null;
  odo_anchor_track_m: number | null;
};

function toPoint(row: MetricRow): MetricPoint {
  return {
    subscriberId: row.subscriber_id,
    timeMs: row.location_date,
    cumDistanceM: row.cum_distance_m ?? 0,
    cumTrackM: row.cum_track_m ?? 0,
    cumEngineS: row.cum_engine_s ?? 0,
    fuelSmoothed: row.fuel_smoothed,
    odoAnchorKm: row.odo_anchor_km,
    odoAnchorCumM: row.odo_anchor_cum_m ?? 0,
    odoAnchorTrackM: row.odo_anchor_track_m ?? 0,
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Interface 2.4 from two sets of running totals. fuelConsumption is the fuel at the first fix
 * minus the fuel at the last plus the fillings (interface 4.1 rule 1) minus the drains: fuel that
 * left the tank by a drain was not burnt, so used = start + filled − drained − end; totalVehicleDistance is
 * the last odometer reading (or the configured initial odometer) plus the distance since it.
 */
function toRecord(r: Reading, initialOdometerKm: number, fromTracks: boolean, timeZone: string): StatisticsRecord {
  const start = r.start ?? ZERO;
  const distance = (m: FixMetrics) => (fromTracks ? m.cumTrackM : m.cumDistanceM);
  const anchorDistance = fromTracks ? r.end.odoAnchorTrackM : r.end.odoAnchorCumM;
  const baseKm = r.end.odoAnchorKm ?? initialOdometerKm;
  const sinceAnchorM = distance(r.end) - (r.end.odoAnchorKm === null ? 0 : anchorDistance);
  const fuelUsed = r.startFuel !== null && r.end.fuelSmoothed !== null ? r.startFuel - r.end.fuelSmoothed : 0;
  return {
    mileage: round(Math.max(0, distance(r.end) - distance(start)) / 1000, 3),
    fuelConsumption: round(fuelUsed + r.netFilledLitres, 2),
    engineMotohours: round((r.end.cumEngineS - start.cumEngineS) / 3600, 3),
    endFuelLevel: r.end.fuelSmoothed === null ? null : round(r.end.fuelSmoothed, 2),
    totalVehicleDistance: round(baseKm + sinceAnchorM / 1000, 3),
    locationDate: formatDateTime(r.timeMs, timeZone),
  };
}
