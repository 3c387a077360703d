import { t, untranslated } from '../i18n/i18n';
import { zoneOffset } from '../i18n/format';

/** Every IANA zone the browser knows, with UTC first; the account's own even if the browser does not know it. */
export function zoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...[...new Set([...known, current])].filter((zone) => zone !== 'UTC').sort()];
}

/** The browser's own zone, proposed at the first sign-in. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A select of time zones; the names are IANA identifiers, the same in every language. */
export function ZoneSelect({ id, value, onChange, describedBy }: { id: string; value: string; onChange: (zone: string) => void; describedBy?: string }) {
  return (
    <select id={id} value={value} {...untranslated} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.value)}>
      {zoneChoices(value).map((zone) => (
        <option key={zone} value={zone}>
          {zone} ({zoneOffset(zone)})
        </option>
      ))}
    </select>
  );
}

/** The account's language: the names of the languages are written in themselves. */
export function LocaleSelect({ id, value, onChange, describedBy }: { id: string; value: 'ru' | 'en'; onChange: (locale: 'ru' | 'en') => void; describedBy?: string }) {
  return (
    <select id={id} value={value} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.value === 'ru' ? 'ru' : 'en')}>
      <option value="ru">{t('language.ru')}</option>
      <option value="en" lang="en">
        {t('language.en')}
      </option>
    </select>
  );
}
