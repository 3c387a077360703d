import { sql, type Selectable } from 'kysely';
import { BulkWriter, bulkInsert, rowsFor, type BulkRows } from '../../store/bulk-writer.js';
import type { Database, Db, Tx } from '../../store/database.js';
import { isOneOf } from '../../store/id-table.js';
import { PREPARED } from '../../store/prepared.js';
import type { PipelineCheckpointsTable, PipelineStatesTable, StatisticsBucketsTable, TracksTable, VehicleEventsTable, ZoneVisitsTable } from '../../store/schema.js';
import { pointKey } from '../address-resolver.js';
import { coordinatesText } from '../../geo/geo.js';
import { LocationStore, metricColumns, type LocationMetricsUpdate } from '../location-store.js';
import { removedBefore } from '../retention-store.js';
import { PipelineStateCache } from './pipeline-state-cache.js';
import type { PipelineFix } from './pipeline-types.js';
import { eventKey, fixKey, type SubscriberWrites } from './pipeline-writes.js';
import type { SubscriberState } from './subscriber-pipeline.js';

const CHECKPOINT_RETENTION_MS = 8 * 24 * 3_600_000;
const FIX_TIMES_PER_STATEMENT = 500;

/** The rows the pipeline writes, typed as the schema has them. */
export type StateWrite = Selectable<PipelineStatesTable>;
export type CheckpointWrite = Selectable<PipelineCheckpointsTable>;
export type TrackWrite = Omit<Selectable<TracksTable>, 'id' | 'start_geocoded' | 'finish_geocoded'>;
export type EventWrite = Omit<Selectable<VehicleEventsTable>, 'id'>;
export type BucketWrite = Selectable<StatisticsBucketsTable>;
export type VisitWrite = Omit<Selectable<ZoneVisitsTable>, 'id'>;

/** Each batch's state of every subscriber it moved. */
const UPSERT_STATES = bulkInsert<'pipeline_states', StateWrite>({
  table: 'pipeline_states',
  columns: { account_id: 'bigint', subscriber_id: 'bigint', last_fix_ms: 'bigint', state: 'text' },
  conflict: ['subscriber_id'],
  update: ['last_fix_ms', 'state'],
});

/** A checkpoint per hour boundary crossed (a replay writes its window's again). */
const UPSERT_CHECKPOINTS = bulkInsert<'pipeline_checkpoints', CheckpointWrite>({
  table: 'pipeline_checkpoints',
  columns: { account_id: 'bigint', subscriber_id: 'bigint', at_ms: 'bigint', state: 'text' },
  conflict: ['account_id', 'subscriber_id', 'at_ms'],
  update: ['state'],
});

/** A track is known by its start: a replay updates it in place and its id stays. The start address stays as first named (the geocoder may have improved it since). */
const UPSERT_TRACKS = bulkInsert<'tracks', TrackWrite>({
  table: 'tracks',
  columns: {
    account_id: 'bigint', subscriber_id: 'bigint', start_ms: 'bigint', finish_ms: 'bigint',
    start_lat: 'double precision', start_lon: 'double precision', finish_lat: 'double precision', finish_lon: 'double precision',
    distance_m: 'double precision', is_open: 'integer', start_address: 'text', finish_address: 'text', max_speed_kmh: 'double precision',
  },
  conflict: ['subscriber_id', 'start_ms'],
  update: ['finish_ms', 'finish_lat', 'finish_lon', 'distance_m', 'is_open', 'finish_address', 'max_speed_kmh'],
});

const UPSERT_EVENTS = bulkInsert<'vehicle_events', EventWrite>({
  table: 'vehicle_events',
  columns: {
    account_id: 'bigint', subscriber_id: 'bigint', type: 'integer', event_ms: 'bigint', detail: 'bigint',
    latitude: 'double precision', longitude: 'double precision', value: 'double precision',
  },
  conflict: ['subscriber_id', 'event_ms', 'type', 'detail'],
  update: ['latitude', 'longitude', 'value'],
});

