import type { Task } from '../../types';
import type { TaskArrival } from '../../../../src/workspace/arrival-schema';

export const TASKS = '/v6/api/taskManagement/tasks';
export const ARRIVALS = '/workspace/api/arrivals';

/** Interface 2.8's statuses, in the order a task usually goes through them. */
export const STATUSES: { value: number; label: string }[] = [
  { value: 0, label: 'New' },
  { value: 1, label: 'Accepted' },
  { value: 4, label: 'In progress' },
  { value: 3, label: 'Done' },
  { value: 2, label: 'Rejected' },
];

export const statusLabel = (status: number) => STATUSES.find((s) => s.value === status)?.label ?? `Status ${status}`;

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

/** The day and time of such a date-time, `2026-05-20 14:00`. */
export const dayAndClock = (dateTime: string | null) => (dateTime ? `${dateTime.slice(0, 10)} ${dateTime.slice(11, 16)}` : '');

/** Travel time in words: "12 min", "1 h 05 min". */
export function travelTime(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
