import { t, untranslated } from '../i18n/i18n';
import type { AppSettings, AppTask as Task } from './device-api';
import { TaskMap } from './task-map';
import { formatDay, formatTime, inDayOrder, statusName, taskDay } from './task-view';

/** Today's and the coming days' tasks, day by day in the order of the day, under a small map. */
export function TaskList(props: { tasks: Task[] | null; map: AppSettings['map'] | null; onOpen: (taskID: number) => void; onHelp: () => void; onRefresh: () => void }) {
  const { tasks, map, onOpen, onHelp } = props;
  if (tasks === null) return <p class="m-note">{t('mobile.loading')}</p>;
  const ordered = inDayOrder(tasks);
  const days = new Map<string, Task[]>();
  for (const task of ordered) {
    const day = taskDay(task);
    days.set(day, [...(days.get(day) ?? []), task]);
  }
  const numbers = new Map(ordered.map((task, index) => [task.taskID, index + 1]));
  return (
    <section class="m-tasks" aria-labelledby="m-tasks-title">
      <div class="m-title-row">
        <h1 id="m-tasks-title">{t('mobile.tasks')}</h1>
        <button type="button" class="m-link-button" onClick={props.onRefresh}>
          {t('mobile.refresh')}
        </button>
      </div>
      {ordered.length > 0 && <TaskMap tasks={ordered} map={map} onOpen={onOpen} />}
      {ordered.length === 0 && <p class="m-note">{t('mobile.noTasks')}</p>}
      {[...days].map(([day, list]) => (
        <section key={day} class="m-day" aria-label={dayLabel(day)}>
          <h2>{dayLabel(day)}</h2>
          <ol class="m-task-list">
            {list.map((task) => {
              const start = formatTime(task.startDate);
              const end = formatTime(task.deadline);
              return (
                <li key={task.taskID}>
                  <button type="button" class={`m-task-row m-row-status-${task.status}`} onClick={() => onOpen(task.taskID)}>
                    <span class="m-number" aria-hidden="true">
                      {numbers.get(task.taskID)}
                    </span>
                    <span class="m-row-main">
                      <span class="m-row-title" {...untranslated}>
                        {task.title}
                      </span>
                      <span class="m-row-detail">
                        {start}
                        {end && `–${end}`}
                        {task.address && ' · '}
                        <span {...untranslated}>{task.address}</span>
                      </span>
                    </span>
                    <span class={`m-status m-status-${task.status}`}>{t(statusName(task.status))}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
      <p>
        <button type="button" class="m-link-button" onClick={onHelp}>
          {t('mobile.backgroundLink')}
        </button>
      </p>
    </section>
  );
}

function dayLabel(day: string): string {
  const today = new Date();
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  if (day === taskDay({ startDate: today.toISOString() })) return t('mobile.today');
  if (day === taskDay({ startDate: tomorrow.toISOString() })) return t('mobile.tomorrow');
  return formatDay(day);
}
