import { useEffect, useState } from 'preact/hooks';
import { useCan } from '../../session';
import { api, ApiFailure, describe } from '../../api';
import type { ReportKind, ReportSchedule, ReportScheduleWrite } from '../../types';
import { Field } from '../../ui/field';
import { ErrorAlert, LoadFailure } from '../../ui/messages';
import { DEFAULT_REPORT, REPORTS, reportName, whoseParams, type Whose } from './report-model';
import { WhoseSelect, type People } from './whose-select';
import { locale, t } from '../../i18n/i18n';
import { dayAndClock } from '../tasks/task-model';

const SCHEDULES = '/v6/api/reports/schedules';
/** ISO weekdays named as the language does (1 January 2024 was a Monday). */
const weekdayName = (day: number) => new Intl.DateTimeFormat(locale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, day));

interface Draft {
  id: number | null;
  name: string;
  report: ReportKind;
  whose: Whose;
  frequency: ReportScheduleWrite['frequency'];
  weekday: number;
  monthDay: number;
  time: string;
  recipients: string;
  enabled: boolean;
}

const blank: Draft = { id: null, name: '', report: DEFAULT_REPORT, whose: 'all', frequency: 'weekly', weekday: 1, monthDay: 1, time: '08:00', recipients: '', enabled: true };

function draftOf(s: ReportSchedule): Draft {
  const whose = s.subscriberGroupIDs[0] !== undefined ? `g:${s.subscriberGroupIDs[0]}` : s.subscriberIDs[0] !== undefined ? `e:${s.subscriberIDs[0]}` : 'all';
  return { id: s.reportScheduleID, name: s.name, report: s.report, whose, frequency: s.frequency, weekday: s.weekday ?? 1, monthDay: s.monthDay ?? 1, time: s.time, recipients: s.recipients.join(', '), enabled: s.enabled };
}

function when(s: ReportSchedule): string {
  if (s.frequency === 'daily') return t('sched.daily', { time: s.time });
  if (s.frequency === 'weekly') return t('sched.weekly', { weekday: weekdayName(s.weekday ?? 1), time: s.time });
  return t('sched.monthly', { day: s.monthDay ?? 1, time: s.time });
}

