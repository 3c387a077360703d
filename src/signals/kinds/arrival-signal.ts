import { Type } from 'typebox';
import { formatDateTime } from '../../http/datetime.js';
import { haversineMetres } from '../../geo/geo.js';
import type { TaskDestination } from '../../tasks/tasks.js';
import type { ArrivalEstimator } from '../arrival-estimator.js';
import { at, derivedFrom, type Emit, type SignalFix } from '../signal-types.js';
import { defineSignalKind, numberOr } from './rule-kind.js';

/** The arrival signal's own fields of the body, in order: the task's of 6.3 type 24. */
const BODY_FIELDS = [
  'taskID',
  'externalTaskID',
  'taskStartDate',
  'taskDeadlineDate',
  'estimatedArrivalDate',
  'customFields',
  'taskClientPhone',
  'taskClientName',
] as const;

export interface ArrivalRule {
  id: number;
  minutesBefore: number;
}

/** The recent average speed is taken over this much time, from samples at least SAMPLE_MS apart. */
const RECENT_MS = 10 * 60_000;
const SAMPLE_MS = 120_000;
/** Shorter than this, the samples say little: the speed the fix reports is used. */
const MIN_SPAN_MS = 60_000;

const idsOf = new WeakMap<readonly ArrivalRule[], Set<number>>();

export interface ArrivalSignalState {
  /** `[time, latitude, longitude, metres travelled up to it]` of recent fixes, oldest first. */
  recent: [number, number, number, number][];
  /** The rules that fired for each task (by id). */
  notified: Record<string, number[]>;
}

/**
 * Estimated arrival (6.3 type 24): once per rule and task, when the assigned employee's estimated
 * arrival at the task's point is within the rule's `minutesBefore`. An estimate is about now, so
 * only live fixes count, and only one newer than any seen before; the state is not replayed.
 * Tasks are the employee's open ones (see TaskDestination); a task that closes is forgotten.
 */
export class ArrivalSignal {
  /** Per task: the longest `minutesBefore` of the rules that have not fired for it (-1: none left). */
  private readonly horizons = new Map<number, number>();

  private readonly tasks: readonly TaskDestination[];
  private readonly estimator: ArrivalEstimator;
  private readonly timeZone: string;

  constructor(
    readonly state: ArrivalSignalState,
    private readonly rules: readonly ArrivalRule[],
    /** The employee's open tasks with a point, the travel-time estimator, and the account's zone (the signal's dates). */
    around: { tasks: readonly TaskDestination[]; estimator: ArrivalEstimator; timeZone: string },
  ) {
    const { tasks } = around;
    this.tasks = tasks;
    this.estimator = around.estimator;
    this.timeZone = around.timeZone;
    const open = new Set(tasks.map((task) => task.taskId));
    const ruleIds = derivedFrom(idsOf, rules, (all) => new Set(all.map((rule) => rule.id)));
    for (const taskId in state.notified) {
      const fired = state.notified[taskId]!;
      if (fired.every((id) => ruleIds.has(id)) && open.has(Number(taskId))) continue;
      const kept = open.has(Number(taskId)) ? fired.filter((id) => ruleIds.has(id)) : [];
      if (kept.length > 0) state.notified[taskId] = kept;
      else delete state.notified[taskId];
    }
  }

  static initialState(): ArrivalSignalState {
    return { recent: [], notified: {} };
  }

