import { useEffect, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import { useSessionInfo } from '../../session';
import type { Employee, Task, TaskChange } from '../../types';
import { ErrorAlert } from '../../ui/messages';
import { dayAndClock, statusLabel, TASKS } from './task-model';

/** Fields every status change moves along with the status: said once, by the status. */
const QUIET = new Set(['lastStatusChangeDate']);
const LABELS: Record<string, string> = { subscriberID: 'assignee', status: 'status', statusComment: 'comment', startDate: 'start', deadline: 'deadline', title: 'title', address: 'address' };

interface Props {
  task: Task;
  employees: ReadonlyMap<number, Employee>;
}

/** The task's history (`GET …/tasks/{taskID}/history`): who changed what, from what to what, oldest first. */
export function TaskHistory({ task, employees }: Props) {
  const { userID } = useSessionInfo();
  const [changes, setChanges] = useState<TaskChange[] | null>(null);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    api
      .get<TaskChange[]>(`${TASKS}/${task.taskID}/history`)
      .then(setChanges)
      .catch((error: unknown) => setFailure(`The history could not be loaded: ${describe(error)}`));
  }, [task.taskID]);

  const employeeName = (id: unknown) => (typeof id === 'number' ? (employees.get(id)?.name ?? `employee ${id}`) : 'nobody');
  const value = (field: string, v: unknown): string => {
    if (field === 'subscriberID') return employeeName(v);
    if (field === 'status' && typeof v === 'number') return statusLabel(v);
    if (v === null || v === undefined || v === '') return 'none';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  const who = (change: TaskChange) => {
    if (change.userID !== undefined) return change.userID === userID ? 'you' : `user ${change.userID}`;
    if (change.subscriberID !== undefined) return `${employeeName(change.subscriberID)} (phone)`;
    if (change.agentID !== undefined) return 'the service';
    return 'unknown';
  };

  return (
    <div class="task-history" role="region" aria-labelledby="task-history-title">
      <h3 id="task-history-title">History</h3>
      <ErrorAlert message={failure} />
      {changes === null && !failure && <p class="muted">Loading…</p>}
      <ol>
        {changes?.map((change) => {
          const fields = Object.keys(change.changedValues).filter((field) => !QUIET.has(field));
          const what =
            change.changeTypeID === 1
              ? 'Created'
              : change.changeTypeID === 3
                ? 'Deleted'
                : fields.map((field) => `${LABELS[field] ?? field}: ${value(field, change.changedValues[field])} → ${value(field, change.newValues[field])}`).join('; ') || 'Changed';
          return (
            <li key={change.changeID}>
              <time dateTime={change.changeDate}>{dayAndClock(change.changeDate)}</time> {what}
              <span class="muted"> by {who(change)}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
