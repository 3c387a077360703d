import { formatDateTime } from '../../http/datetime.js';
import { haversineMetres } from '../../positioning/geo.js';
import type { TaskDestination } from '../../tasks/task-destinations.js';
import type { ArrivalEstimator } from '../arrival-estimator.js';
import type { ArrivalRule } from '../signal-rules.js';
import { at, type Emit, type SignalFix } from '../signal-types.js';

/** The recent average speed is taken over this much time, from samples at least SAMPLE_MS apart. */
const RECENT_MS = 10 * 60_000;
const SAMPLE_MS = 30_000;
/** Shorter than this, the samples say little: the speed the fix reports is used. */
const MIN_SPAN_MS = 60_000;

export interface ArrivalSignalState {
  /** `[time, latitude, longitude]` of recent fixes, oldest first. */
  recent: [number, number, number][];
  /** The tasks each rule (by id) has fired for. */
  notified: Record<string, number[]>;
}

/**
 * Estimated arrival (6.3 type 24): once per rule and task, when the assigned employee's estimated
 * arrival at the task's point is within the rule's `minutesBefore`. An estimate is about now, so
 * only live fixes count, and only one newer than any seen before; the state is not replayed.
 * Tasks are the employee's open ones (see TaskDestination); a task that closes is forgotten.
 */
export class ArrivalSignal {
  constructor(
    readonly state: ArrivalSignalState,
    private readonly rules: readonly ArrivalRule[],
    private readonly subscriberId: number,
    private readonly tasks: readonly TaskDestination[],
    private readonly estimator: ArrivalEstimator,
    private readonly timeZone: string,
  ) {
    const open = new Set(tasks.map((task) => task.taskId));
    const notified: Record<string, number[]> = {};
    for (const rule of rules) {
      const kept = (state.notified[rule.id] ?? []).filter((id) => open.has(id));
      if (kept.length > 0) notified[rule.id] = kept;
    }
    state.notified = notified;
  }

  static initialState(): ArrivalSignalState {
    return { recent: [], notified: {} };
  }

  step(fix: SignalFix, live: boolean, emit: Emit): void {
    if (!live) return;
    const { state } = this;
    const last = state.recent.at(-1);
    if (last && fix.timeMs <= last[0]) return;
    if (!last || fix.timeMs - last[0] >= SAMPLE_MS) state.recent.push([fix.timeMs, fix.latitude, fix.longitude]);
    while (state.recent.length > 1 && state.recent[0]![0] < fix.timeMs - RECENT_MS) state.recent.shift();
    if (this.tasks.length === 0) return;

    const speedKmh = this.recentSpeedKmh(fix);
    const from = { t: fix.timeMs, lat: fix.latitude, lon: fix.longitude };
    for (const task of this.tasks) {
      const waiting = this.rules.filter((rule) => !state.notified[rule.id]?.includes(task.taskId));
      if (waiting.length === 0) continue;
      const horizonSeconds = Math.max(...waiting.map((rule) => rule.minutesBefore)) * 60;
      const seconds = this.estimator.secondsTo(`${this.subscriberId}:${task.taskId}`, from, speedKmh, { lat: task.latitude, lon: task.longitude }, horizonSeconds);
      if (seconds === null) continue;
      for (const rule of waiting) {
        if (seconds > rule.minutesBefore * 60) continue;
        (state.notified[rule.id] ??= []).push(task.taskId);
        emit({ kind: 24, ruleId: rule.id, detail: String(task.taskId), ...at(fix), fields: this.fields(task, fix.timeMs + seconds * 1000) });
      }
    }
  }

  /** Path length over the recent samples and this fix, over the time they span; the reported speed when too short to tell. */
  private recentSpeedKmh(fix: SignalFix): number {
    const { recent } = this.state;
    const first = recent[0]!;
    const spanMs = fix.timeMs - first[0];
    if (spanMs < MIN_SPAN_MS) return fix.velocityKmh;
    let metres = 0;
    for (let i = 1; i < recent.length; i++) metres += haversineMetres(recent[i - 1]![1], recent[i - 1]![2], recent[i]![1], recent[i]![2]);
    const newest = recent.at(-1)!;
    if (newest[0] !== fix.timeMs) metres += haversineMetres(newest[1], newest[2], fix.latitude, fix.longitude);
    return (metres / (spanMs / 1000)) * 3.6;
  }

  /** The task fields of 6.3 type 24, in the interface's order. */
  private fields(task: TaskDestination, arrivalMs: number): Record<string, unknown> {
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
