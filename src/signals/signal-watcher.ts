import type { ZoneIndex } from '../geozones/geozones.js';
import { LIVE_WINDOW_MS, type FixSignals } from '../positioning/positioning.js';
import type { FixZones, PipelineFix, TrackRecord, TrackSettings } from '../positioning/positioning.js';
import type { TaskDestination } from '../tasks/tasks.js';
import type { ArrivalEstimator } from './arrival-estimator.js';
import { ArrivalSignal, type ArrivalSignalState } from './detectors/arrival-signal.js';
import { LoadingSignal, type LoadingSignalState } from './detectors/loading-signal.js';
import { PowerSignal, type PowerSignalState } from './detectors/power-signal.js';
import { SensorSignal, type SensorSignalState } from './detectors/sensor-signal.js';
import { SpeedSignal, type SpeedSignalState } from './detectors/speed-signal.js';
import { StopSignal, type StopSignalState } from './detectors/stop-signal.js';
import { TripEndSignal, type TripEndSignalState } from './detectors/trip-end-signal.js';
import { ZoneSignal, type ZoneSignalState } from './detectors/zone-signal.js';
import type { StoredRule } from './event-rule-schema.js';
import { inSchedule } from './rule-schedule.js';
import type { SignalRuleSet, SubscriberRules } from './signal-rules.js';
import type { Emit, SignalFinding } from './signal-types.js';

/**
 * A subscriber's signal state, kept in the pipeline state (so it is checkpointed and replayed
 * like the rest). A unit's part exists while some rule of its kind applies to the subscriber; a
 * kind without rules forgets its state, so a rule made later starts from what it sees, not from
 * a stale memory. `live` holds facts a replay must not undo: it is carried over a replay as it is.
 */
export interface SignalState {
  speed?: SpeedSignalState;
  zones?: ZoneSignalState;
  stops?: StopSignalState;
  power?: PowerSignalState;
  loading?: LoadingSignalState;
  sensors?: SensorSignalState;
  tripEnd?: TripEndSignalState;
  live: {
    /**
     * `[kind:detail, fix time, ...rule ids]` of the signals sent for fixes of the last live window:
     * a replay does not send one again (a late fix within the window may move it earlier).
     */
    sent: [string, number, ...number[]][];
    arrival?: ArrivalSignalState;
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
  private readonly speed: SpeedSignal | null;
  private readonly zones: ZoneSignal | null;
  private readonly stops: StopSignal | null;
  private readonly power: PowerSignal | null;
  private readonly loading: LoadingSignal | null;
  private readonly sensors: SensorSignal | null;
  private readonly tripEnd: TripEndSignal | null;
  private readonly arrival: ArrivalSignal | null;
  private live = false;
  private fixMs = 0;
  private readonly emit: Emit = (finding) => this.keep(finding);

  constructor(
    private readonly subscriberId: number,
    readonly state: SignalState,
    rules: SubscriberRules,
    private readonly context: WatchContext,
    private readonly replay: boolean,
    private readonly out: FiredSignal[],
  ) {
    const { track } = context;
    const part = <S>(key: Exclude<keyof SignalState, 'live'>, active: boolean, initial: () => S): S | null => {
      if (!active) {
        delete state[key];
        return null;
      }
      return ((state[key] as S | undefined) ??= initial()) as S;
    };
    const speed = part('speed', rules.speed.length > 0, SpeedSignal.initialState);
    this.speed = speed && new SpeedSignal(speed, rules.speed, track.gapSeconds * 1000);
    const zones = part('zones', rules.zones.length > 0 && context.zoneIndex !== null, ZoneSignal.initialState);
    this.zones = zones && new ZoneSignal(zones, rules.zones, context.zoneIndex!);
    const stops = part('stops', rules.stops.length > 0, StopSignal.initialState);
    this.stops = stops && new StopSignal(stops, rules.stops, track.moveSpeedKmh, track.moveDistanceM);
    const power = part('power', rules.power.length > 0, PowerSignal.initialState);
    this.power = power && new PowerSignal(power, rules.power);
    const loading = part('loading', rules.loading.length > 0, LoadingSignal.initialState);
    this.loading = loading && new LoadingSignal(loading, rules.loading);
    const sensors = part('sensors', rules.sensors.length > 0, SensorSignal.initialState);
    this.sensors = sensors && new SensorSignal(sensors, rules.sensors);
    const tripEnd = part('tripEnd', rules.tripEnd.length > 0, TripEndSignal.initialState);
    this.tripEnd = tripEnd && new TripEndSignal(tripEnd, rules.tripEnd);
    if (rules.arrival.length > 0) {
      const arrival = (state.live.arrival ??= ArrivalSignal.initialState());
      const tasks = context.tasks.get(subscriberId) ?? [];
      this.arrival = new ArrivalSignal(arrival, rules.arrival, tasks, context.estimator, context.timeZone);
    } else {
      delete state.live.arrival;
      this.arrival = null;
    }
  }

  static initialState(): SignalState {
    return { live: { sent: [] } };
  }

  /** One valid fix; `ended` is the track this fix ended, `stopAtMs` where the open track's stop began. */
  step(fix: PipelineFix, live: boolean, ended: TrackRecord | null, stopAtMs: number | null, zones: FixZones | null = null): void {
    this.live = live;
    this.fixMs = fix.timeMs;
    const emit = this.emit;
    this.speed?.step(fix, emit);
    // The pipeline's lookup is of the same index (the account's as of the batch): asked once per fix.
    this.zones?.step(fix, emit, zones?.index === this.context.zoneIndex ? zones : null);
    this.stops?.step(fix, emit);
    this.power?.step(fix, emit);
    this.loading?.step(fix, emit);
    this.sensors?.step(fix, emit);
    this.tripEnd?.step(fix, ended, stopAtMs, emit);
    this.arrival?.step(fix, live, emit);
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
