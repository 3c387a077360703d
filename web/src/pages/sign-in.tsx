import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiFailure, describe, type SessionInfo } from '../api';
import { t } from '../i18n/i18n';
import { ErrorAlert } from '../ui/messages';

export function SignIn({ onSignedIn, languageSwitch }: { onSignedIn: (session: SessionInfo) => void; languageSwitch: ComponentChildren }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  /** Asked for once the server says the user signs in with a second factor. */
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      onSignedIn(await api.post<SessionInfo>('/workspace/api/session', { login, password, ...(code === null ? {} : { code: code.trim() }) }));
    } catch (failure) {
      const why = failure instanceof ApiFailure ? failure.field('code') : undefined;
      if (why === 'is required') {
        setCode('');
      } else if (why) {
        setError(t('signIn.codeWrong'));
        setCode('');
      } else {
        setError(failure instanceof ApiFailure && failure.envelope.status === 401 ? t('signIn.wrong') : describe(failure));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <div class="sign-in-language">{languageSwitch}</div>
      <h1>Lokator</h1>
      <form onSubmit={submit} aria-label={t('signIn.form')}>
        <label>
          {t('signIn.login')}
          <input name="login" autocomplete="username" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />
        </label>
        <label>
          {t('signIn.password')}
          <input
            name="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {code !== null && (
          <label>
            {t('signIn.code')}
            <input
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              required
              autoFocus
              aria-describedby="sign-in-code-hint"
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
            <span id="sign-in-code-hint" class="muted small">
              {t('signIn.codeHint')}
            </span>
          </label>
        )}
        <ErrorAlert message={error} />
        <button type="submit" disabled={busy}>
          {t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
