import { useEffect, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import { useSessionInfo } from '../../session';
import type { Employee, Task, TaskChange } from '../../types';
import { LoadFailure } from '../../ui/messages';
import { dayAndClock, statusLabel, TASKS } from './task-model';
import { t, type PlainKey } from '../../i18n/i18n';

/** Fields every status change moves along with the status: said once, by the status. */
const QUIET = new Set(['lastStatusChangeDate']);
const LABELS: Record<string, PlainKey> = {
  subscriberID: 'tasks.fieldAssignee',
  status: 'tasks.fieldStatus',
  statusComment: 'tasks.fieldComment',
  startDate: 'tasks.fieldStart',
  deadline: 'tasks.fieldDeadline',
  title: 'tasks.fieldTitle',
  address: 'tasks.fieldAddress',
};

interface Props {
  task: Task;
  employees: ReadonlyMap<number, Employee>;
}

/** The task's history (`GET …/tasks/{taskID}/history`): who changed what, from what to what, oldest first. */
export function TaskHistory({ task, employees }: Props) {
  const { userID } = useSessionInfo();
  const [changes, setChanges] = useState<TaskChange[] | null>(null);
  const [failure, setFailure] = useState('');

  const load = () => {
    setFailure('');
    api
      .get<TaskChange[]>(`${TASKS}/${task.taskID}/history`)
      .then(setChanges)
      .catch((error: unknown) => setFailure(t('tasks.historyFailed', { reason: describe(error) })));
  };
  useEffect(load, [task.taskID]);

  const employeeName = (id: unknown) => (typeof id === 'number' ? (employees.get(id)?.name ?? t('tasks.employeeLower', { id })) : t('tasks.nobody'));
  const value = (field: string, v: unknown): string => {
    if (field === 'subscriberID') return employeeName(v);
    if (field === 'status' && typeof v === 'number') return statusLabel(v);
    if (v === null || v === undefined || v === '') return t('tasks.none2');
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  const who = (change: TaskChange) => {
    if (change.userID !== undefined) return change.userID === userID ? t('tasks.you') : t('tasks.userN', { id: change.userID });
    if (change.subscriberID !== undefined) return t('tasks.byPhone', { name: employeeName(change.subscriberID) });
    if (change.agentID !== undefined) return t('tasks.service');
    return t('tasks.unknown');
  };

  return (
    <div class="task-history" role="region" aria-labelledby="task-history-title">
      <h3 id="task-history-title">{t('tasks.history')}</h3>
      <LoadFailure message={failure} onRetry={load} />
      {changes === null && !failure && <p class="muted">{t('app.loading')}</p>}
      <ol>
        {changes?.map((change) => {
          const fields = Object.keys(change.changedValues).filter((field) => !QUIET.has(field));
          const what =
            change.changeTypeID === 1
              ? t('tasks.createdChange')
              : change.changeTypeID === 3
                ? t('tasks.deletedChange')
                : fields.map((field) => `${LABELS[field] ? t(LABELS[field]) : field}: ${value(field, change.changedValues[field])} → ${value(field, change.newValues[field])}`).join('; ') || t('tasks.changed');
          return (
            <li key={change.changeID}>
              <time dateTime={change.changeDate}>{dayAndClock(change.changeDate)}</time> {what}
              <span class="muted">{t('tasks.by', { who: who(change) })}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
