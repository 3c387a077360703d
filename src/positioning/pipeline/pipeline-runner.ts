import type { VehicleSettings } from '../../employees/employees.js';
import type { ZoneIndex } from '../../geozones/geozones.js';
import type { Tx } from '../../store/database.js';
import type { AddressResolver } from '../address-resolver.js';
import { insertionOf } from '../location-store.js';
import type { Fix } from '../fix.js';
import { LIVE_WINDOW_MS, type BatchSignals, type PipelineSignals } from './pipeline-signals.js';
import type { PipelineStore } from './pipeline-store.js';
import type { GpsFilterSettings } from './fix-filter.js';
import type { FixMetrics, PipelineFix, PipelineSettings, TrackSettings } from './pipeline-types.js';
import { fixKey, SubscriberWrites } from './pipeline-writes.js';
import { initialState, SubscriberPipeline, type SubscriberState } from './subscriber-pipeline.js';

/** Fixes older than this before a subscriber's latest are stored as history but not replayed. */
export const REPLAY_HORIZON_MS = 7 * 24 * 3_600_000;

export interface BatchContext {
  accountId: number;
  /** The account's time zone: the rules' schedules and the signals' dates. */
  timeZone: string;
  receivedAt: number;
  trackSettings: TrackSettings;
  /** The account's GPS filter; its defaults when absent. */
  filterSettings?: GpsFilterSettings;
  vehicleSettings: Map<number, VehicleSettings>;
}

/**
 * Stores a batch of fixes and runs them through the pipeline, in the caller's transaction
 * (DESIGN: one transaction per batch). Fixes that come after everything processed so far are
 * processed before the insert and stored with their running totals; a subscriber with a late
 * fix is replayed from the hourly checkpoint before it, so the result is what in-order arrival
 * would have given.
 */
export class PipelineRunner {
  private readonly store: PipelineStore;
  private readonly addresses: AddressResolver;
  private readonly signals: PipelineSignals | null;
  private readonly signalMaxAgeMs: number;
  private readonly zones: ZoneSource | null;

  constructor(options: {
    store: PipelineStore;
    addresses: AddressResolver;
    /** What batches of fixes fire; none: nothing fires. */
    signals?: PipelineSignals | null;
    /** SIGNAL_MAX_AGE: fixes dated longer than this before their arrival fire nothing. */
    signalMaxAgeMs?: number;
    /** The accounts' zone indexes (zone visits); without it no visits are kept. */
    zones?: ZoneSource | null;
  }) {
    this.store = options.store;
    this.addresses = options.addresses;
    this.signals = options.signals ?? null;
    this.signalMaxAgeMs = options.signalMaxAgeMs ?? Number.POSITIVE_INFINITY;
    this.zones = options.zones ?? null;
  }