const UPSERT_BUCKETS = bulkInsert<'statistics_buckets', BucketWrite>({
  table: 'statistics_buckets',
  columns: {
    account_id: 'bigint', subscriber_id: 'bigint', bucket_ms: 'bigint', first_fix_ms: 'bigint', last_fix_ms: 'bigint',
    fix_count: 'integer', metrics_before: 'text', first_fuel: 'double precision', metrics_end: 'text',
  },
  conflict: ['subscriber_id', 'bucket_ms'],
  update: ['first_fix_ms', 'last_fix_ms', 'fix_count', 'metrics_before', 'first_fuel', 'metrics_end'],
});

/** A zone visit is known by its entry: its exit updates it; the zone's name stays as it was when entered. */
const UPSERT_VISITS = bulkInsert<'zone_visits', VisitWrite>({
  table: 'zone_visits',
  columns: {
    account_id: 'bigint', subscriber_id: 'bigint', zone_id: 'bigint', zone_name: 'text', entered_ms: 'bigint',
    left_ms: 'bigint', latitude: 'double precision', longitude: 'double precision',
  },
  conflict: ['subscriber_id', 'zone_id', 'entered_ms'],
  update: ['left_ms'],
});

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

/**
 * The stored text of each subscriber's pipeline state, for the ingest transaction (see
 * PipelineStateCache); on PostgreSQL each row locked (in subscriber order, so two transactions
 * never deadlock) and read as last committed, whatever the statement's snapshot.
 */
export async function lockPipelineStateTexts(tx: Tx, database: Database, accountId: number, subscriberIds: number[]): Promise<Map<number, string>> {
  if (subscriberIds.length === 0) return new Map();
  const lock = database.dialect === 'postgres' ? sql`ORDER BY subscriber_id FOR UPDATE` : sql``;
  const { rows } = await sql<{ subscriber_id: number; state: string }>`${PREPARED}
    SELECT subscriber_id, state FROM pipeline_states
    WHERE account_id = ${accountId} AND ${isOneOf(database, 'subscriber_id', subscriberIds)} ${lock}`.execute(tx);
  return new Map(rows.map((r) => [Number(r.subscriber_id), r.state]));
}

/** A transaction-scoped advisory lock per subscriber, in subscriber order (PostgreSQL). */
export async function lockSubscribers(tx: Tx, subscriberIds: number[]): Promise<void> {
  const sorted = [...subscriberIds].sort((a, b) => a - b);
  await sql`${PREPARED}SELECT pg_advisory_xact_lock(id) FROM (SELECT unnest(${sorted}::bigint[]) AS id ORDER BY 1) AS ids`.execute(tx);
}

