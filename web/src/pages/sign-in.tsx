import { useState } from 'preact/hooks';
import { api, ApiFailure, type SessionInfo } from '../api';
import { ErrorAlert } from '../ui/messages';

export function SignIn({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      onSignedIn(await api.post<SessionInfo>('/workspace/api/session', { login, password }));
    } catch (failure) {
      setError(
        failure instanceof ApiFailure && failure.envelope.status === 401
          ? 'Wrong login or password.'
          : failure instanceof Error
            ? failure.message
            : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>Lokator</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Login
          <input name="login" autocomplete="username" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorAlert message={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
