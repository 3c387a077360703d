import { useState } from 'preact/hooks';
import { api, ApiFailure, describe } from '../api';
import { Field } from '../ui/field';
import { ErrorAlert, StatusLine } from '../ui/messages';
import { PASSWORD_MIN_LENGTH, passwordProblem } from '../../../src/accounts/password-policy';

/** Changes the signed-in user's password; the server checks the current one and ends their other sessions. */
export function PasswordForm() {
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
    // The server's own rule, so the form never refuses what the server takes or the reverse.
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
      setStatus('Password changed. Other sessions of this user were signed out.');
    } catch (error) {
      const fields = error instanceof ApiFailure ? error.envelope.validationErrors : undefined;
      if (fields?.currentPassword || fields?.newPassword) setErrors({ currentPassword: fields.currentPassword, newPassword: fields.newPassword });
      else setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="password-title" class="password-form">
      <h2 id="password-title">Password</h2>
      <Field id="current-password" label="Current password" error={errors.currentPassword}>
        {(control) => (
          <input {...control} type="password" autocomplete="current-password" required value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
        )}
      </Field>
      <Field id="new-password" label="New password" hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} error={errors.newPassword}>
        {(control) => (
          <input {...control} type="password" autocomplete="new-password" required value={next} onInput={(e) => setNext(e.currentTarget.value)} />
        )}
      </Field>
      <button type="submit" disabled={busy}>
        Change password
      </button>
      <StatusLine message={status} class="ok" />
      <ErrorAlert message={failure} />
    </form>
  );
}
