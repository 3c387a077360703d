import type { ZoneLookup } from '../geozones/zone-lookup.js';
import type { BatchSignals, PipelineSignals, SignalBatch } from '../positioning/pipeline/pipeline-signals.js';
import type { PipelineFix, TrackRecord } from '../positioning/pipeline/pipeline-types.js';
import type { Tx } from '../store/database.js';
import { openTaskDestinations } from '../tasks/task-destinations.js';
import type { ArrivalEstimator } from './arrival-estimator.js';
import { signalKinds } from './event-rule-schema.js';
import { loadEnabledRules } from './event-rule-service.js';
import { signalBody } from './signal-body.js';
import type { SignalDispatcher } from './signal-dispatcher.js';
import { SignalRuleSet } from './signal-rules.js';
import { SignalWatcher, type FiredSignal, type SignalState, type WatchContext } from './signal-watcher.js';

/** Tasks that start later than this are not what an employee is on the way to now. */
const TASK_HORIZON_MS = 24 * 3_600_000;

/** Unique signal ids, taken in the caller's transaction. */
export type SignalIdSource = (tx: Tx, count: number) => Promise<number[]>;

/**
 * The signal detectors of the pipeline (6.3 types 1, 2, 3, 7, 9, 10, 11, 24): per batch, the
 * account's enabled signal rules are read once (an account without any pays that one indexed
 * read and nothing else), the geozone index and open tasks only when a rule needs them; each
 * subscriber's fixes go through a SignalWatcher; what fires is written to the outbox through the
 * dispatcher in the batch's transaction, so a signal exists exactly when its fixes do.
 */
export class SignalDetection implements PipelineSignals {
  constructor(
    private readonly zones: ZoneLookup,
    private readonly dispatcher: SignalDispatcher,
    private readonly estimator: ArrivalEstimator,
    private readonly signalIds: SignalIdSource,
  ) {}

  async begin(tx: Tx, batch: SignalBatch, subscriberIds: number[]): Promise<BatchSignals | null> {
    const rules = new SignalRuleSet(await loadEnabledRules(tx, batch.accountId, signalKinds));
    if (rules.size === 0) return null;
    const context: WatchContext = {
      rules,
      timeZone: batch.timeZone,
      track: batch.trackSettings,
      zoneIndex: rules.has(2) ? await this.zones.indexFor(batch.accountId, tx) : null,
      tasks: rules.has(24) ? await openTaskDestinations(tx, batch.accountId, subscriberIds, batch.receivedAt + TASK_HORIZON_MS) : new Map(),
      estimator: this.estimator,
    };
    return new BatchSignalRun(batch, context, this.dispatcher, this.signalIds);
  }
}

/** One batch: its watchers, and what they fired. */
class BatchSignalRun implements BatchSignals {
  private readonly fired: FiredSignal[] = [];

  constructor(
    private readonly batch: SignalBatch,
    private readonly context: WatchContext,
    private readonly dispatcher: SignalDispatcher,
    private readonly signalIds: SignalIdSource,
  ) {}

  watch(subscriberId: number, holder: { signals?: SignalState }, before: { signals?: SignalState } | null) {
    const rules = this.context.rules.forSubscriber(subscriberId);
    if (!rules) {
      delete holder.signals;
      return null;
    }
    const state = (holder.signals ??= SignalWatcher.initialState());
    // A replay starts from a checkpoint; what was sent since, and the arrival state, carry over.
    if (before) state.live = before.signals?.live ?? SignalWatcher.initialState().live;
    const watcher = new SignalWatcher(subscriberId, state, rules, this.context, before !== null, this.fired);
    return {
      step: (fix: PipelineFix, live: boolean, ended: TrackRecord | null, stopAtMs: number | null) => watcher.step(fix, live, ended, stopAtMs),
    };
  }

  async flush(tx: Tx): Promise<void> {
    if (this.fired.length === 0) return;
    const subscriberIds = [...new Set(this.fired.map((f) => f.subscriberId))];
    const externalIds = await externalIdsOf(tx, this.batch.accountId, subscriberIds);
    const ids = await this.signalIds(tx, this.fired.length);
    const signals = this.fired.map(({ subscriberId, rule, finding }, i) => ({
      rule,
      body: signalBody(finding, ids[i]!, { id: subscriberId, externalId: externalIds.get(subscriberId) ?? null }, this.batch.timeZone),
    }));
    await this.dispatcher.enqueueSignals(tx, this.batch.accountId, signals);
  }
}

/**
 * `subscriberExternalID` of the body. Read here, in the batch's transaction: the employee service
 * reads outside it, which on SQLite would wait for this very transaction.
 */
async function externalIdsOf(tx: Tx, accountId: number, subscriberIds: number[]): Promise<Map<number, string | null>> {
  const rows = await tx.selectFrom('subscribers').select(['id', 'external_id']).where('account_id', '=', accountId).where('id', 'in', subscriberIds).execute();
  return new Map(rows.map((r) => [r.id, r.external_id]));
}
