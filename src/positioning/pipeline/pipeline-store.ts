import { sql } from 'kysely';
import { BulkWriter, type Column } from '../../store/bulk-writer.js';
import type { Database, Db, Tx } from '../../store/database.js';
import { pointKey } from '../address-resolver.js';
import { coordinatesText } from '../../geo/geo.js';
import { LocationStore, metricValues } from '../location-store.js';
import { removedBefore } from '../retention-store.js';
import type { PipelineFix } from './pipeline-types.js';
import { eventKey, fixKey, type SubscriberWrites } from './pipeline-writes.js';
import type { SubscriberState } from './subscriber-pipeline.js';

const CHECKPOINT_RETENTION_MS = 8 * 24 * 3_600_000;

const c = (name: string, pgType: Column['pgType']): Column => ({ name, pgType });
const STATE_COLUMNS = [c('subscriber_id', 'bigint'), c('account_id', 'bigint'), c('last_fix_ms', 'bigint'), c('state', 'text')];
const CHECKPOINT_COLUMNS = [c('subscriber_id', 'bigint'), c('at_ms', 'bigint'), c('state', 'text')];
const TRACK_COLUMNS = [
  c('account_id', 'bigint'), c('subscriber_id', 'bigint'), c('start_ms', 'bigint'), c('finish_ms', 'bigint'),
  c('start_lat', 'double precision'), c('start_lon', 'double precision'), c('finish_lat', 'double precision'),
  c('finish_lon', 'double precision'), c('distance_m', 'double precision'), c('is_open', 'integer'),
  c('start_address', 'text'), c('finish_address', 'text'),
];
const EVENT_COLUMNS = [
  c('account_id', 'bigint'), c('subscriber_id', 'bigint'), c('type', 'integer'), c('event_ms', 'bigint'), c('detail', 'bigint'),
  c('latitude', 'double precision'), c('longitude', 'double precision'), c('value', 'double precision'),
];
const BUCKET_COLUMNS = [
  c('subscriber_id', 'bigint'), c('bucket_ms', 'bigint'), c('account_id', 'bigint'), c('first_fix_ms', 'bigint'),
  c('last_fix_ms', 'bigint'), c('fix_count', 'integer'), c('metrics_before', 'text'), c('first_fuel', 'double precision'), c('metrics_end', 'text'),
];

/**
 * The pipeline's state of each subscriber: the open track and the statistics bucket being filled
 * are read from here too (they are not rewritten as rows on every batch).
 */
