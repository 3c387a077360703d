import { changedValues, type Change, type Initiator } from '../events/events.js';
import { formatDateTime } from '../http/datetime.js';
import type { Db, Tx } from '../store/database.js';
import type { Task, TaskChange } from './task-schema.js';
import { insertTaskChange, listTaskChanges } from './task-store.js';

/**
 * A task's history: every change of it, kept in the change's own transaction. Change events
 * (interface 6.4) are not it: they reach the outbox only while some rule carries them.
 */

const changeTypes = { add: 1, edit: 2, delete: 3 } as const;


/** Records one change of a task; an edit that changed no field is not a change and writes nothing. */
export async function recordTaskChange(tx: Tx, accountId: number, taskId: number, change: Change<Task>, initiator: Initiator, atMs: number): Promise<void> {
  const previous = change.type === 'edit' ? changedValues(change.before, change.after) : {};
  if (change.type === 'edit' && Object.keys(previous).length === 0) return;
  const after = change.type === 'edit' ? (change.after as Record<string, unknown>) : {};
  const next = Object.fromEntries(Object.keys(previous).map((field) => [field, after[field] ?? null]));
  const [kind, id] = Object.entries(initiator)[0] as [string, number];
  await insertTaskChange(tx, {
    account_id: accountId,
    task_id: taskId,
    changed_at: atMs,
    change_type: changeTypes[change.type],
    initiator_kind: kind,
    initiator_id: id,
    previous_values: JSON.stringify(previous),
    new_values: JSON.stringify(next),
  });
}

/** The task's changes, oldest first (the caller has checked that the task is the account's). */
export async function taskChanges(executor: Db, accountId: number, taskId: number, timeZone: string): Promise<TaskChange[]> {
  const rows = await listTaskChanges(executor, accountId, taskId);
  return rows.map((row) => ({
    changeID: row.id,
    changeDate: formatDateTime(row.changed_at, timeZone),
    changeTypeID: row.change_type,
    ...(row.initiator_kind !== null && row.initiator_id !== null ? { [row.initiator_kind]: row.initiator_id } : {}),
    changedValues: JSON.parse(row.previous_values) as Record<string, unknown>,
    newValues: JSON.parse(row.new_values) as Record<string, unknown>,
  }));
}
