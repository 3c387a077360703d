import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../api';
import { formatDateTime } from '../i18n/format';
import { t } from '../i18n/i18n';
import { tRich } from '../i18n/rich';
import { ErrorAlert, LoadFailure, StatusLine } from '../ui/messages';

const SECRET = '/v6/api/eventManagement/signingSecret';
const OVERLAP_HOURS = 24;

/** When the overlap after a rotation ends, in the account's zone. */
function overlapEnd(timeZone: string): string {
  return formatDateTime(Date.now() + OVERLAP_HOURS * 3_600_000, timeZone);
}

/**
 * The account's webhook signing secret (CONTRACT §4): shown read-only with a Copy button, and
 * rotated after a confirmation in a modal dialog, which keeps focus inside and closes with Escape.
 */
export function SigningSecret({ timeZone, canRotate }: { timeZone: string; canRotate: boolean }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [rotating, setRotating] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const [loadFailure, setLoadFailure] = useState('');
  const load = () => {
    setLoadFailure('');
    api
      .get<{ secret: string }>(SECRET)
      .then((answer) => setSecret(answer.secret))
      .catch((failure: unknown) => setLoadFailure(t('secret.unread', { reason: describe(failure) })));
  };
  useEffect(load, []);

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
      setStatus(t('secret.copied'));
    } catch {
      // Without clipboard access (an insecure origin, a refused permission) the text is selected instead.
      field.current?.focus();
      field.current?.select();
      setStatus(t('secret.notCopied'));
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
      setStatus(t('secret.rotated', { until: overlapEnd(timeZone) }));
    } catch (failure) {
      setError(t('secret.notRotated', { reason: describe(failure) }));
    } finally {
      setRotating(false);
    }
  };

  return (
    <>
      <div class="secret-row">
        <label class="secret-label" for="signing-secret">
          {t('secret.label')}
        </label>
        <input
          id="signing-secret"
          ref={field}
          readOnly
          value={secret}
          placeholder={error ? '' : t('app.loading')}
          spellcheck={false}
          autocomplete="off"
          aria-describedby="signing-secret-help"
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <p id="signing-secret-help" class="muted small">
        {t('secret.help')}
      </p>
      <div class="secret-actions">
        <button type="button" class="secondary" disabled={!secret} onClick={() => void copy()}>
          {t('secret.copy')}
        </button>
        {canRotate && (
          <button type="button" class="danger" disabled={!secret} onClick={confirm}>
            {t('secret.rotate')}
          </button>
        )}
      </div>
      <StatusLine message={status} />
      <ErrorAlert message={error} />
      <LoadFailure message={loadFailure} onRetry={load} />
      <dialog
        ref={dialog}
        class="rotate-dialog"
        aria-labelledby="rotate-title"
        aria-describedby="rotate-text"
      >
        <h2 id="rotate-title">{t('secret.confirmTitle')}</h2>
        <div id="rotate-text">
          <p>{t('secret.confirmText')}</p>
          <p>{tRich('secret.overlap', { hours: OVERLAP_HOURS, v1: <code>v1,</code>, header: <code>webhook-signature</code> })}</p>
        </div>
        <ErrorAlert message={error} />
        <div class="dialog-actions">
          <button type="button" class="secondary" autofocus onClick={cancel}>
            {t('common.cancel')}
          </button>
          <button type="button" class="danger" disabled={rotating} onClick={() => void rotate()}>
            {rotating ? t('secret.rotating') : t('secret.rotateNow')}
          </button>
        </div>
      </dialog>
    </>
  );
}
