import type { ZoneIndex } from '../geozones/geozones.js';
import { LIVE_WINDOW_MS, type FixSignals } from '../positioning/positioning.js';
import type { FixZones, PipelineFix, TrackRecord, TrackSettings } from '../positioning/positioning.js';
import type { TaskDestination } from '../tasks/tasks.js';
import type { ArrivalEstimator } from './arrival-estimator.js';
import type { StoredRule } from './event-rule-schema.js';
import type { DetectorContext, DetectorStep, FixMoment } from './kinds/rule-kind.js';
import { SIGNAL_KINDS } from './kinds/rule-kinds.js';
import { inSchedule } from './rule-schedule.js';
import type { SignalRuleSet, SubscriberRules } from './signal-rules.js';
import type { Emit, SignalFinding } from './signal-types.js';

/**
 * A subscriber's signal state, kept in the pipeline state (so it is checkpointed and replayed
 * like the rest): each kind's part under its detector's `stateKey`. A part exists while some rule
 * of its kind applies to the subscriber; a kind without rules forgets its state, so a rule made
 * later starts from what it sees, not from a stale memory. `live` holds facts a replay must not
 * undo: it is carried over a replay as it is.
 */
export interface SignalState {
  [stateKey: string]: unknown;
  live: {
    /**
     * `[kind:detail, fix time, ...rule ids]` of the signals sent for fixes of the last live window:
     * a replay does not send one again (a late fix within the window may move it earlier).
     */
    sent: [string, number, ...number[]][];
    /** The parts of kinds whose detector keeps its state `live`. */
    [stateKey: string]: unknown;
  };
}

/** A signal to send: the rule it is for and what was found. */
export interface FiredSignal {
  subscriberId: number;
  rule: StoredRule;
  finding: SignalFinding;
}

/** What a batch's watchers share. */
export interface WatchContext {
  rules: SignalRuleSet;
  timeZone: string;
  track: TrackSettings;
  zoneIndex: ZoneIndex | null;
  tasks: Map<number, TaskDestination[]>;
  estimator: ArrivalEstimator;
}

/**
 * Feeds one subscriber's valid fixes to the detector units of the kinds whose rules apply to
 * them, and keeps what they find when it may be sent: the fix is live (CONTRACT §2, decided by
 * the pipeline runner), the rule's schedule holds at the signal's date, and, in a replay, the
 * same signal was not already sent for a fix at or after this one (a late fix within the live
 * window moves a signal earlier; it must not send it twice).
 */
export class SignalWatcher implements FixSignals {
  /** The detectors of the kinds whose rules apply, in the list's order. */
  private readonly steps: DetectorStep[] = [];
  private readonly moment: FixMoment = { live: false, ended: null, stopAtMs: null, zones: null };
  private live = false;
  private fixMs = 0;
  private readonly emit: Emit = (finding) => this.keep(finding);

  private readonly subscriberId: number;
  readonly state: SignalState;
  private readonly context: WatchContext;
  private readonly replay: boolean;
  private readonly out: FiredSignal[];

  constructor(watch: {
    subscriberId: number;
    state: SignalState;
    rules: SubscriberRules;
    context: WatchContext;
    /** The fixes are replayed (a late fix's): what fires again is not sent again. */
    replay: boolean;
    /** Where what fires is collected for the batch. */
    out: FiredSignal[];
  }) {
    const { state, rules, context } = watch;
    this.subscriberId = watch.subscriberId;
    this.state = state;
    this.context = context;
    this.replay = watch.replay;
    this.out = watch.out;
    const detectorContext: DetectorContext = {
      track: context.track,
      zoneIndex: context.zoneIndex,
      tasks: context.tasks.get(watch.subscriberId) ?? [],
      estimator: context.estimator,
      timeZone: context.timeZone,
    };
    SIGNAL_KINDS.forEach(({ detector }, i) => {
      const holder: Record<string, unknown> = detector.live ? state.live : state;
      const own = rules[i]!;
      const step = own.length > 0 ? detector.start((holder[detector.stateKey] ??= detector.initialState()), own, detectorContext) : null;
      if (step) this.steps.push(step);
      else delete holder[detector.stateKey];
    });
  }

  static initialState(): SignalState {
    return { live: { sent: [] } };
  }

  /** One valid fix; `ended` is the track this fix ended, `stopAtMs` where the open track's stop began. */
  step(fix: PipelineFix, live: boolean, ended: TrackRecord | null, stopAtMs: number | null, zones: FixZones | null = null): void {
    this.live = live;
    this.fixMs = fix.timeMs;
    const moment = this.moment;
    moment.live = live;
    moment.ended = ended;
    moment.stopAtMs = stopAtMs;
    moment.zones = zones;
    for (const step of this.steps) step(fix, moment, this.emit);
  }

  private keep(finding: SignalFinding): void {
    if (!this.live) return;
    const rule = this.context.rules.rule(finding.ruleId);
    if (!inSchedule(rule, finding.atMs, this.context.timeZone)) return;
    const what = `${finding.kind}:${finding.detail}`;
    const fixMs = this.fixMs;
    let sent = this.state.live.sent;
    if (this.replay && sent.some((entry) => entry[0] === what && entry[1] >= fixMs && entry.includes(rule.id, 2))) return;
    // A fix that may still fire is at most the live window older than the newest, so than this one.
    if (sent.length > 0 && sent[0]![1] < fixMs - LIVE_WINDOW_MS) sent = this.state.live.sent = sent.filter((entry) => entry[1] >= fixMs - LIVE_WINDOW_MS);
    const last = sent.at(-1);
    if (last && last[0] === what && last[1] === fixMs) last.push(rule.id);
    else sent.push([what, fixMs, rule.id]);
    this.out.push({ subscriberId: this.subscriberId, rule, finding });
  }
}