  /**
   * `frameOf[i]`: which request or frame of a group commit fix i came in (ascending in arrival
   * order); null when all fixes came in one batch. It decides which fixes may fire signals.
   * A fix the GPS filter sets aside comes back with `isValid` false.
   */
  async ingest(tx: Tx, context: BatchContext, fixes: Fix[], frameOf: number[] | null = null): Promise<void> {
    const bySubscriber = new Map<number, number[]>();
    fixes.forEach((fix, index) => {
      const list = bySubscriber.get(fix.subscriberId);
      if (list) list.push(index);
      else bySubscriber.set(fix.subscriberId, [index]);
    });
    const subscriberIds = [...bySubscriber.keys()].sort((a, b) => a - b);
    const states = await this.store.lockStates(tx, context.accountId, subscriberIds);
    const signals = this.signals ? await this.signals.begin(tx, context, subscriberIds) : null;
    // One version read per batch; the index itself is rebuilt only when a zone changed.
    const zones = this.zones ? await this.zones.indexFor(context.accountId, tx) : null;

    const metrics: (FixMetrics | null)[] = new Array(fixes.length).fill(null);
    // Why the GPS filter set a fix aside (0: it did not); allocated once a fix is set aside.
    let rejected: number[] | null = null;
    // A fix sent again (a tracker resending its buffer after a lost answer) is acknowledged, not stored twice.
    const resent = new Set<number>();
    const writes: SubscriberWrites[] = [];
    const late: { subscriberId: number; earliestMs: number; state: SubscriberState; live: Set<string>; fresh: number[] }[] = [];
    for (const subscriberId of subscriberIds) {
      const state = states.get(subscriberId) ?? initialState();
      const isLive = this.liveFixes(fixes, bySubscriber.get(subscriberId)!, frameOf, state.lastFixMs, context.receivedAt);
      const indexes = bySubscriber.get(subscriberId)!.sort((a, b) => fixes[a]!.locationDateMs - fixes[b]!.locationDateMs || a - b);
      const earliestMs = fixes[indexes[0]!]!.locationDateMs;
      if (state.lastFixMs !== null && earliestMs < state.lastFixMs) {
        const stored = await this.store.storedFixKeys(tx, context.accountId, subscriberId, indexes.map((i) => fixes[i]!.locationDateMs));
        markResent(fixes, indexes, stored, resent);
        const fresh = indexes.filter((i) => !resent.has(i));
        const live = new Set(fresh.filter((i) => isLive.has(i)).map((i) => fixKey(fixes[i]!.locationDateMs, fixes[i]!.latitude, fixes[i]!.longitude)));
        if (fresh.length > 0) late.push({ subscriberId, earliestMs: fixes[fresh[0]!]!.locationDateMs, state, live, fresh });
        continue;
      }
      markRepeats(fixes, indexes, state.lastValid, resent);
      const out = new SubscriberWrites(subscriberId);
      const watcher = signals?.watch(subscriberId, state, null) ?? forgetSignals(state);
      const pipeline = new SubscriberPipeline(state, this.settings(context, subscriberId), { signals: watcher, zones });
      for (const index of indexes) {
        if (resent.has(index)) continue;
        const fix = fixes[index]!;
        metrics[index] = pipeline.process(toPipelineFix(fix, 0), out, isLive.has(index));
        if (pipeline.rejected !== 0) {
          (rejected ??= new Array<number>(fixes.length).fill(0))[index] = pipeline.rejected;
          // Invalid from here on for whoever sees the batch after the commit too (the live map).
          fix.isValid = false;
        }
      }
      out.state = state;
      writes.push(out);
    }

    const keep = (_: unknown, index: number) => !resent.has(index);
    const kept = fixes.filter(keep);
    const insertion = insertionOf(context.accountId, context.receivedAt, kept, metrics.filter(keep), rejected?.filter(keep));
    await this.store.locations.coverWeeksOf(tx, kept);
    // A replay reads the stored fixes, this batch's too: then they are stored first. Otherwise they
    // go with the rest of the batch's writes (one statement on PostgreSQL).
    if (late.length > 0) await this.store.locations.insert(tx, insertion);
    // Retention may have removed the account's older fixes: no replay starts before that mark.
    const removedBeforeMs = late.length > 0 ? await this.store.removedBefore(tx, context.accountId) : null;
    for (const { subscriberId, earliestMs, state, live, fresh } of late) {
      const fromMs = Math.max(earliestMs, (state.lastFixMs ?? 0) - REPLAY_HORIZON_MS);
      const replayed = await this.replay(tx, context, subscriberId, fromMs, removedBeforeMs, signals, state, live, zones);
      if (!replayed) continue;
      writes.push(replayed);
      for (const index of fresh) {
        const fix = fixes[index]!;
        if (replayed.setAside.has(fixKey(fix.locationDateMs, fix.latitude, fix.longitude))) fix.isValid = false;
      }
    }
    await this.store.apply(tx, context.accountId, writes, await this.addressesOf(tx, context.accountId, writes), late.length > 0 ? [] : [insertion]);
    await this.store.applyZoneVisits(tx, context.accountId, writes);
    await signals?.flush(tx);
  }

  /**
   * The fixes of one subscriber (`indexes`, in arrival order) that may fire signals (CONTRACT §2):
   * those newer than the subscriber's latest fix stored before the batch or frame that brings
   * them, minus the live window, and dated at most SIGNAL_MAX_AGE before their arrival. So a
   * tracker's buffer posted at once fires every signal in it; a fix inside time already processed
   * (by an earlier batch, or an earlier frame of this group commit) fires nothing.
   */
  private liveFixes(fixes: Fix[], indexes: number[], frameOf: number[] | null, lastFixMs: number | null, receivedAt: number): Set<number> {
    const live = new Set<number>();
    const oldestMs = receivedAt - this.signalMaxAgeMs;
    let before = lastFixMs ?? Number.NEGATIVE_INFINITY;
    let inFrame = Number.NEGATIVE_INFINITY;
    let frame = -1;
    for (const index of indexes) {
      const current = frameOf?.[index] ?? 0;
      if (current !== frame) {
        before = Math.max(before, inFrame);
        inFrame = Number.NEGATIVE_INFINITY;
        frame = current;
      }
      const timeMs = fixes[index]!.locationDateMs;
      if (timeMs > before - LIVE_WINDOW_MS && timeMs >= oldestMs) live.add(index);
      inFrame = Math.max(inFrame, timeMs);
    }
    return live;
  }

  /** Names of the start and finish points of the tracks this batch writes. */
  private async addressesOf(tx: Tx, accountId: number, writes: SubscriberWrites[]): Promise<Map<string, string>> {
    const points = writes.flatMap((w) =>
      [...w.tracks.values()].flatMap((t) =>
        t === 'drop' ? [] : [{ latitude: t.startLat, longitude: t.startLon }, { latitude: t.finishLat, longitude: t.finishLon }],
      ),
    );
    return this.addresses.names(tx, accountId, points);
  }

