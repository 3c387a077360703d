import type { EmployeeDirectory } from '../employees/employees.js';
import type { ZoneLookup } from '../geozones/geozones.js';
import type { BatchSignals, PipelineSignals, SignalBatch } from '../positioning/positioning.js';
import type { Tx } from '../store/database.js';
import { openTaskDestinations } from '../tasks/tasks.js';
import type { ArrivalEstimator } from './arrival-estimator.js';
import { enabledRuleRows, enabledRuleStamps, ruleFromRow } from './event-rule-store.js';
import { SIGNAL_TYPES } from './kinds/rule-kinds.js';
import { signalBody } from './signal-body.js';
import type { SignalDispatcher } from './signal-dispatcher.js';
import { SignalRuleSet } from './signal-rules.js';
import { SignalWatcher, type FiredSignal, type SignalState, type WatchContext } from './signal-watcher.js';

/** Tasks that start later than this are not what an employee is on the way to now. */
const TASK_HORIZON_MS = 24 * 3_600_000;
/** Accounts whose parsed rules are kept between batches. */
const MAX_CACHED_ACCOUNTS = 1000;

/** `subscriberExternalID` of a signal's body comes from the employees. */
export type EmployeeIdentities = Pick<EmployeeDirectory, 'identitiesOf'>;

/** Unique signal ids, taken in the caller's transaction. */
export type SignalIdSource = (tx: Tx, count: number) => Promise<number[]>;

/**
 * The signal detectors of the pipeline (the signal kinds of kinds/rule-kinds.ts): per batch, the
 * account's enabled signal rules are read once (an account without any pays that one indexed
 * read and nothing else), the geozone index and open tasks only when a rule's detector reads them; each
 * subscriber's fixes go through a SignalWatcher; what fires is written to the outbox through the
 * dispatcher in the batch's transaction, so a signal exists exactly when its fixes do.
 */
export class SignalDetection implements PipelineSignals {
  /** Each account's rules as last parsed, with the stamps of the rows they came from. */
  private readonly ruleSets = new Map<number, { stamps: Stamp[]; set: SignalRuleSet }>();

  private readonly zones: ZoneLookup;
  private readonly dispatcher: SignalDispatcher;
  private readonly estimator: ArrivalEstimator;
  private readonly signalIds: SignalIdSource;
  private readonly employees: EmployeeIdentities;

  constructor(options: { zones: ZoneLookup; dispatcher: SignalDispatcher; estimator: ArrivalEstimator; signalIds: SignalIdSource; employees: EmployeeIdentities }) {
    this.zones = options.zones;
    this.dispatcher = options.dispatcher;
    this.estimator = options.estimator;
    this.signalIds = options.signalIds;
    this.employees = options.employees;
  }

  async begin(tx: Tx, batch: SignalBatch, subscriberIds: number[]): Promise<BatchSignals | null> {
    const rules = await this.rulesOf(tx, batch.accountId);
    if (!rules) return null;
    const context: WatchContext = {
      rules,
      timeZone: batch.timeZone,
      track: batch.trackSettings,
      zoneIndex: rules.uses('zoneIndex') ? await this.zones.indexFor(batch.accountId, tx) : null,
      tasks: rules.uses('openTasks') ? await openTaskDestinations(tx, batch.accountId, subscriberIds, batch.receivedAt + TASK_HORIZON_MS) : new Map(),
      estimator: this.estimator,
    };
    return new BatchSignalRun(batch, context, { dispatcher: this.dispatcher, signalIds: this.signalIds, employees: this.employees });
  }

  /**
   * The account's enabled signal rules, as of the batch's transaction (a change counts from the
   * next batch, on every server). Each batch reads which rules there are and when each last
   * changed; the rules themselves are read and parsed again only when that differs.
   */
  private async rulesOf(tx: Tx, accountId: number): Promise<SignalRuleSet | null> {
    const stamps = await enabledRuleStamps(tx, accountId, SIGNAL_TYPES);
    if (stamps.length === 0) {
      this.ruleSets.delete(accountId);
      return null;
    }
    const cached = this.ruleSets.get(accountId);
    if (cached && sameStamps(cached.stamps, stamps)) return cached.set;
    const rows = await enabledRuleRows(tx, accountId, SIGNAL_TYPES);
    const set = new SignalRuleSet(rows.map(ruleFromRow));
    this.ruleSets.delete(accountId);
    if (this.ruleSets.size >= MAX_CACHED_ACCOUNTS) this.ruleSets.delete(this.ruleSets.keys().next().value!);
    this.ruleSets.set(accountId, { stamps: rows.map((r) => ({ id: r.id, updated_at: r.updated_at })), set });
    return set;
  }
}

type Stamp = { id: number; updated_at: number };

function sameStamps(a: Stamp[], b: Stamp[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.id !== b[i]!.id || a[i]!.updated_at !== b[i]!.updated_at) return false;
  return true;
}

/** One batch: its watchers, and what they fired. */
class BatchSignalRun implements BatchSignals {
  private readonly fired: FiredSignal[] = [];

  private readonly dispatcher: SignalDispatcher;
  private readonly signalIds: SignalIdSource;
  private readonly employees: EmployeeIdentities;

  constructor(
    private readonly batch: SignalBatch,
    private readonly context: WatchContext,
    /** Where what fires goes: its ids, its employees' external ids, the outbox. */
    sending: { dispatcher: SignalDispatcher; signalIds: SignalIdSource; employees: EmployeeIdentities },
  ) {
    this.dispatcher = sending.dispatcher;
    this.signalIds = sending.signalIds;
    this.employees = sending.employees;
  }

  watch(subscriberId: number, holder: { signals?: SignalState }, before: { signals?: SignalState } | null): SignalWatcher | null {
    const rules = this.context.rules.forSubscriber(subscriberId);
    if (!rules) {
      delete holder.signals;
      return null;
    }
    const state = (holder.signals ??= SignalWatcher.initialState());
    // A replay starts from a checkpoint; what was sent since, and the arrival state, carry over.
    if (before) state.live = before.signals?.live ?? SignalWatcher.initialState().live;
    return new SignalWatcher({ subscriberId, state, rules, context: this.context, replay: before !== null, out: this.fired });
  }

  async flush(tx: Tx): Promise<void> {
    if (this.fired.length === 0) return;
    // Subscribers were run one after another: the outbox gets their signals in time order.
    this.fired.sort((a, b) => a.finding.atMs - b.finding.atMs);
    const subscriberIds = [...new Set(this.fired.map((f) => f.subscriberId))];
    // In the batch's transaction: a read outside it would wait for this very transaction on SQLite.
    const identities = await this.employees.identitiesOf(tx, this.batch.accountId, subscriberIds);
    const ids = await this.signalIds(tx, this.fired.length);
    const signals = this.fired.map(({ subscriberId, rule, finding }, i) => ({
      rule,
      body: signalBody(finding, ids[i]!, { id: subscriberId, externalId: identities.get(subscriberId)?.externalSubscriberID ?? null }, this.batch.timeZone),
    }));
    await this.dispatcher.enqueueSignals(tx, this.batch.accountId, signals);
  }
}
