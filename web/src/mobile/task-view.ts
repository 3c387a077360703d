import type { PlainKey } from '../i18n/i18n';
import { locale } from '../i18n/i18n';
import type { AppTask, Task } from './device-api';
import type { PendingChange } from './phone-store';

/**
 * The four buttons of a task and the statuses they set (interface 2.10's task statuses):
 * on the way is "accepted", arrived is "in progress", done and failed are "done" and "rejected".
 */
export const STATUS_ACTIONS: readonly { status: number; label: PlainKey }[] = [
  { status: 1, label: 'mobile.onTheWay' },
  { status: 4, label: 'mobile.arrived' },
  { status: 3, label: 'mobile.done' },
  { status: 2, label: 'mobile.failed' },
];

const STATUS_NAMES: Record<number, PlainKey> = {
  0: 'mobile.statusNew',
  1: 'mobile.statusOnTheWay',
  2: 'mobile.statusFailed',
  3: 'mobile.statusDone',
  4: 'mobile.statusArrived',
};

export function statusName(status: number): PlainKey {
  return STATUS_NAMES[status] ?? 'mobile.statusNew';
}

/** Whether the task's commentPolicy asks for a comment with `status` (the server's rule in task-model.ts). */
export function commentRequired(task: Pick<Task, 'commentPolicy'>, status: number): boolean {
  const policy = task.commentPolicy;
  return (status === 3 && (policy === 1 || policy === 3)) || (status === 2 && (policy === 2 || policy === 3));
}

/** A finished task (done or failed) takes no more status buttons. */
export function isClosed(task: Pick<Task, 'status'>): boolean {
  return task.status === 2 || task.status === 3;
}

/** The tasks as the server last answered them, with the changes still waiting on the phone applied. */
export function withPending(tasks: readonly AppTask[], pending: readonly PendingChange[]): AppTask[] {
  return tasks.map((task) => {
    let view = task;
    for (const change of pending) {
      if (change.taskID !== task.taskID) continue;
      if (change.kind === 'status') view = { ...view, status: change.status, statusComment: change.comment ?? view.statusComment };
      else {
        const values = new Map(change.values.map((v) => [v.externalID, v.value]));
        for (const file of change.files) values.set(file.externalID, file.fileID ?? file.name);
        const items = view.customFieldFormItems.map((item) => (values.has(item.externalID) ? { ...item, value: values.get(item.externalID) ?? null } : item));
        for (const [externalID, value] of values) if (!items.some((item) => item.externalID === externalID)) items.push({ externalID, name: externalID, type: 'string', value });
        view = { ...view, customFieldFormItems: items };
      }
    }
    return view;
  });
}

/** The day a task is planned for (its start), as YYYY-MM-DD on the phone's calendar. */
export function taskDay(task: Pick<Task, 'startDate'>): string {
  const start = new Date(task.startDate);
  if (Number.isNaN(start.getTime())) return '';
  return `${start.getFullYear()}-${String(start.getMonth() + 1).padStart(2, '0')}-${String(start.getDate()).padStart(2, '0')}`;
}

/** The tasks in the order of the day: by start, then by deadline, then as created. */
export function inDayOrder<T extends Task>(tasks: readonly T[]): T[] {
  const time = (text: string | null) => (text ? new Date(text).getTime() || 0 : Number.MAX_SAFE_INTEGER);
  return [...tasks].sort((a, b) => time(a.startDate) - time(b.startDate) || time(a.deadline) - time(b.deadline) || a.taskID - b.taskID);
}

export function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Intl.DateTimeFormat(locale(), { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(year, month - 1, date));
}

export function formatTime(text: string | null): string {
  if (!text) return '';
  const moment = new Date(text);
  return Number.isNaN(moment.getTime()) ? '' : new Intl.DateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit' }).format(moment);
}

/**
 * A link that opens navigation to the task: Apple Maps on an iPhone or iPad, a `geo:` address
 * elsewhere (Android offers its map and navigation apps for it).
 */
export function navigationLink(task: Pick<Task, 'latitude' | 'longitude' | 'address'>): string | null {
  const hasPoint = task.latitude !== null && task.longitude !== null;
  if (!hasPoint && !task.address) return null;
  const apple = /iPhone|iPad|iPod|Macintosh/.test(navigator.userAgent) && 'ontouchend' in document;
  if (apple) return `https://maps.apple.com/?daddr=${encodeURIComponent(hasPoint ? `${task.latitude},${task.longitude}` : task.address)}`;
  return hasPoint ? `geo:${task.latitude},${task.longitude}?q=${task.latitude},${task.longitude}` : `geo:0,0?q=${encodeURIComponent(task.address)}`;
}

/** A tel: link of the client's phone, its spaces and brackets dropped. */
export function phoneLink(phone: string): string | null {
  const digits = phone.replace(/[^\d+]/g, '');
  return digits ? `tel:${digits}` : null;
}