  /**
   * Re-runs a subscriber's stored fixes from the checkpoint at or before `fromMs`. Only the fixes
   * of this batch in `live` (by fixKey) may fire signals; `replaced` is the state the replay replaces.
   * A replay needs every fix from its checkpoint on: when retention removed fixes after the
   * checkpoint it would start from (`removedBeforeMs`), the late fixes stay stored as history,
   * as fixes beyond the replay horizon do, and nothing derived changes (null).
   */
  private async replay(
    tx: Tx,
    context: BatchContext,
    subscriberId: number,
    fromMs: number,
    removedBeforeMs: number | null,
    signals: BatchSignals | null,
    replaced: SubscriberState,
    live: Set<string>,
    zones: ZoneIndex | null,
  ): Promise<SubscriberWrites | null> {
    const checkpoint = await this.store.loadCheckpoint(tx, context.accountId, subscriberId, fromMs);
    if (removedBeforeMs !== null && (checkpoint?.atMs ?? Number.NEGATIVE_INFINITY) < removedBeforeMs) return null;
    const windowStart = checkpoint?.atMs ?? Number.MIN_SAFE_INTEGER;
    const state = checkpoint?.state ?? initialState();
    const fixes = await this.store.loadFixes(tx, context.accountId, subscriberId, windowStart);
    const before = await this.store.derivedKeysFrom(tx, context.accountId, subscriberId, windowStart);

    const out = new SubscriberWrites(subscriberId);
    const watcher = signals?.watch(subscriberId, state, replaced) ?? forgetSignals(state);
    const pipeline = new SubscriberPipeline(state, this.settings(context, subscriberId), { signals: watcher, zones });
    for (const fix of fixes) {
      const isLive = live.size > 0 && live.has(fixKey(fix.timeMs, fix.latitude, fix.longitude));
      out.metrics.push([fix.id, pipeline.process(fix, out, isLive), fix.isValid, pipeline.rejected]);
      if (pipeline.rejected !== 0) out.setAside.add(fixKey(fix.timeMs, fix.latitude, fix.longitude));
    }
    out.state = state;
    out.replay = {
      fromMs: windowStart,
      staleTrackStarts: before.trackStarts.filter((start) => {
        const now = out.tracks.get(start);
        return now === undefined || now === 'drop';
      }),
      staleEventKeys: before.eventKeys.filter((key) => !out.events.has(key)),
    };
    for (const start of out.replay.staleTrackStarts) out.tracks.delete(start);
    return out;
  }

  private settings(context: BatchContext, subscriberId: number): PipelineSettings {
    return { track: context.trackSettings, vehicle: this.vehicle(context, subscriberId), filter: context.filterSettings };
  }

  private vehicle(context: BatchContext, subscriberId: number): VehicleSettings {
    const settings = context.vehicleSettings.get(subscriberId);
    if (!settings) throw new Error(`no vehicle settings for subscriber ${subscriberId}`);
    return settings;
  }
}

/** Where the runner finds an account's enabled zones (geozones' lookup). */
export interface ZoneSource {
  indexFor(accountId: number, tx: Tx): Promise<ZoneIndex>;
}

/** No signal rule applies: the signal state goes, so a rule made later starts afresh. */
function forgetSignals(state: SubscriberState): null {
  delete state.signals;
  return null;
}

/** Marks the fixes (indexes, in time order) that are already stored or repeat an earlier one of the batch. */
function markResent(fixes: Fix[], indexes: number[], stored: Set<string>, resent: Set<number>): void {
  const seen = new Set(stored);
  for (const index of indexes) {
    const fix = fixes[index]!;
    const key = fixKey(fix.locationDateMs, fix.latitude, fix.longitude);
    if (seen.has(key)) resent.add(index);
    else seen.add(key);
  }
}

/**
 * markResent for fixes that all come at or after the last one processed (the usual batch), without
 * building a key per fix: in time order, a fix repeats another only within its run of fixes at the
 * same instant, or when it is the last valid fix processed (`last`).
 */
function markRepeats(fixes: Fix[], indexes: number[], last: { t: number; lat: number; lon: number } | null, resent: Set<number>): void {
  let runStart = 0;
  for (let k = 0; k < indexes.length; k++) {
    const fix = fixes[indexes[k]!]!;
    if (k > 0 && fixes[indexes[k - 1]!]!.locationDateMs !== fix.locationDateMs) runStart = k;
    let repeated = last !== null && last.t === fix.locationDateMs && last.lat === fix.latitude && last.lon === fix.longitude;
    for (let j = runStart; j < k && !repeated; j++) {
      const earlier = fixes[indexes[j]!]!;
      repeated = earlier.latitude === fix.latitude && earlier.longitude === fix.longitude;
    }
    if (repeated) resent.add(indexes[k]!);
  }
}

function toPipelineFix(fix: Fix, id: number): PipelineFix {
  return {
    id,
    timeMs: fix.locationDateMs,
    isValid: fix.isValid,
    latitude: fix.latitude,
    longitude: fix.longitude,
    velocityKmh: fix.velocityKmh,
    fuelLevel: fix.fuelLevel,
    ignition: fix.ignition,
    externalPower: fix.externalPower,
    odometer: fix.odometer,
    engineHours: fix.engineHours,
    sensors: fix.sensors,
    accuracyM: fix.accuracyM ?? null,
  };
}

