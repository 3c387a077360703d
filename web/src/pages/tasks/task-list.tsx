import type { Employee, Task } from '../../types';
import { clock, statusLabel, type Arrival } from './task-model';

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
      <h2 id="task-list-title">Tasks of the day ({tasks?.length ?? 0})</h2>
      {tasks === null && <p class="muted">Loading tasks…</p>}
      {tasks?.length === 0 && <p class="muted">No tasks on this day. New task, then click the map where it is.</p>}
      <ul class="pick-list task-list">
        {tasks?.map((task) => {
          const arrival = arrivals.get(task.taskID);
          const assignee = task.subscriberID === null ? 'Not assigned' : (employees.get(task.subscriberID)?.name ?? `Employee ${task.subscriberID}`);
          return (
            <li key={task.taskID} data-task-id={task.taskID}>
              <button type="button" class="pick-item" aria-current={selected === task.taskID ? 'true' : undefined} onClick={() => onSelect(task.taskID)}>
                <span class="pick-name">
                  {clock(task.startDate)} {task.title}
                </span>
                <span class={`task-status status-${task.status}`}>{statusLabel(task.status)}</span>
                <span class="muted">
                  {assignee}
                  {arrival && ` · arrives ${clock(arrival.estimatedArrivalDate)}`}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
