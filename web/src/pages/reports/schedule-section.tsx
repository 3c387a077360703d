import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, describe } from '../../api';
import type { ReportKind, ReportSchedule, ReportScheduleWrite } from '../../types';
import { Field } from '../../ui/field';
import { ErrorAlert } from '../../ui/messages';
import { REPORTS, whoseParams, type Whose } from './report-model';
import { WhoseSelect, type People } from './whose-select';

const SCHEDULES = '/v6/api/reports/schedules';
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

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

const blank: Draft = { id: null, name: '', report: 'summary', whose: 'all', frequency: 'weekly', weekday: 1, monthDay: 1, time: '08:00', recipients: '', enabled: true };

function draftOf(s: ReportSchedule): Draft {
  const whose = s.subscriberGroupIDs[0] !== undefined ? `g:${s.subscriberGroupIDs[0]}` : s.subscriberIDs[0] !== undefined ? `e:${s.subscriberIDs[0]}` : 'all';
  return { id: s.reportScheduleID, name: s.name, report: s.report, whose, frequency: s.frequency, weekday: s.weekday ?? 1, monthDay: s.monthDay ?? 1, time: s.time, recipients: s.recipients.join(', '), enabled: s.enabled };
}

function when(s: ReportSchedule): string {
  if (s.frequency === 'daily') return `daily at ${s.time}`;
  if (s.frequency === 'weekly') return `${WEEKDAYS[(s.weekday ?? 1) - 1]}s at ${s.time}`;
  return `monthly on day ${s.monthDay} at ${s.time}`;
}

/** The account's report schedules: a list, and a form to make or change one. */
export function ScheduleSection({ people }: { people: People }) {
  const [schedules, setSchedules] = useState<ReportSchedule[] | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');

  const load = () =>
    api
      .get<ReportSchedule[]>(SCHEDULES)
      .then(setSchedules)
      .catch((e: unknown) => setError(`Schedules could not be loaded: ${describe(e)}`));
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
      setStatus(`Schedule “${draft.name}” saved.`);
      setDraft(null);
      await load();
    } catch (e) {
      if (e instanceof ApiFailure) setFieldErrors(e.envelope.validationErrors ?? {});
      setError(`The schedule was not saved: ${describe(e)}`);
    }
  };

  const remove = async (s: ReportSchedule) => {
    if (!confirm(`Delete the schedule “${s.name}”?`)) return;
    try {
      await api.delete(`${SCHEDULES}/${s.reportScheduleID}`);
      setStatus(`Schedule “${s.name}” deleted.`);
      await load();
    } catch (e) {
      setError(`The schedule was not deleted: ${describe(e)}`);
    }
  };

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => (d ? { ...d, [key]: value } : d));
  const fieldError = (name: string) => Object.entries(fieldErrors).find(([k]) => k === name || k.startsWith(`${name}`))?.[1];

  return (
    <section class="report-schedules" aria-labelledby="schedules-title">
      <h2 id="schedules-title">E-mailed reports</h2>
      <p role="status" class="ok">{status}</p>
      <ErrorAlert message={error} />
      {schedules !== null && schedules.length === 0 && <p class="muted">No report is e-mailed yet.</p>}
      {schedules !== null && schedules.length > 0 && (
        <ul class="schedule-list">
          {schedules.map((s) => (
            <li key={s.reportScheduleID}>
              <strong>{s.name}</strong>: {REPORTS.find((r) => r.kind === s.report)?.label}, {when(s)}, to {s.recipients.join(', ')}
              {s.nextSendDate ? ` (next ${s.nextSendDate.slice(0, 16).replace('T', ' ')})` : ' (paused)'}{' '}
              <button type="button" class="link" onClick={() => setDraft(draftOf(s))} aria-label={`Edit ${s.name}`}>
                Edit
              </button>
              <button type="button" class="link" onClick={() => void remove(s)} aria-label={`Delete ${s.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {!draft && (
        <button type="button" class="secondary" onClick={() => setDraft({ ...blank })}>
          E-mail a report on a schedule
        </button>
      )}
      {draft && (
        <form class="schedule-form" onSubmit={save} aria-labelledby="schedule-form-title">
          <h3 id="schedule-form-title">{draft.id === null ? 'New schedule' : `Change “${draft.name}”`}</h3>
          <Field id="schedule-name" label="Name" error={fieldError('name')}>
            {(a) => <input {...a} value={draft.name} onInput={(e) => set('name', e.currentTarget.value)} required />}
          </Field>
          <Field id="schedule-report" label="Report" error={fieldError('report')}>
            {(a) => (
              <select {...a} value={draft.report} onChange={(e) => set('report', e.currentTarget.value as ReportKind)}>
                {REPORTS.map((r) => (
                  <option key={r.kind} value={r.kind}>
                    {r.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <WhoseSelect id="schedule-whose" people={people} value={draft.whose} onChange={(v) => set('whose', v)} />
          <Field id="schedule-frequency" label="How often" hint="Daily sends the day before; weekly the seven days before; monthly the month before.">
            {(a) => (
              <select {...a} value={draft.frequency} onChange={(e) => set('frequency', e.currentTarget.value as Draft['frequency'])}>
                <option value="daily">Daily</option>
                <option value="weekly">Weekly</option>
                <option value="monthly">Monthly</option>
              </select>
            )}
          </Field>
          {draft.frequency === 'weekly' && (
            <Field id="schedule-weekday" label="Day of the week" error={fieldError('weekday')}>
              {(a) => (
                <select {...a} value={String(draft.weekday)} onChange={(e) => set('weekday', Number(e.currentTarget.value))}>
                  {WEEKDAYS.map((day, i) => (
                    <option key={day} value={String(i + 1)}>
                      {day}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {draft.frequency === 'monthly' && (
            <Field id="schedule-month-day" label="Day of the month (1-28)" error={fieldError('monthDay')}>
              {(a) => <input {...a} type="number" min={1} max={28} value={draft.monthDay} onInput={(e) => set('monthDay', Number(e.currentTarget.value))} />}
            </Field>
          )}
          <Field id="schedule-time" label="Time (the account’s time zone)" error={fieldError('time')}>
            {(a) => <input {...a} type="time" value={draft.time} onInput={(e) => set('time', e.currentTarget.value)} required />}
          </Field>
          <Field id="schedule-recipients" label="Recipients" hint="E-mail addresses, separated by commas." error={fieldError('recipients')}>
            {(a) => <input {...a} type="text" inputMode="email" value={draft.recipients} onInput={(e) => set('recipients', e.currentTarget.value)} required />}
          </Field>
          <label class="inline">
            <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} /> Send it
          </label>
          <div class="toolbar">
            <button type="submit">Save schedule</button>
            <button type="button" class="secondary" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
