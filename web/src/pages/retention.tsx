import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, describe } from '../api';
import { Field } from '../ui/field';
import { ErrorAlert, StatusLine } from '../ui/messages';
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

const kept = (days: number) => (days === 0 ? 'for ever' : `for ${days} days`);

/**
 * How long the account's data is kept (README, "Retention"): the server's default, for ever, or
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

  useEffect(() => {
    api
      .get<Retention>(RETENTION)
      .then(show)
      .catch((error: unknown) => setFailure(`Could not read how long data is kept: ${describe(error)}`));
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    setFailure('');
    let retentionDays: number | null = choice === 'server' ? null : 0;
    if (choice === 'days') {
      retentionDays = Number(days);
      if (!/^\d+$/.test(days.trim()) || retentionDays < 1 || retentionDays > MAX_DAYS) {
        setDayError(`Enter a whole number of days from 1 to ${MAX_DAYS}.`);
        return;
      }
    }
    setDayError('');
    setBusy(true);
    try {
      await api.put(RETENTION, { retentionDays });
      const saved = await api.get<Retention>(RETENTION);
      show(saved);
      setStatus(`Saved. Positions are kept ${kept(saved.fixesKeptDays)}; tracks, vehicle events and statistics ${kept(saved.derivedKeptDays)}.`);
    } catch (error) {
      const field = error instanceof ApiFailure ? error.field('retentionDays') : undefined;
      if (field) setDayError(field);
      else setFailure(`Not saved: ${describe(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const serverDefault = current ? kept(current.serverRetentionDays) : '…';
  return (
    <form onSubmit={submit} aria-labelledby="retention-title" class="retention-form" noValidate>
      <h2 id="retention-title">Data retention</h2>
      <p class="muted small">
        Positions older than this are removed within the hour. Tracks, vehicle events and statistics stay four times as long, so
        reports over a longer period still add up; only the positions themselves (and the route of a track) are gone.
      </p>
      <fieldset>
        <legend>Keep positions</legend>
        <label class="inline">
          <input type="radio" name="retention" checked={choice === 'server'} onChange={() => setChoice('server')} />
          As the server does ({serverDefault})
        </label>
        <label class="inline">
          <input type="radio" name="retention" checked={choice === 'forever'} onChange={() => setChoice('forever')} />
          For ever
        </label>
        <label class="inline">
          <input type="radio" name="retention" checked={choice === 'days'} onChange={() => setChoice('days')} />
          For a number of days
        </label>
      </fieldset>
      <Field id="retention-days" label="Days" error={dayError}>
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
        Save retention
      </button>
      <StatusLine message={status} class="ok" />
      <ErrorAlert message={failure} />
    </form>
  );
}
