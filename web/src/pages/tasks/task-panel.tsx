import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import type { Employee, Task } from '../../types';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { Field } from '../../ui/field';
import { ErrorAlert } from '../../ui/messages';
import { TaskHistory } from './task-history';
import { clock, dayAndClock, statusLabel, STATUSES, TASKS, travelTime, type Arrival } from './task-model';
import { t } from '../../i18n/i18n';

interface Props {
  task: Task;
  employees: ReadonlyMap<number, Employee>;
  arrival: Arrival | undefined;
  /** The task changed (or went): the page reads the list again. */
  onChanged: (message: string) => Promise<void>;
  onDeleted: (message: string) => Promise<void>;
  onClose: () => void;
}

/** A time, with its day when that is not the day of `since`. */
const when = (dateTime: string, since: string) => (dateTime.slice(0, 10) === since.slice(0, 10) ? clock(dateTime) : dayAndClock(dateTime));

/** One task: where and when, its assignee (reassigned here), its status (changed here), its estimated arrival and its history. */
export function TaskPanel({ task, employees, arrival, onChanged, onDeleted, onClose }: Props) {
  const [assignee, setAssignee] = useState(task.subscriberID === null ? '' : String(task.subscriberID));
  const [status, setStatus] = useState(String(task.status));
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [historyKey, setHistoryKey] = useState(0);
  const deleting = useConfirmStep();
  const heading = useRef<HTMLHeadingElement>(null);

  useLayoutEffect(() => heading.current?.focus(), [task.taskID]);
  // The list is read again every few seconds: a change made elsewhere (the phone) shows here too.
  useEffect(() => setStatus(String(task.status)), [task.status]);
  useEffect(() => setAssignee(task.subscriberID === null ? '' : String(task.subscriberID)), [task.subscriberID]);
  useEffect(() => setHistoryKey((k) => k + 1), [task.lastStatusChangeDate, task.subscriberID, task.status]);

  const change = async (body: Record<string, unknown>, message: string) => {
    setBusy(true);
    setFailure('');
    try {
      await api.patch(`${TASKS}/${task.taskID}`, body);
      // The page says it, in its status line.
      await onChanged(message);
    } catch (error) {
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  const assign = (event: Event) => {
    event.preventDefault();
    const id = assignee === '' ? null : Number(assignee);
    const name = id === null ? null : (employees.get(id)?.name ?? t('tasks.employeeLower', { id }));
    void change({ subscriberID: id }, name ? t('tasks.assignedTo', { title: task.title, name }) : t('tasks.unassigned', { title: task.title }));
  };
  const setTaskStatus = (event: Event) => {
    event.preventDefault();
    void change({ status: Number(status) }, t('tasks.statusChanged', { title: task.title, status: statusLabel(Number(status)) }));
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api.delete(`${TASKS}/${task.taskID}`);
      await onDeleted(t('tasks.deleted', { title: task.title }));
    } catch (error) {
      setFailure(describe(error));
    } finally {
      setBusy(false);
      deleting.end();
    }
  };

  const assigneeName = task.subscriberID === null ? t('tasks.nobody') : (employees.get(task.subscriberID)?.name ?? t('tasks.employeeLower', { id: task.subscriberID }));
  return (
    <div class="side-panel task-panel" role="region" aria-labelledby="task-panel-title">
      <h2 id="task-panel-title" tabIndex={-1} ref={heading}>
        {t('tasks.taskTitle', { title: task.title })}
      </h2>
      <dl class="facts">
        <dt>{t('tasks.status')}</dt>
        <dd>{statusLabel(task.status)}</dd>
        <dt>{t('tasks.start')}</dt>
        <dd>{dayAndClock(task.startDate)}</dd>
        {task.deadline && (
          <>
            <dt>{t('tasks.deadline')}</dt>
            <dd>{dayAndClock(task.deadline)}</dd>
          </>
        )}
        <dt>{t('tasks.assignee')}</dt>
        <dd>{assigneeName}</dd>
        {task.address && (
          <>
            <dt>{t('tasks.address')}</dt>
            <dd>{task.address}</dd>
          </>
        )}
        {task.statusComment && (
          <>
            <dt>{t('tasks.comment')}</dt>
            <dd>{task.statusComment}</dd>
          </>
        )}
        <dt>{t('tasks.eta')}</dt>
        <dd class="eta">
          {arrival
            ? t('tasks.etaText', { time: when(arrival.estimatedArrivalDate, arrival.locationDate), travel: travelTime(arrival.travelSeconds), at: dayAndClock(arrival.locationDate) })
            : task.subscriberID === null || task.latitude === null
              ? t('tasks.etaNoPoint')
              : t('tasks.etaNone')}
        </dd>
      </dl>

      <form onSubmit={assign} class="inline-form" noValidate>
        <Field id="task-reassign" label={task.subscriberID === null ? t('tasks.assignTo') : t('tasks.reassignTo')}>
          {(control) => (
            <select {...control} value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
              <option value="">{t('tasks.nobodyOption')}</option>
              {[...employees.values()]
                .filter((e) => e.isActive || e.subscriberID === task.subscriberID)
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((e) => (
                  <option key={e.subscriberID} value={String(e.subscriberID)}>
                    {e.name}
                  </option>
                ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {task.subscriberID === null ? t('tasks.assign') : t('tasks.reassign')}
        </button>
      </form>
      <form onSubmit={setTaskStatus} class="inline-form" noValidate>
        <Field id="task-status" label={t('tasks.status')}>
          {(control) => (
            <select {...control} value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
              {STATUSES.map((s) => (
                <option key={s.value} value={String(s.value)}>
                  {t(s.label)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {t('tasks.changeStatus')}
        </button>
      </form>
      <ErrorAlert message={failure} />

      <TaskHistory key={historyKey} task={task} employees={employees} />

      <div class="actions">
        <button type="button" class="secondary" onClick={onClose}>
          {t('tasks.close')}
        </button>
        {deleting.asking ? (
          <ConfirmStep question={t('tasks.confirmDelete', { title: task.title })} confirm={t('tasks.yesDelete')} cancel={t('tasks.keep')} busy={busy} onConfirm={() => void remove()} onCancel={deleting.cancel} />
        ) : (
          <button type="button" class="danger" ref={deleting.askButton} onClick={deleting.ask}>
            {t('tasks.delete')}
          </button>
        )}
      </div>
    </div>
  );
}
