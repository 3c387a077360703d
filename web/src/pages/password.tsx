import { useState } from 'preact/hooks';
import { api, ApiFailure, describe, fieldProblem } from '../api';
import { Field } from '../ui/field';
import { ErrorAlert, StatusLine } from '../ui/messages';
import { t } from '../i18n/i18n';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../src/accounts/password-policy';

/** The server's rule (password-policy.ts), in the workspace's words: the form never refuses what the server takes or the reverse. */
function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return t('password.tooShort', { count: PASSWORD_MIN_LENGTH });
  if (length > PASSWORD_MAX_LENGTH) return t('password.tooLong', { count: PASSWORD_MAX_LENGTH });
  return null;
}

/** Changes the signed-in user's password; the server checks the current one and ends their other sessions. */
export function PasswordForm({ onChanged }: { onChanged?: () => void } = {}) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ currentPassword?: string; newPassword?: string }>({});
  const [failure, setFailure] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    setFailure('');
    const weak = passwordProblem(next);
    if (weak) {
      setErrors({ newPassword: weak });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await api.put('/workspace/api/password', { currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      setStatus(t('password.changed'));
      onChanged?.();
    } catch (error) {
      const fields = error instanceof ApiFailure ? error.envelope.validationErrors : undefined;
      if (fields?.currentPassword || fields?.newPassword) {
        setErrors({
          currentPassword: fields.currentPassword && (fieldProblem(fields.currentPassword) === fields.currentPassword ? fields.currentPassword : t('password.wrongCurrent')),
          newPassword: fields.newPassword && fieldProblem(fields.newPassword),
        });
      }
      else setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="password-title" class="password-form">
      <h2 id="password-title">{t('password.title')}</h2>
      <Field id="current-password" label={t('password.current')} error={errors.currentPassword}>
        {(control) => (
          <input {...control} type="password" autocomplete="current-password" required value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
        )}
      </Field>
      <Field id="new-password" label={t('password.new')} hint={t('password.hint', { count: PASSWORD_MIN_LENGTH })} error={errors.newPassword}>
        {(control) => (
          <input {...control} type="password" autocomplete="new-password" required value={next} onInput={(e) => setNext(e.currentTarget.value)} />
        )}
      </Field>
      <button type="submit" disabled={busy}>
        {t('password.change')}
      </button>
      <StatusLine message={status} class="ok" />
      <ErrorAlert message={failure} />
    </form>
  );
}
