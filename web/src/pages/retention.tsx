import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, describe, fieldProblem } from '../api';
import { Field } from '../ui/field';
import { ErrorAlert, LoadFailure, StatusLine } from '../ui/messages';
import { t } from '../i18n/i18n';
import './retention.css';

const RETENTION = '/v6/api/accountManagement/retention';
const MAX_DAYS = 36_500;

interface Retention {
  retentionDays: number | null;
  serverRetentionDays: number;
  fixesKeptDays: number;
  derivedKeptDays: number;
}

type Choice = 'server' | 'forever' | 'days';

const kept = (days: number) => (days === 0 ? t('retention.keptForEver') : t('retention.keptDays', { count: days }));

/**
 * How long the account's data is kept (docs/operators/retention.md): the server's default, for ever, or
 * a number of days. Fixes older than that are removed within the hour; tracks, vehicle events
 * and statistics stay four times as long. The operator can set the same.
 */
export function RetentionForm() {
  const [current, setCurrent] = useState<Retention | null>(null);
  const [choice, setChoice] = useState<Choice>('server');
  const [days, setDays] = useState('');
  const [dayError, setDayError] = useState('');
  const [failure, setFailure] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const show = (retention: Retention) => {
    setCurrent(retention);
    setChoice(retention.retentionDays === null ? 'server' : retention.retentionDays === 0 ? 'forever' : 'days');
    setDays(retention.retentionDays ? String(retention.retentionDays) : '');
  };

  const [loadFailure, setLoadFailure] = useState('');
  const load = () => {
    setLoadFailure('');
    api
      .get<Retention>(RETENTION)
      .then(show)
      .catch((error: unknown) => setLoadFailure(t('retention.unread', { reason: describe(error) })));
  };
  useEffect(load, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    setFailure('');
    let retentionDays: number | null = choice === 'server' ? null : 0;
    if (choice === 'days') {
      retentionDays = Number(days);
      if (!/^\d+$/.test(days.trim()) || retentionDays < 1 || retentionDays > MAX_DAYS) {
        setDayError(t('retention.badDays', { max: MAX_DAYS }));
        return;
      }
    }
    setDayError('');
    setBusy(true);
    try {
      await api.put(RETENTION, { retentionDays });
      const saved = await api.get<Retention>(RETENTION);
      show(saved);
      setStatus(t('retention.saved', { fixes: kept(saved.fixesKeptDays), derived: kept(saved.derivedKeptDays) }));
    } catch (error) {
      const field = error instanceof ApiFailure ? error.field('retentionDays') : undefined;
      if (field) setDayError(fieldProblem(field));
      else setFailure(t('retention.notSaved', { reason: describe(error) }));
    } finally {
      setBusy(false);
    }
  };

  const serverDefault = current ? kept(current.serverRetentionDays) : '…';
  return (
    <form onSubmit={submit} aria-labelledby="retention-title" class="retention-form" noValidate>
      <h2 id="retention-title">{t('retention.title')}</h2>
      <p class="muted small">{t('retention.intro')}</p>
      <fieldset>
        <legend>{t('retention.keep')}</legend>
        <label class="inline">
          <input type="radio" name="retention" checked={choice === 'server'} onChange={() => setChoice('server')} />
          {t('retention.asServer', { kept: serverDefault })}
        </label>
        <label class="inline">
          <input type="radio" name="retention" checked={choice === 'forever'} onChange={() => setChoice('forever')} />
          {t('retention.forEver')}
        </label>
        <label class="inline">
          <input type="radio" name="retention" checked={choice === 'days'} onChange={() => setChoice('days')} />
          {t('retention.forDays')}
        </label>
      </fieldset>
      <Field id="retention-days" label={t('retention.days')} error={dayError}>
        {(control) => (
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_DAYS}
            step={1}
            disabled={choice !== 'days'}
            value={days}
            onInput={(e) => setDays(e.currentTarget.value)}
          />
        )}
      </Field>
      <button type="submit" disabled={busy || current === null}>
        {t('retention.save')}
      </button>
      <StatusLine message={status} class="ok" />
      <ErrorAlert message={failure} />
      <LoadFailure message={loadFailure} onRetry={load} />
    </form>
  );
}