/** The latest checkpoint taken at or before `atOrBeforeMs`. */
export async function loadCheckpoint(tx: Tx, accountId: number, subscriberId: number, atOrBeforeMs: number): Promise<{ atMs: number; state: SubscriberState } | null> {
  const row = await tx
    .selectFrom('pipeline_checkpoints')
    .select(['at_ms', 'state'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('at_ms', '<=', atOrBeforeMs)
    .orderBy('at_ms', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { atMs: row.at_ms, state: JSON.parse(row.state) as SubscriberState } : null;
}

/** Every stored fix of the subscriber from `fromMs` on, in processing order. */
export async function loadFixes(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<PipelineFix[]> {
  const rows = await tx
    .selectFrom('locations')
    .select(['id', 'location_date', 'is_valid', 'filter_reason', 'accuracy_m', 'latitude', 'longitude', 'velocity', 'fuel_level', 'ignition', 'external_power', 'odometer', 'engine_hours', 'sensors'])
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
    // Valid as the device sent it: the replay judges a fix the filter set aside again.
    isValid: r.is_valid === 1 || r.filter_reason !== null,
    latitude: r.latitude,
    longitude: r.longitude,
    velocityKmh: r.velocity,
    fuelLevel: r.fuel_level,
    ignition: bool(r.ignition),
    externalPower: bool(r.external_power),
    odometer: r.odometer,
    engineHours: r.engine_hours,
    sensors: r.sensors ? (JSON.parse(r.sensors) as PipelineFix['sensors']) : null,
    accuracyM: r.accuracy_m,
  }));
}

/** Keys (time, latitude, longitude) of the subscriber's stored fixes at these instants (at most FIX_TIMES_PER_STATEMENT). */
export async function fixKeysAt(tx: Tx, accountId: number, subscriberId: number, timesMs: number[]): Promise<string[]> {
  const rows = await tx
    .selectFrom('locations')
    .select(['location_date', 'latitude', 'longitude'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('location_date', 'in', timesMs)
    .execute();
  return rows.map((r) => fixKey(r.location_date, r.latitude, r.longitude));
}

/** Starts of the subscriber's tracks from `fromMs` on. */
export async function trackStartsFrom(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<number[]> {
  const rows = await tx
    .selectFrom('tracks')
    .select('start_ms')
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('start_ms', '>=', fromMs)
    .execute();
  return rows.map((r) => r.start_ms);
}

/** Keys (eventKey) of the subscriber's vehicle events from `fromMs` on. */
export async function eventKeysFrom(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('vehicle_events')
    .select(['type', 'event_ms', 'detail'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('event_ms', '>=', fromMs)
    .execute();
  return rows.map((e) => eventKey({ type: e.type, eventMs: e.event_ms, detail: e.detail }));
}

export async function deleteTracksStartingAt(tx: Tx, accountId: number, subscriberId: number, startsMs: number[]): Promise<void> {
  await tx.deleteFrom('tracks').where('account_id', '=', accountId).where('subscriber_id', '=', subscriberId).where('start_ms', 'in', startsMs).execute();
}

export async function deleteEvent(tx: Tx, accountId: number, subscriberId: number, key: { eventMs: number; type: number; detail: number }): Promise<void> {
  await tx
    .deleteFrom('vehicle_events')
    .where('account_id', '=', accountId)
    .where('subscriber_id', '=', subscriberId)
    .where('event_ms', '=', key.eventMs)
    .where('type', '=', key.type)
    .where('detail', '=', key.detail)
    .execute();
}

/** A replay's window: the visits entered in it are derived again. */
export async function deleteVisitsEnteredFrom(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<void> {
  await tx.deleteFrom('zone_visits').where('account_id', '=', accountId).where('subscriber_id', '=', subscriberId).where('entered_ms', '>=', fromMs).execute();
}

/** A replay's window: the visits left in it are open again until the replay says when they ended. */
export async function reopenVisitsLeftFrom(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<void> {
  await tx.updateTable('zone_visits').set({ left_ms: null }).where('account_id', '=', accountId).where('subscriber_id', '=', subscriberId).where('left_ms', '>=', fromMs).execute();
}

export async function deleteBucketsFrom(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<void> {
  await tx.deleteFrom('statistics_buckets').where('account_id', '=', accountId).where('subscriber_id', '=', subscriberId).where('bucket_ms', '>=', fromMs).execute();
}

export async function deleteCheckpointsAfter(tx: Tx, accountId: number, subscriberId: number, afterMs: number): Promise<void> {
  await tx.deleteFrom('pipeline_checkpoints').where('account_id', '=', accountId).where('subscriber_id', '=', subscriberId).where('at_ms', '>', afterMs).execute();
}

/**
 * The checkpoints before `beforeMs` of every subscriber of `subscriberIds` (a replay cannot start
 * there any more), in one statement; the number removed. A batch drops its subscribers' old
 * checkpoints with one bound for them all, the earliest of theirs (what it leaves, a later batch
 * removes): one statement, not one per subscriber, which was a round trip each on PostgreSQL when a
 * whole fleet crossed an hour at once. Retention passes one subscriber at a time.
 */
export async function deleteCheckpointsBefore(tx: Tx, database: Pick<Database, 'dialect'>, accountId: number, subscriberIds: readonly number[], beforeMs: number): Promise<number> {
  const result = await sql`${PREPARED}DELETE FROM pipeline_checkpoints
    WHERE account_id = ${accountId} AND ${isOneOf(database, 'subscriber_id', subscriberIds)} AND at_ms < ${beforeMs}`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/** The pipeline's reads and writes: its state, checkpoints and derived rows, all in the ingest transaction. */
export class PipelineStore {
  private readonly bulk: BulkWriter;
  readonly locations: LocationStore;
  private readonly states = new PipelineStateCache();

  constructor(private readonly database: Database) {
    this.bulk = new BulkWriter(database);
    this.locations = new LocationStore(database);
  }

  /**
   * The subscribers' states, each locked for as long as the transaction lasts: one writer per
   * subscriber at a time, so that two servers on one PostgreSQL never process the same
   * subscriber's fixes at once (SQLite has one writer anyway). A subscriber with a state is locked
   * by its row, in the read itself. One without (its first fixes) takes an advisory lock, then
   * its state is read again: another server may have written the first one meanwhile.
   */
  async lockStates(tx: Tx, accountId: number, subscriberIds: number[]): Promise<Map<number, SubscriberState>> {
    const texts = await lockPipelineStateTexts(tx, this.database, accountId, subscriberIds);
    const missing = subscriberIds.filter((id) => !texts.has(id));
    if (this.database.dialect === 'postgres' && missing.length > 0) {
      await lockSubscribers(tx, missing);
      for (const [subscriberId, text] of await lockPipelineStateTexts(tx, this.database, accountId, missing)) texts.set(subscriberId, text);
    }
    return new Map([...texts].map(([subscriberId, text]) => [subscriberId, this.states.take(subscriberId, text)]));
  }

  /** The instant below which retention removed the account's fixes, or null. */
  removedBefore(tx: Tx, accountId: number): Promise<number | null> {
    return removedBefore(tx, accountId);
  }

  loadCheckpoint(tx: Tx, accountId: number, subscriberId: number, atOrBeforeMs: number): Promise<{ atMs: number; state: SubscriberState } | null> {
    return loadCheckpoint(tx, accountId, subscriberId, atOrBeforeMs);
  }

  loadFixes(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<PipelineFix[]> {
    return loadFixes(tx, accountId, subscriberId, fromMs);
  }

  /** Keys (time, latitude, longitude) of the subscriber's stored fixes at these instants. */
  async storedFixKeys(tx: Tx, accountId: number, subscriberId: number, timesMs: number[]): Promise<Set<string>> {
    const keys = new Set<string>();
    const unique = [...new Set(timesMs)];
    for (let i = 0; i < unique.length; i += FIX_TIMES_PER_STATEMENT) {
      for (const key of await fixKeysAt(tx, accountId, subscriberId, unique.slice(i, i + FIX_TIMES_PER_STATEMENT))) keys.add(key);
    }
    return keys;
  }

  /** Keys of the derived rows from `fromMs` on: a replay deletes those it does not produce again. */
  async derivedKeysFrom(tx: Tx, accountId: number, subscriberId: number, fromMs: number): Promise<{ trackStarts: number[]; eventKeys: string[] }> {
    return { trackStarts: await trackStartsFrom(tx, accountId, subscriberId, fromMs), eventKeys: await eventKeysFrom(tx, accountId, subscriberId, fromMs) };
  }

  /** Writes everything the runs of one batch produced, and `also` (the batch's fixes) with it. */
  async apply(tx: Tx, accountId: number, all: SubscriberWrites[], addresses: Map<string, string>, also: BulkRows[] = []): Promise<void> {
    for (const w of all) if (w.replay) await this.clearReplayWindow(tx, accountId, w);

    const states: StateWrite[] = [];
    const checkpoints: CheckpointWrite[] = [];
    const tracks: TrackWrite[] = [];
    const events: EventWrite[] = [];
    const buckets: BucketWrite[] = [];
    const metrics: LocationMetricsUpdate[] = [];
    const drops = new Map<number, number[]>();
    const place = (lat: number, lon: number) => addresses.get(pointKey(lat, lon)) ?? coordinatesText(lat, lon);
    for (const w of all) {
      const sub = w.subscriberId;
      if (w.state) {
        const text = JSON.stringify(w.state);
        states.push({ account_id: accountId, subscriber_id: sub, last_fix_ms: w.state.lastFixMs, state: text });
        this.states.put(sub, text, w.state);
      }
      for (const [atMs, state] of w.checkpoints) checkpoints.push({ account_id: accountId, subscriber_id: sub, at_ms: atMs, state });
      for (const [startMs, t] of w.tracks) {
        if (t === 'drop') drops.set(sub, [...(drops.get(sub) ?? []), startMs]);
        else {
          tracks.push({
            account_id: accountId, subscriber_id: sub, start_ms: t.startMs, finish_ms: t.finishMs,
            start_lat: t.startLat, start_lon: t.startLon, finish_lat: t.finishLat, finish_lon: t.finishLon,
            distance_m: t.distanceM, is_open: t.isOpen ? 1 : 0, start_address: place(t.startLat, t.startLon), finish_address: place(t.finishLat, t.finishLon),
            max_speed_kmh: t.maxSpeedKmh,
          });
        }
      }
      for (const e of w.events.values()) {
        events.push({ account_id: accountId, subscriber_id: sub, type: e.type, event_ms: e.eventMs, detail: e.detail, latitude: e.latitude, longitude: e.longitude, value: e.value });
      }
      for (const b of w.buckets.values()) {
        buckets.push({
          account_id: accountId, subscriber_id: sub, bucket_ms: b.bucketMs, first_fix_ms: b.firstFixMs, last_fix_ms: b.lastFixMs,
          fix_count: b.fixCount, metrics_before: JSON.stringify(b.before), first_fuel: b.firstFuel, metrics_end: JSON.stringify(b.end),
        });
      }
      for (const [id, m, sentValid, rejected] of w.metrics) {
        metrics.push({ account_id: accountId, id, is_valid: sentValid && rejected === 0 ? 1 : 0, filter_reason: rejected || null, ...metricColumns(m) });
      }
    }

    // One statement on PostgreSQL (see insertAll): a batch's writes cost one round trip.
    await this.bulk.insertAll(tx, [
      ...also,
      rowsFor(UPSERT_STATES, states),
      rowsFor(UPSERT_CHECKPOINTS, checkpoints),
      rowsFor(UPSERT_TRACKS, tracks),
      rowsFor(UPSERT_EVENTS, events),
      rowsFor(UPSERT_BUCKETS, buckets),
    ]);
    for (const [sub, startsMs] of drops) await deleteTracksStartingAt(tx, accountId, sub, startsMs);
    // A replay's fixes all lie in its window: the earliest window bounds the partitions searched.
    const replayedFromMs = Math.min(...all.flatMap((w) => (w.replay ? [w.replay.fromMs] : [])));
    await this.locations.updateMetrics(tx, Number.isFinite(replayedFromMs) ? replayedFromMs : Number.MIN_SAFE_INTEGER, metrics);

    const checkpointed = all.filter((w) => w.checkpoints.size > 0);
    if (checkpointed.length > 0) {
      const earliestNewest = Math.min(...checkpointed.map((w) => Math.max(...w.checkpoints.keys())));
      await deleteCheckpointsBefore(tx, this.database, accountId, checkpointed.map((w) => w.subscriberId), earliestNewest - CHECKPOINT_RETENTION_MS);
    }
  }

  /**
   * Zone visits the runs of one batch entered or left. A replay first takes back what it derives
   * again: visits entered in its window go, and visits left in it are open again until the replay
   * says when they ended (the checkpoint it starts from holds them as in progress).
   */
  async applyZoneVisits(tx: Tx, accountId: number, all: SubscriberWrites[]): Promise<void> {
    const rows: VisitWrite[] = [];
    for (const w of all) {
      if (w.replay) {
        await deleteVisitsEnteredFrom(tx, accountId, w.subscriberId, w.replay.fromMs);
        await reopenVisitsLeftFrom(tx, accountId, w.subscriberId, w.replay.fromMs);
      }
      for (const v of w.visits.values()) {
        rows.push({
          account_id: accountId, subscriber_id: w.subscriberId, zone_id: v.zoneId, zone_name: v.zoneName,
          entered_ms: v.enteredMs, left_ms: v.leftMs, latitude: v.latitude, longitude: v.longitude,
        });
      }
    }
    await this.bulk.insert(tx, UPSERT_VISITS, rows);
  }

  private async clearReplayWindow(tx: Tx, accountId: number, w: SubscriberWrites): Promise<void> {
    const { fromMs, staleTrackStarts, staleEventKeys } = w.replay!;
    const sub = w.subscriberId;
    if (staleTrackStarts.length) await deleteTracksStartingAt(tx, accountId, sub, staleTrackStarts);
    for (const key of staleEventKeys) {
      const [eventMs, type, detail] = key.split(':').map(Number) as [number, number, number];
      await deleteEvent(tx, accountId, sub, { eventMs, type, detail });
    }
    await deleteBucketsFrom(tx, accountId, sub, fromMs);
    await deleteCheckpointsAfter(tx, accountId, sub, fromMs);
  }
}
