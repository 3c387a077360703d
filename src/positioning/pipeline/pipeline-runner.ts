import type { VehicleSettings } from '../../employees/employee-schema.js';
import type { Tx } from '../../store/database.js';
import type { AddressResolver } from '../address-resolver.js';
import type { Fix } from '../fix.js';
import type { PipelineStore } from './pipeline-store.js';
import type { FixMetrics, PipelineFix, TrackSettings } from './pipeline-types.js';
import { fixKey, SubscriberWrites } from './pipeline-writes.js';
import { initialState, SubscriberPipeline, type SubscriberState } from './subscriber-pipeline.js';

/** Fixes older than this before a subscriber's latest are stored as history but not replayed. */
export const REPLAY_HORIZON_MS = 7 * 24 * 3_600_000;

export interface BatchContext {
  accountId: number;
  receivedAt: number;
  trackSettings: TrackSettings;
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
  constructor(
    private readonly store: PipelineStore,
    private readonly addresses: AddressResolver,
  ) {}

  async ingest(tx: Tx, context: BatchContext, fixes: Fix[]): Promise<void> {
    const bySubscriber = new Map<number, number[]>();
    fixes.forEach((fix, index) => {
      const list = bySubscriber.get(fix.subscriberId);
      if (list) list.push(index);
      else bySubscriber.set(fix.subscriberId, [index]);
    });
    const subscriberIds = [...bySubscriber.keys()].sort((a, b) => a - b);
    await this.store.lock(tx, subscriberIds);
    const states = await this.store.loadStates(tx, subscriberIds);

    const metrics: (FixMetrics | null)[] = new Array(fixes.length).fill(null);
    // A fix sent again (a tracker resending its buffer after a lost answer) is acknowledged, not stored twice.
    const resent = new Set<number>();
    const writes: SubscriberWrites[] = [];
    const late: { subscriberId: number; earliestMs: number; state: SubscriberState }[] = [];
    for (const subscriberId of subscriberIds) {
      const indexes = bySubscriber.get(subscriberId)!.sort((a, b) => fixes[a]!.locationDateMs - fixes[b]!.locationDateMs || a - b);
      const state = states.get(subscriberId) ?? initialState();
      const earliestMs = fixes[indexes[0]!]!.locationDateMs;
      if (state.lastFixMs !== null && earliestMs < state.lastFixMs) {
        const stored = await this.store.storedFixKeys(tx, context.accountId, subscriberId, indexes.map((i) => fixes[i]!.locationDateMs));
        markResent(fixes, indexes, stored, resent);
        const fresh = indexes.filter((i) => !resent.has(i));
        if (fresh.length > 0) late.push({ subscriberId, earliestMs: fixes[fresh[0]!]!.locationDateMs, state });
        continue;
      }
      const lastValid = state.lastValid ? new Set([fixKey(state.lastValid.t, state.lastValid.lat, state.lastValid.lon)]) : new Set<string>();
      markResent(fixes, indexes, lastValid, resent);
      const out = new SubscriberWrites(subscriberId);
      const pipeline = new SubscriberPipeline(state, { track: context.trackSettings, vehicle: this.vehicle(context, subscriberId) });
      for (const index of indexes) if (!resent.has(index)) metrics[index] = pipeline.process(toPipelineFix(fixes[index]!, 0), out);
      out.state = state;
      writes.push(out);
    }

    const keep = (_: unknown, index: number) => !resent.has(index);
    await this.store.locations.insert(tx, context.accountId, context.receivedAt, fixes.filter(keep), metrics.filter(keep));
    for (const { subscriberId, earliestMs, state } of late) {
      writes.push(await this.replay(tx, context, subscriberId, Math.max(earliestMs, (state.lastFixMs ?? 0) - REPLAY_HORIZON_MS)));
    }
    await this.store.apply(tx, context.accountId, writes, await this.addressesOf(tx, context.accountId, writes));
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

  /** Re-runs a subscriber's stored fixes from the checkpoint at or before `fromMs`. */
  private async replay(tx: Tx, context: BatchContext, subscriberId: number, fromMs: number): Promise<SubscriberWrites> {
    const checkpoint = await this.store.loadCheckpoint(tx, subscriberId, fromMs);
    const windowStart = checkpoint?.atMs ?? Number.MIN_SAFE_INTEGER;
    const state = checkpoint?.state ?? initialState();
    const fixes = await this.store.loadFixes(tx, context.accountId, subscriberId, windowStart);
    const before = await this.store.derivedKeysFrom(tx, subscriberId, windowStart);

    const out = new SubscriberWrites(subscriberId);
    const pipeline = new SubscriberPipeline(state, { track: context.trackSettings, vehicle: this.vehicle(context, subscriberId) });
    for (const fix of fixes) out.metrics.push([fix.id, pipeline.process(fix, out)]);
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

  private vehicle(context: BatchContext, subscriberId: number): VehicleSettings {
    const settings = context.vehicleSettings.get(subscriberId);
    if (!settings) throw new Error(`no vehicle settings for subscriber ${subscriberId}`);
    return settings;
  }
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
  };
}