/** The account's report schedules: a list, and a form to make or change one. */
export function ScheduleSection({ people }: { people: People }) {
  const canEdit = useCan('edit');
  const [schedules, setSchedules] = useState<ReportSchedule[] | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');

  const [loadError, setLoadError] = useState('');
  const load = () =>
    api
      .get<ReportSchedule[]>(SCHEDULES)
      .then((list) => {
        setSchedules(list);
        setLoadError('');
      })
      .catch((e: unknown) => setLoadError(t('sched.loadFailed', { reason: describe(e) })));
  useEffect(() => void load(), []);

  const save = async (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    setError('');
    setFieldErrors({});
    const body: ReportScheduleWrite = {
      name: draft.name,
      report: draft.report,
      ...whoseParams(draft.whose),
      recipients: draft.recipients.split(/[,;\s]+/).filter(Boolean),
      frequency: draft.frequency,
      ...(draft.frequency === 'weekly' ? { weekday: draft.weekday } : {}),
      ...(draft.frequency === 'monthly' ? { monthDay: draft.monthDay } : {}),
      time: draft.time,
      enabled: draft.enabled,
    };
    try {
      if (draft.id === null) await api.post(SCHEDULES, body);
      else await api.put(`${SCHEDULES}/${draft.id}`, body);
      setStatus(t('sched.saved', { name: draft.name }));
      setDraft(null);
      await load();
    } catch (e) {
      if (e instanceof ApiFailure) setFieldErrors(e.envelope.validationErrors ?? {});
      setError(t('sched.notSaved', { reason: describe(e) }));
    }
  };

  const remove = async (s: ReportSchedule) => {
    if (!confirm(t('sched.confirmDelete', { name: s.name }))) return;
    try {
      await api.delete(`${SCHEDULES}/${s.reportScheduleID}`);
      setStatus(t('sched.deleted', { name: s.name }));
      await load();
    } catch (e) {
      setError(t('sched.notDeleted', { reason: describe(e) }));
    }
  };

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => (d ? { ...d, [key]: value } : d));
  const fieldError = (name: string) => Object.entries(fieldErrors).find(([k]) => k === name || k.startsWith(`${name}`))?.[1];

  return (
    <section class="report-schedules" aria-labelledby="schedules-title">
      <h2 id="schedules-title">{t('sched.title')}</h2>
      <p role="status" class="ok">{status}</p>
      <ErrorAlert message={error} />
      <LoadFailure message={loadError} onRetry={() => void load()} />
      {schedules !== null && schedules.length === 0 && <p class="muted">{t('sched.none')}</p>}
      {schedules !== null && schedules.length > 0 && (
        <ul class="schedule-list">
          {schedules.map((s) => (
            <li key={s.reportScheduleID}>
              <strong>{s.name}</strong>: {t('sched.line', { report: reportName(s.report), when: when(s), recipients: s.recipients.join(', ') })}
              {s.nextSendDate ? t('sched.next', { time: dayAndClock(s.nextSendDate) }) : t('sched.paused')}{' '}
              {canEdit && (
                <>
                  <button type="button" class="link" onClick={() => setDraft(draftOf(s))} aria-label={t('sched.edit', { name: s.name })}>
                    {t('sched.editShort')}
                  </button>
                  <button type="button" class="link" onClick={() => void remove(s)} aria-label={t('sched.delete', { name: s.name })}>
                    {t('sched.deleteShort')}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {!draft && canEdit && (
        <button type="button" class="secondary" onClick={() => setDraft({ ...blank })}>
          {t('sched.add')}
        </button>
      )}
      {draft && (
        <form class="schedule-form" onSubmit={save} aria-labelledby="schedule-form-title">
          <h3 id="schedule-form-title">{draft.id === null ? t('sched.new') : t('sched.change', { name: draft.name })}</h3>
          <Field id="schedule-name" label={t('sched.name')} error={fieldError('name')}>
            {(a) => <input {...a} value={draft.name} onInput={(e) => set('name', e.currentTarget.value)} required />}
          </Field>
          <Field id="schedule-report" label={t('sched.report')} error={fieldError('report')}>
            {(a) => (
              <select {...a} value={draft.report} onChange={(e) => set('report', e.currentTarget.value as ReportKind)}>
                {REPORTS.map((r) => (
                  <option key={r.kind} value={r.kind}>
                    {t(r.label)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <WhoseSelect id="schedule-whose" people={people} value={draft.whose} onChange={(v) => set('whose', v)} />
          <Field id="schedule-frequency" label={t('sched.howOften')} hint={t('sched.howOftenHint')}>
            {(a) => (
              <select {...a} value={draft.frequency} onChange={(e) => set('frequency', e.currentTarget.value as Draft['frequency'])}>
                <option value="daily">{t('sched.dailyOption')}</option>
                <option value="weekly">{t('sched.weeklyOption')}</option>
                <option value="monthly">{t('sched.monthlyOption')}</option>
              </select>
            )}
          </Field>
          {draft.frequency === 'weekly' && (
            <Field id="schedule-weekday" label={t('sched.weekday')} error={fieldError('weekday')}>
              {(a) => (
                <select {...a} value={String(draft.weekday)} onChange={(e) => set('weekday', Number(e.currentTarget.value))}>
                  {[1, 2, 3, 4, 5, 6, 7].map((day) => (
                    <option key={day} value={String(day)}>
                      {weekdayName(day)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {draft.frequency === 'monthly' && (
            <Field id="schedule-month-day" label={t('sched.monthDay')} error={fieldError('monthDay')}>
              {(a) => <input {...a} type="number" min={1} max={28} value={draft.monthDay} onInput={(e) => set('monthDay', Number(e.currentTarget.value))} />}
            </Field>
          )}
          <Field id="schedule-time" label={t('sched.time')} error={fieldError('time')}>
            {(a) => <input {...a} type="time" value={draft.time} onInput={(e) => set('time', e.currentTarget.value)} required />}
          </Field>
          <Field id="schedule-recipients" label={t('sched.recipients')} hint={t('sched.recipientsHint')} error={fieldError('recipients')}>
            {(a) => <input {...a} type="text" inputMode="email" value={draft.recipients} onInput={(e) => set('recipients', e.currentTarget.value)} required />}
          </Field>
          <label class="inline">
            <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} /> {t('sched.send')}
          </label>
          <div class="toolbar">
            <button type="submit">{t('sched.save')}</button>
            <button type="button" class="secondary" onClick={() => setDraft(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
