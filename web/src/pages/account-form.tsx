import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, describe, fieldProblem } from '../api';
import { t } from '../i18n/i18n';
import { zoneName } from '../i18n/format';
import { ACCOUNT, useAccountChanged, type AccountSettings } from '../session';
import { Field } from '../ui/field';
import { ErrorAlert, LoadFailure, StatusLine } from '../ui/messages';
import { LocaleSelect, ZoneSelect } from './account-zone';

/** The account's name, time zone and language (PATCH /v6/api/accountManagement/account). */
export function AccountForm() {
  const changed = useAccountChanged();
  const [account, setAccount] = useState<AccountSettings | null>(null);
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState('UTC');
  const [locale, setLocale] = useState<'ru' | 'en'>('en');
  const [errors, setErrors] = useState<{ name?: string; timeZone?: string }>({});
  const [failure, setFailure] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const show = (settings: AccountSettings) => {
    setAccount(settings);
    setName(settings.name);
    setTimeZone(settings.timeZone);
    setLocale(settings.locale);
  };
  const [loadFailure, setLoadFailure] = useState('');
  const load = () => {
    setLoadFailure('');
    api
      .get<AccountSettings>(ACCOUNT)
      .then(show)
      .catch((error: unknown) => setLoadFailure(t('settings.accountUnread', { reason: describe(error) })));
  };
  useEffect(load, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    setFailure('');
    setErrors({});
    setBusy(true);
    try {
      await api.patch(ACCOUNT, { name: name.trim(), timeZone, locale });
      const saved = await api.get<AccountSettings>(ACCOUNT);
      show(saved);
      changed(saved);
      setStatus(t('settings.accountSaved', { zone: zoneName(saved.timeZone) }));
    } catch (error) {
      const fields = error instanceof ApiFailure ? error.envelope.validationErrors : undefined;
      if (fields?.name || fields?.timeZone) {
        setErrors({ ...(fields.name ? { name: fieldProblem(fields.name) } : {}), ...(fields.timeZone ? { timeZone: t('settings.zoneUnknown') } : {}) });
      } else setFailure(t('settings.accountNotSaved', { reason: describe(error) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="account-title" class="account-form" noValidate>
      <h2 id="account-title">{t('settings.account')}</h2>
      <Field id="account-name" label={t('settings.name')} error={errors.name}>
        {(control) => <input {...control} value={name} maxLength={200} required onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field id="account-zone" label={t('settings.timeZone')} hint={t('settings.timeZoneHint')} error={errors.timeZone}>
        {(control) => <ZoneSelect id={control.id} value={timeZone} onChange={setTimeZone} describedBy={control['aria-describedby']} />}
      </Field>
      <Field id="account-locale" label={t('settings.locale')} hint={t('settings.localeHint')}>
        {(control) => <LocaleSelect id={control.id} value={locale} onChange={setLocale} describedBy={control['aria-describedby']} />}
      </Field>
      <button type="submit" disabled={busy || account === null}>
        {t('settings.saveAccount')}
      </button>
      <StatusLine message={status} class="ok" />
      <ErrorAlert message={failure} />
      <LoadFailure message={loadFailure} onRetry={load} />
    </form>
  );
}
