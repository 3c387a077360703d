import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../api';
import { ErrorAlert, StatusLine } from '../ui/messages';

const SECRET = '/v6/api/eventManagement/signingSecret';
const OVERLAP_HOURS = 24;

/** When the overlap after a rotation ends, in the account's zone. */
function overlapEnd(timeZone: string): string {
  const end = new Date(Date.now() + OVERLAP_HOURS * 3_600_000);
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(end);
  } catch {
    return end.toISOString();
  }
}

/**
 * The account's webhook signing secret (CONTRACT §4): shown read-only with a Copy button, and
 * rotated after a confirmation in a modal dialog, which keeps focus inside and closes with Escape.
 */
export function SigningSecret({ timeZone }: { timeZone: string }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [rotating, setRotating] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    api
      .get<{ secret: string }>(SECRET)
      .then((answer) => setSecret(answer.secret))
      .catch((failure: unknown) => setError(`Could not read the signing secret: ${describe(failure)}`));
  }, []);

  // The dialog is opened and closed on the element itself: its 'close' event comes a task later,
  // so state mirroring it could still say "open" when the button is pressed again.
  const confirm = () => {
    setError('');
    if (!dialog.current?.open) dialog.current?.showModal();
  };
  const cancel = () => dialog.current?.close();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setStatus('The signing secret was copied to the clipboard.');
    } catch {
      // Without clipboard access (an insecure origin, a refused permission) the text is selected instead.
      field.current?.focus();
      field.current?.select();
      setStatus('Could not copy automatically: the secret is selected, press Ctrl+C (⌘C) to copy it.');
    }
  };

  const rotate = async () => {
    setRotating(true);
    setError('');
    try {
      const answer = await api.post<{ secret: string }>(`${SECRET}/rotate`);
      setSecret(answer.secret);
      cancel();
      // Closing the dialog returns focus to Rotate secret; the status line announces the change.
      setStatus(`A new signing secret is shown. Until ${overlapEnd(timeZone)} calls are signed with both the old and the new secret.`);
    } catch (failure) {
      setError(`The secret was not rotated: ${describe(failure)}`);
    } finally {
      setRotating(false);
    }
  };

  return (
    <>
      <div class="secret-row">
        <label class="secret-label" for="signing-secret">
          Signing secret
        </label>
        <input
          id="signing-secret"
          ref={field}
          readOnly
          value={secret}
          placeholder={error ? '' : 'Loading…'}
          spellcheck={false}
          autocomplete="off"
          aria-describedby="signing-secret-help"
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <p id="signing-secret-help" class="muted small">
        Every webhook of this account is signed with it. Keep it as secret as a password.
      </p>
      <div class="secret-actions">
        <button type="button" class="secondary" disabled={!secret} onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" class="danger" disabled={!secret} onClick={confirm}>
          Rotate secret
        </button>
      </div>
      <StatusLine message={status} />
      <ErrorAlert message={error} />
      <dialog
        ref={dialog}
        class="rotate-dialog"
        aria-labelledby="rotate-title"
        aria-describedby="rotate-text"
      >
        <h2 id="rotate-title">Rotate the signing secret?</h2>
        <div id="rotate-text">
          <p>A new secret is made and shown here. Receivers need it to keep verifying calls.</p>
          <p>
            For {OVERLAP_HOURS} hours both secrets sign: each call carries two signatures (two <code>v1,</code> entries in{' '}
            <code>webhook-signature</code>), so a receiver that still has the old secret keeps accepting calls while you update it.
            After that only the new secret signs.
          </p>
        </div>
        <ErrorAlert message={error} />
        <div class="dialog-actions">
          <button type="button" class="secondary" autofocus onClick={cancel}>
            Cancel
          </button>
          <button type="button" class="danger" disabled={rotating} onClick={() => void rotate()}>
            {rotating ? 'Rotating…' : 'Rotate now'}
          </button>
        </div>
      </dialog>
    </>
  );
}
