import { useState } from 'preact/hooks';
import { t, untranslated } from '../i18n/i18n';
import type { AppTask as Task, FormField } from './device-api';
import { TaskForm, type FilledForm } from './task-form';
import { commentRequired, formatDay, formatTime, isClosed, navigationLink, phoneLink, STATUS_ACTIONS, statusName, taskDay } from './task-view';

/**
 * One task: the client, where (a tap opens navigation), the client's phone (a tap calls), the
 * time window and description; the status buttons; and the task's form when it has a template.
 */
export function TaskPage(props: {
  task: Task;
  /** The fields of the task's template; null while unknown (offline before it was ever loaded). */
  fields: FormField[] | null;
  onBack: () => void;
  onStatus: (status: number, comment: string | null) => Promise<void>;
  onForm: (form: FilledForm) => Promise<void>;
}) {
  const { task } = props;
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const navigation = navigationLink(task);
  const call = phoneLink(task.clientPhone);
  const start = formatTime(task.startDate);
  const end = formatTime(task.deadline);

  const press = async (status: number) => {
    const text = comment.trim();
    if (commentRequired(task, status) && !text) {
      setProblem(t('mobile.commentNeeded'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await props.onStatus(status, text || null);
      setComment('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="m-task" aria-labelledby="m-task-title">
      <button type="button" class="m-back" onClick={props.onBack}>
        {t('mobile.back')}
      </button>
      <h1 id="m-task-title" {...untranslated}>
        {task.title}
      </h1>
      <p class={`m-status m-status-${task.status}`}>{t(statusName(task.status))}</p>
      <dl class="m-facts">
        <dt>{t('mobile.when')}</dt>
        <dd>
          {formatDay(taskDay(task))}
          {start && `, ${start}`}
          {end && `–${end}`}
        </dd>
        {task.clientName && (
          <>
            <dt>{t('mobile.client')}</dt>
            <dd {...untranslated}>{task.clientName}</dd>
          </>
        )}
        {task.address && (
          <>
            <dt>{t('mobile.address')}</dt>
            <dd {...untranslated}>{navigation ? <a href={navigation}>{task.address}</a> : task.address}</dd>
          </>
        )}
        {!task.address && navigation && (
          <>
            <dt>{t('mobile.address')}</dt>
            <dd>
              <a href={navigation}>{t('mobile.navigate')}</a>
            </dd>
          </>
        )}
        {task.clientPhone && (
          <>
            <dt>{t('mobile.phone')}</dt>
            <dd {...untranslated}>{call ? <a href={call}>{task.clientPhone}</a> : task.clientPhone}</dd>
          </>
        )}
        {task.description && (
          <>
            <dt>{t('mobile.description')}</dt>
            <dd class="m-description" {...untranslated}>
              {task.description}
            </dd>
          </>
        )}
        {task.statusComment && (
          <>
            <dt>{t('mobile.lastComment')}</dt>
            <dd {...untranslated}>{task.statusComment}</dd>
          </>
        )}
      </dl>

      {!isClosed(task) && (
        <div class="m-actions" role="group" aria-label={t('mobile.statusButtons')}>
          <label class="m-field">
            <span>{t('mobile.comment')}</span>
            <textarea value={comment} rows={2} onInput={(event) => setComment((event.target as HTMLTextAreaElement).value)} />
          </label>
          {problem && (
            <p class="m-problem" role="alert">
              {problem}
            </p>
          )}
          <div class="m-buttons">
            {STATUS_ACTIONS.map((action) => (
              <button
                key={action.status}
                type="button"
                class={`m-button m-button-${action.status}`}
                disabled={busy || task.status === action.status}
                onClick={() => void press(action.status)}
              >
                {t(action.label)}
              </button>
            ))}
          </div>
        </div>
      )}

      {task.form !== null && <TaskForm task={task} fields={props.fields} onSave={props.onForm} />}
    </section>
  );
}
