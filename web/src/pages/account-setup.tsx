import { useState } from 'preact/hooks';
import { api, describe } from '../api';
import { language, t } from '../i18n/i18n';
import { zoneName } from '../i18n/format';
import { ACCOUNT, type AccountSettings } from '../session';
import { ErrorAlert } from '../ui/messages';
import { browserZone, LocaleSelect, ZoneSelect } from './account-zone';

/**
 * The first sign-in's question: the first start creates the account in the server's default zone
 * (UTC unless the operator said otherwise), so until someone confirms a zone and a language the
 * workspace asks for them, proposing the browser's zone and language.
 */
export function AccountSetup({ account, onDone }: { account: AccountSettings; onDone: (account: AccountSettings | null) => void }) {
  const [timeZone, setTimeZone] = useState(account.timeZone === 'UTC' ? browserZone() : account.timeZone);
  const [locale, setLocale] = useState<'ru' | 'en'>(language());
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure('');
    try {
      await api.patch(ACCOUNT, { timeZone, locale });
      onDone(await api.get<AccountSettings>(ACCOUNT));
    } catch (error) {
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="account-setup" aria-labelledby="setup-title" onSubmit={submit}>
      <h2 id="setup-title">{t('setup.title')}</h2>
      <p class="muted small">{t('setup.intro', { zone: zoneName(account.timeZone), browserZone: zoneName(browserZone()) })}</p>
      <div class="setup-fields">
        <div class="field">
          <label for="setup-zone">{t('setup.zone')}</label>
          <ZoneSelect id="setup-zone" value={timeZone} onChange={setTimeZone} />
        </div>
        <div class="field">
          <label for="setup-locale">{t('setup.locale')}</label>
          <LocaleSelect id="setup-locale" value={locale} onChange={setLocale} />
        </div>
      </div>
      <ErrorAlert message={failure} />
      <button type="submit" disabled={busy}>
        {t('setup.save')}
      </button>{' '}
      <button type="button" class="secondary" onClick={() => onDone(null)}>
        {t('setup.later')}
      </button>
    </form>
  );
}