export async function loadPipelineStates(executor: Db, accountId: number, subscriberIds: number[]): Promise<Map<number, SubscriberState>> {
  if (subscriberIds.length === 0) return new Map();
  const rows = await executor
    .selectFrom('pipeline_states')
    .select(['subscriber_id', 'state'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', subscriberIds)
    .execute();
  return new Map(rows.map((r) => [r.subscriber_id, JSON.parse(r.state) as SubscriberState]));
}

/** The pipeline's reads and writes: its state, checkpoints and derived rows, all in the ingest transaction. */
export class PipelineStore {
  private readonly bulk: BulkWriter;
  readonly locations: LocationStore;

  constructor(private readonly database: Database) {
    this.bulk = new BulkWriter(database);
    this.locations = new LocationStore(database);
  }

  /**
   * One writer per subscriber at a time, for as long as the transaction lasts, so that two servers
   * on one PostgreSQL never process the same subscriber's fixes at once. SQLite has one writer anyway.
   */
  async lock(tx: Tx, subscriberIds: number[]): Promise<void> {
    if (this.database.dialect !== 'postgres' || subscriberIds.length === 0) return;
    // Sorted, so two transactions always take their locks in the same order and never deadlock.
    const sorted = [...subscriberIds].sort((a, b) => a - b);
    await sql`SELECT pg_advisory_xact_lock(id) FROM (SELECT unnest(${sorted}::bigint[]) AS id ORDER BY 1) AS ids`.execute(tx);
  }

  loadStates(tx: Tx, accountId: number, subscriberIds: number[]): Promise<Map<number, SubscriberState>> {
    return loadPipelineStates(tx, accountId, subscriberIds);
  }

  /** The instant below which retention removed the account's fixes, or null. */
  removedBefore(tx: Tx, accountId: number): Promise<number | null> {
    return removedBefore(tx, accountId);
  }

  /** The latest checkpoint taken at or before `atOrBeforeMs`. */
  async loadCheckpoint(tx: Tx, subscriberId: number, atOrBeforeMs: number): Promise<{ atMs: number; state: SubscriberState } | null> {
    const row = await tx
      .selectFrom('pipeline_checkpoints')
      .select(['at_ms', 'state'])
      .where('subscriber_id', '=', subscriberId)
      .where('at_ms', '<=', atOrBeforeMs)
      .orderBy('at_ms', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { atMs: row.at_ms, state: JSON.parse(row.state) as SubscriberState } : null;
  }

  /** Every stored fix of the subscriber from `fromMs` on, in processing order. */
  async loadFixes(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<PipelineFix[]> {
    const rows = await tx
      .selectFrom('locations')
      .select(['id', 'location_date', 'is_valid', 'latitude', 'longitude', 'velocity', 'fuel_level', 'ignition', 'external_power', 'odometer', 'engine_hours', 'sensors'])
      .where('account_id', '=', accountId)
      .where('subscriber_id', '=', subscriberId)
      .where('location_date', '>=', fromMs)
      .orderBy('location_date')
      .orderBy('id')
      .execute();
    const bool = (v: number | null) => (v === null ? null : v === 1);
    return rows.map((r) => ({
      id: r.id,
      timeMs: r.location_date,
      isValid: r.is_valid === 1,
      latitude: r.latitude,
      longitude: r.longitude,
      velocityKmh: r.velocity,
      fuelLevel: r.fuel_level,
      ignition: bool(r.ignition),
      externalPower: bool(r.external_power),
      odometer: r.odometer,
      engineHours: r.engine_hours,
      sensors: r.sensors ? (JSON.parse(r.sensors) as PipelineFix['sensors']) : null,
    }));
  }

  /** Keys (time, latitude, longitude) of the subscriber's stored fixes at these instants. */
  async storedFixKeys(tx: Tx, accountId: number, subscriberId: number, timesMs: number[]): Promise<Set<string>> {
    const keys = new Set<string>();
    const unique = [...new Set(timesMs)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await tx
        .selectFrom('locations')
        .select(['location_date', 'latitude', 'longitude'])
        .where('account_id', '=', accountId)
        .where('subscriber_id', '=', subscriberId)
        .where('location_date', 'in', unique.slice(i, i + 500))
        .execute();
      for (const r of rows) keys.add(fixKey(r.location_date, r.latitude, r.longitude));
    }
    return keys;
  }

  /** Keys of the derived rows from `fromMs` on: a replay deletes those it does not produce again. */
  async derivedKeysFrom(tx: Tx, subscriberId: number, fromMs: number): Promise<{ trackStarts: number[]; eventKeys: string[] }> {
    const tracks = await tx.selectFrom('tracks').select('start_ms').where('subscriber_id', '=', subscriberId).where('start_ms', '>=', fromMs).execute();
    const events = await tx
      .selectFrom('vehicle_events')
      .select(['type', 'event_ms', 'detail'])
      .where('subscriber_id', '=', subscriberId)
      .where('event_ms', '>=', fromMs)
      .execute();
    return {
      trackStarts: tracks.map((t) => t.start_ms),
      eventKeys: events.map((e) => eventKey({ type: e.type, eventMs: e.event_ms, detail: e.detail })),
    };
  }

  /** Writes everything the runs of one batch produced. */
  async apply(tx: Tx, accountId: number, all: SubscriberWrites[], addresses: Map<string, string>): Promise<void> {
    for (const w of all) if (w.replay) await this.clearReplayWindow(tx, w);

    const states: unknown[][] = [];
    const checkpoints: unknown[][] = [];
    const tracks: unknown[][] = [];
    const events: unknown[][] = [];
    const buckets: unknown[][] = [];
    const metrics: unknown[][] = [];
    const drops: [number, number][] = [];
    for (const w of all) {
      const sub = w.subscriberId;
      if (w.state) states.push([sub, accountId, w.state.lastFixMs, JSON.stringify(w.state)]);
      for (const [atMs, state] of w.checkpoints) checkpoints.push([sub, atMs, state]);
      for (const [startMs, t] of w.tracks) {
        if (t === 'drop') drops.push([sub, startMs]);
        else {
          const start = addresses.get(pointKey(t.startLat, t.startLon)) ?? coordinatesText(t.startLat, t.startLon);
          const finish = addresses.get(pointKey(t.finishLat, t.finishLon)) ?? coordinatesText(t.finishLat, t.finishLon);
          tracks.push([accountId, sub, t.startMs, t.finishMs, t.startLat, t.startLon, t.finishLat, t.finishLon, t.distanceM, t.isOpen ? 1 : 0, start, finish]);
        }
      }
      for (const e of w.events.values()) events.push([accountId, sub, e.type, e.eventMs, e.detail, e.latitude, e.longitude, e.value]);
      for (const b of w.buckets.values()) {
        buckets.push([sub, b.bucketMs, accountId, b.firstFixMs, b.lastFixMs, b.fixCount, JSON.stringify(b.before), b.firstFuel, JSON.stringify(b.end)]);
      }
      for (const [id, m] of w.metrics) metrics.push([id, ...metricValues(m)]);
    }

    await this.bulk.upsert(tx, 'pipeline_states', STATE_COLUMNS, ['subscriber_id'], ['last_fix_ms', 'state'], states);
    await this.bulk.upsert(tx, 'pipeline_checkpoints', CHECKPOINT_COLUMNS, ['subscriber_id', 'at_ms'], ['state'], checkpoints);
    // The start address stays as first named (the geocoder may have improved it since).
    await this.bulk.upsert(tx, 'tracks', TRACK_COLUMNS, ['subscriber_id', 'start_ms'],
      ['finish_ms', 'finish_lat', 'finish_lon', 'distance_m', 'is_open', 'finish_address'], tracks);
    for (const [sub, startMs] of drops) await tx.deleteFrom('tracks').where('subscriber_id', '=', sub).where('start_ms', '=', startMs).execute();
    await this.bulk.upsert(tx, 'vehicle_events', EVENT_COLUMNS, ['subscriber_id', 'event_ms', 'type', 'detail'], ['latitude', 'longitude', 'value'], events);
    await this.bulk.upsert(tx, 'statistics_buckets', BUCKET_COLUMNS, ['subscriber_id', 'bucket_ms'],
      ['first_fix_ms', 'last_fix_ms', 'fix_count', 'metrics_before', 'first_fuel', 'metrics_end'], buckets);
    // A replay's fixes all lie in its window: the earliest window bounds the partitions searched.
    const replayedFromMs = Math.min(...all.flatMap((w) => (w.replay ? [w.replay.fromMs] : [])));
    await this.locations.updateMetrics(tx, accountId, Number.isFinite(replayedFromMs) ? replayedFromMs : Number.MIN_SAFE_INTEGER, metrics);

    for (const w of all) {
      const newest = Math.max(...w.checkpoints.keys());
      if (Number.isFinite(newest)) {
        await tx.deleteFrom('pipeline_checkpoints').where('subscriber_id', '=', w.subscriberId).where('at_ms', '<', newest - CHECKPOINT_RETENTION_MS).execute();
      }
    }
  }

  private async clearReplayWindow(tx: Tx, w: SubscriberWrites): Promise<void> {
    const { fromMs, staleTrackStarts, staleEventKeys } = w.replay!;
    const sub = w.subscriberId;
    if (staleTrackStarts.length) {
      await tx.deleteFrom('tracks').where('subscriber_id', '=', sub).where('start_ms', 'in', staleTrackStarts).execute();
    }
    for (const key of staleEventKeys) {
      const [eventMs, type, detail] = key.split(':').map(Number) as [number, number, number];
      await tx.deleteFrom('vehicle_events').where('subscriber_id', '=', sub).where('event_ms', '=', eventMs).where('type', '=', type).where('detail', '=', detail).execute();
    }
    await tx.deleteFrom('statistics_buckets').where('subscriber_id', '=', sub).where('bucket_ms', '>=', fromMs).execute();
    await tx.deleteFrom('pipeline_checkpoints').where('subscriber_id', '=', sub).where('at_ms', '>', fromMs).execute();
  }
}
