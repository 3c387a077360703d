import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import type { LatestFixes } from '../positioning/positioning.js';
import type { TaskReader } from '../tasks/tasks.js';
import type { ArrivalEstimator } from './arrival-estimator.js';

/** Farther away than this much travel, no estimate is given (the estimator asks no route for it). */
const HORIZON_SECONDS = 12 * 3600;
/** Statuses 2 rejected and 3 done are closed: nobody is on the way. */
const CLOSED_STATUSES = new Set([2, 3]);

export interface TaskArrival {
  taskID: number;
  subscriberID: number;
  /** The estimate of signal 24: the assignee's latest fix's time plus the travel time from it. */
  estimatedArrivalDate: string;
  travelSeconds: number;
  /** The fix the estimate starts from, so a reader can tell a stale one. */
  latitude: number;
  longitude: number;
  locationDate: string;
}

/**
 * Estimated arrival of tasks' assignees, for the workspace map: the same estimator as the
 * estimated-arrival signal (6.3 type 24), from each assignee's latest fix at its reported speed.
 * With a router, the first question of a pair only starts a route request; its answer is awaited
 * here (the router's timeout bounds it) so the page gets an estimate on its first ask.
 */
export class TaskArrivals {
  constructor(
    private readonly tasks: TaskReader,
    private readonly locations: LatestFixes,
    private readonly estimator: ArrivalEstimator,
  ) {}

  /** The open, assigned tasks among `taskIDs` that have a point and an estimate; others are left out. */
  async estimate(account: Account, taskIDs: number[]): Promise<TaskArrival[]> {
    const tasks = (await this.tasks.listByIds(account, taskIDs)).filter(
      (task) => task.subscriberID !== null && task.latitude !== null && task.longitude !== null && !CLOSED_STATUSES.has(task.status),
    );
    if (tasks.length === 0) return [];
    const fixes = await this.locations.latestOfEach(account, [...new Set(tasks.map((task) => task.subscriberID!))]);
    const latest = new Map(fixes.map((fix) => [fix.subscriberID, fix]));
    const ask = () =>
      tasks.flatMap((task): TaskArrival[] => {
        const fix = latest.get(task.subscriberID!);
        if (!fix) return [];
        const fixMs = Date.parse(fix.locationDate);
        const from = { t: fixMs, lat: fix.latitude, lon: fix.longitude };
        const seconds = this.estimator.secondsTo({ subscriberId: task.subscriberID!, taskId: task.taskID }, from, fix.velocity, { lat: task.latitude!, lon: task.longitude! }, HORIZON_SECONDS);
        if (seconds === null) return [];
        const travelSeconds = Math.round(seconds);
        return [
          {
            taskID: task.taskID,
            subscriberID: task.subscriberID!,
            estimatedArrivalDate: formatDateTime(fixMs + travelSeconds * 1000, account.timeZone),
            travelSeconds,
            latitude: fix.latitude,
            longitude: fix.longitude,
            locationDate: fix.locationDate,
          },
        ];
      });
    const first = ask();
    if (first.length === tasks.filter((task) => latest.has(task.subscriberID!)).length) return first;
    await this.estimator.idle();
    return ask();
  }
}
