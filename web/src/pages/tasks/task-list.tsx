import type { Employee, Task } from '../../types';
import { clock, statusLabel, type Arrival } from './task-model';
import { t } from '../../i18n/i18n';

interface Props {
  tasks: Task[] | null;
  employees: ReadonlyMap<number, Employee>;
  arrivals: ReadonlyMap<number, Arrival>;
  selected: number | null;
  onSelect: (taskID: number) => void;
}

/** The day's tasks by start time: each a button that selects it, with its status, assignee and estimated arrival. */
export function TaskList({ tasks, employees, arrivals, selected, onSelect }: Props) {
  return (
    <div class="side-panel" role="region" aria-labelledby="task-list-title">
      <h2 id="task-list-title">{t('tasks.ofDay', { count: tasks?.length ?? 0 })}</h2>
      {tasks === null && <p class="muted">{t('tasks.loading')}</p>}
      {tasks?.length === 0 && <p class="muted">{t('tasks.none')}</p>}
      <ul class="pick-list task-list">
        {tasks?.map((task) => {
          const arrival = arrivals.get(task.taskID);
          const assignee = task.subscriberID === null ? t('tasks.notAssigned') : (employees.get(task.subscriberID)?.name ?? t('tasks.employeeN', { id: task.subscriberID }));
          return (
            <li key={task.taskID} data-task-id={task.taskID}>
              <button type="button" class="pick-item" aria-current={selected === task.taskID ? 'true' : undefined} onClick={() => onSelect(task.taskID)}>
                <span class="pick-name">
                  {clock(task.startDate)} {task.title}
                </span>
                <span class={`task-status status-${task.status}`}>{statusLabel(task.status)}</span>
                <span class="muted">
                  {assignee}
                  {arrival && t('tasks.arrives', { time: clock(arrival.estimatedArrivalDate) })}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
