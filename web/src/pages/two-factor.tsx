import { useEffect, useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { api, ApiFailure, describe, type SessionInfo } from '../api';
import { t, untranslated } from '../i18n/i18n';
import { ACCOUNT } from '../session';
import { Field } from '../ui/field';
import { ErrorAlert, StatusLine } from '../ui/messages';
import './two-factor.css';

const BASE = '/workspace/api/twoFactor';

/**
 * Turning two-factor sign-in on: a QR code of the new secret for the authenticator app, one code
 * from the app to confirm it, then the ten recovery codes, shown this once. `onDone` after they
 * were seen.
 */
export function TwoFactorSetup({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  useEffect(() => {
    api
      .post<{ secret: string; uri: string }>(`${BASE}/setup`)
      .then(setSetup)
      .catch((error: unknown) => setFailure(t('twoFactor.failed', { reason: describe(error) })));
  }, []);

  const confirm = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setCodeError('');
    setFailure('');
    try {
      const answer = await api.post<{ recoveryCodes: string[] }>(`${BASE}/enable`, { code: code.trim() });
      setRecoveryCodes(answer.recoveryCodes);
    } catch (error) {
      if (error instanceof ApiFailure && error.field('code')) setCodeError(t('twoFactor.wrongCode'));
      else setFailure(t('twoFactor.failed', { reason: describe(error) }));
    } finally {
      setBusy(false);
    }
  };

  if (recoveryCodes) {
    return (
      <div class="two-factor-setup">
        <h3>{t('twoFactor.recoveryTitle')}</h3>
        <p>{t('twoFactor.recoveryHint')}</p>
        <ul class="recovery-codes" aria-label={t('twoFactor.recoveryTitle')} {...untranslated}>
          {recoveryCodes.map((recovery) => (
            <li key={recovery}>
              <code>{recovery}</code>
            </li>
          ))}
        </ul>
        <button type="button" onClick={onDone}>
          {t('twoFactor.done')}
        </button>
      </div>
    );
  }
  return (
    <form class="two-factor-setup" onSubmit={confirm} aria-label={t('twoFactor.turnOn')}>
      <ErrorAlert message={failure} />
      {setup && (
        <>
          <p>{t('twoFactor.scan')}</p>
          <figure class="qr">
            <div
              class="qr-code"
              role="img"
              aria-label={t('twoFactor.qr')}
              // uqr draws the code as SVG markup: a rect and one path, no script.
              dangerouslySetInnerHTML={{ __html: renderSVG(setup.uri) }}
            />
            <figcaption>
              {t('twoFactor.secret')} <code class="totp-secret" {...untranslated}>{setup.secret}</code>
            </figcaption>
          </figure>
          <Field id="totp-code" label={t('twoFactor.code')} error={codeError}>
            {(control) => (
              <input {...control} name="code" inputMode="numeric" autocomplete="one-time-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            )}
          </Field>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {t('twoFactor.confirm')}
            </button>
            {onCancel && (
              <button type="button" class="secondary" onClick={onCancel}>
                {t('common.cancel')}
              </button>
            )}
          </div>
        </>
      )}
    </form>
  );
}

/** Settings: the user's own second factor (on, off), and, for an admin, the account's requirement of it. */
export function TwoFactorSection({ canRequire }: { canRequire: boolean }) {
  const [state, setState] = useState<SessionInfo['twoFactor'] | null>(null);
  const [settingUp, setSettingUp] = useState(false);
  const [offCode, setOffCode] = useState('');
  const [offError, setOffError] = useState('');
  const [failure, setFailure] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const reload = () =>
    api
      .get<SessionInfo>('/workspace/api/session')
      .then((session) => setState(session.twoFactor))
      .catch((error: unknown) => setFailure(describe(error)));
  useEffect(() => void reload(), []);

  const turnOff = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setOffError('');
    setFailure('');
    try {
      await api.post(`${BASE}/disable`, { code: offCode.trim() });
      setOffCode('');
      setStatus(t('twoFactor.turnedOff'));
      await reload();
    } catch (error) {
      if (error instanceof ApiFailure && error.field('code')) setOffError(t('twoFactor.wrongCode'));
      else setFailure(t('twoFactor.failed', { reason: describe(error) }));
    } finally {
      setBusy(false);
    }
  };

  const require = async (required: boolean) => {
    setFailure('');
    setStatus('');
    try {
      await api.patch(ACCOUNT, { twoFactorRequired: required });
      setStatus(t('twoFactor.requireSaved'));
      await reload();
    } catch (error) {
      setFailure(t('twoFactor.failed', { reason: describe(error) }));
    }
  };

  return (
    <section class="two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t('twoFactor.title')}</h2>
      <p class="muted">{t('twoFactor.intro')}</p>
      {state && <p class="two-factor-state">{state.enabled ? t('twoFactor.on', { count: state.recoveryCodesLeft }) : t('twoFactor.off')}</p>}
      {state && !state.enabled && !settingUp && (
        <button type="button" onClick={() => setSettingUp(true)}>
          {t('twoFactor.turnOn')}
        </button>
      )}
      {settingUp && (
        <TwoFactorSetup
          onDone={() => {
            setSettingUp(false);
            void reload();
          }}
          onCancel={() => setSettingUp(false)}
        />
      )}
      {state?.enabled &&
        (state.required ? (
          <p class="muted">{t('twoFactor.requiredNow')}</p>
        ) : (
          <form onSubmit={turnOff} aria-label={t('twoFactor.turnOff')} class="two-factor-off">
            <Field id="totp-off-code" label={t('twoFactor.offCode')} error={offError}>
              {(control) => <input {...control} name="offCode" autocomplete="one-time-code" required value={offCode} onInput={(e) => setOffCode(e.currentTarget.value)} />}
            </Field>
            <button type="submit" class="secondary" disabled={busy}>
              {t('twoFactor.turnOff')}
            </button>
          </form>
        ))}
      {state && canRequire && (
        <label class="checkbox">
          <input type="checkbox" checked={state.required} onChange={(e) => void require(e.currentTarget.checked)} />
          {t('twoFactor.require')}
        </label>
      )}
      {canRequire && <p class="muted small">{t('twoFactor.requireHint')}</p>}
      <ErrorAlert message={failure} />
      <StatusLine message={status} />
    </section>
  );
}
