import type { Task } from '../../types';
import type { TaskArrival } from '../../../../src/workspace/arrival-schema';
import { formatDateTime, formatDuration } from '../../i18n/format';
import { t, type PlainKey } from '../../i18n/i18n';

export const TASKS = '/v6/api/taskManagement/tasks';
export const ARRIVALS = '/workspace/api/arrivals';

/** Interface 2.8's statuses, in the order a task usually goes through them. */
export const STATUSES: { value: number; label: PlainKey }[] = [
  { value: 0, label: 'tasks.statusNew' },
  { value: 1, label: 'tasks.statusAccepted' },
  { value: 4, label: 'tasks.statusProgress' },
  { value: 3, label: 'tasks.statusDone' },
  { value: 2, label: 'tasks.statusRejected' },
];

export const statusLabel = (status: number) => {
  const known = STATUSES.find((s) => s.value === status);
  return known ? t(known.label) : t('tasks.statusOther', { status });
};

/** Open tasks (new, accepted, in progress) are the ones somebody is on the way to. */
export const isOpen = (task: Pick<Task, 'status'>) => task.status !== 2 && task.status !== 3;

/** An estimated arrival, as `GET /workspace/api/arrivals` answers it. */
export type Arrival = TaskArrival;

/** Today's date in the account's time zone, `YYYY-MM-DD` (the day the list starts on). */
export function today(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/**
 * `HH:mm` of a date-time the server wrote in the account's zone (`2026-05-20T14:00:00+03:00`):
 * its own digits, so the time is the account's, whatever the browser's zone.
 */
export const clock = (dateTime: string | null) => (dateTime ? dateTime.slice(11, 16) : '');

/** The day and time of such a date-time as the language writes them, from its own digits ("20 May 2026, 14:00"). */
export const dayAndClock = (dateTime: string | null) => (dateTime ? formatDateTime(`${dateTime.slice(0, 16)}:00Z`, 'UTC') : '');

/** Travel time in words: "12 min", "1 hr 5 min", at least a minute. */
export function travelTime(seconds: number): string {
  return formatDuration(Math.max(60, Math.round(seconds / 60) * 60));
}