  step(fix: SignalFix, live: boolean, emit: Emit): void {
    if (!live) return;
    const { state } = this;
    const last = state.recent.at(-1);
    if (last && fix.timeMs <= last[0]) return;
    const sinceLastM = last ? haversineMetres(last[1], last[2], fix.latitude, fix.longitude) : 0;
    if (!last || fix.timeMs - last[0] >= SAMPLE_MS) state.recent.push([fix.timeMs, fix.latitude, fix.longitude, (last?.[3] ?? 0) + sinceLastM]);
    while (state.recent.length > 1 && state.recent[0]![0] < fix.timeMs - RECENT_MS) state.recent.shift();
    if (this.tasks.length === 0) return;

    const speedKmh = this.recentSpeedKmh(fix, last ? last[3] + sinceLastM : 0);
    const from = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude };
    for (const task of this.tasks) {
      const horizonMinutes = this.horizonOf(task);
      if (horizonMinutes < 0) continue;
      const seconds = this.estimator.secondsTo(task, from, speedKmh, { lat: task.latitude, lon: task.longitude }, horizonMinutes * 60);
      if (seconds === null) continue;
      for (const rule of this.rules) {
        if (seconds > rule.minutesBefore * 60 || this.notified(rule, task)) continue;
        (state.notified[task.taskId] ??= []).push(rule.id);
        this.horizons.delete(task.taskId);
        emit({ kind: 24, ruleId: rule.id, detail: String(task.taskId), ...at(fix), fields: this.fields(task, fix.timeMs + seconds * 1000) });
      }
    }
  }

  private horizonOf(task: TaskDestination): number {
    let minutes = this.horizons.get(task.taskId);
    if (minutes === undefined) {
      minutes = -1;
      for (const rule of this.rules) if (rule.minutesBefore > minutes && !this.notified(rule, task)) minutes = rule.minutesBefore;
      this.horizons.set(task.taskId, minutes);
    }
    return minutes;
  }

  private notified(rule: ArrivalRule, task: TaskDestination): boolean {
    return this.state.notified[task.taskId]?.includes(rule.id) ?? false;
  }

  /** Path length from the oldest recent sample to this fix (`travelledM` on the samples' scale), over the time between; the reported speed when too short to tell. */
  private recentSpeedKmh(fix: SignalFix, travelledM: number): number {
    const first = this.state.recent[0]!;
    const spanMs = fix.timeMs - first[0];
    if (spanMs < MIN_SPAN_MS) return fix.velocityKmh;
    return ((travelledM - first[3]) / (spanMs / 1000)) * 3.6;
  }

  /** The task fields of 6.3 type 24, in the interface's order. */
  private fields(task: TaskDestination, arrivalMs: number): Record<(typeof BODY_FIELDS)[number], unknown> {
    const date = (ms: number | null) => (ms === null ? null : formatDateTime(ms, this.timeZone));
    const phone = task.clientPhone.replace(/\D/g, '');
    return {
      taskID: task.taskId,
      externalTaskID: task.externalId,
      taskStartDate: date(task.startMs),
      taskDeadlineDate: date(task.deadlineMs),
      // Whole seconds: an estimate has no finer grain.
      estimatedArrivalDate: date(Math.round(arrivalMs / 1000) * 1000),
      customFields: task.customFields,
      taskClientPhone: phone === '' ? null : phone,
      taskClientName: task.clientName === '' ? null : task.clientName,
    };
  }
}

/** Estimated arrival (6.3 type 24). */
export const arrivalSignal = defineSignalKind({
  kind: 24,
  summary: '24 estimated arrival',
  parameters: Type.Object({ minutesBefore: Type.Integer({ minimum: 1, maximum: 1440 }) }, { additionalProperties: false }),
  bodyFields: BODY_FIELDS,
  rule: (id, p): ArrivalRule => ({ id, minutesBefore: numberOr(p.minutesBefore, 0) }),
  detector: {
    stateKey: 'arrival',
    live: true,
    uses: ['openTasks'],
    initialState: ArrivalSignal.initialState,
    start(state: ArrivalSignalState, rules, context) {
      const unit = new ArrivalSignal(state, rules, context);
      return (fix, moment, emit) => unit.step(fix, moment.live, emit);
    },
  },
  message: {
    headline: (_body, words) => words.arrival,
    details(body, words, at) {
      if (body.taskID === undefined) return [];
      const client = [body.taskClientName, body.taskClientPhone].filter((v) => typeof v === 'string' && v).join(', ');
      const lines = [client ? words.taskWithClient(String(body.taskID), client) : words.task(String(body.taskID))];
      const arrival = at(body.estimatedArrivalDate);
      if (arrival) lines.push(words.arrivalAt(arrival));
      return lines;
    },
  },
  workspace: {
    label: 'rules.kind24',
    numbers: [{ key: 'minutesBefore', label: 'rules.minutesBefore', hint: 'rules.minutesBeforeHint' }],
  },
});
