import { t, untranslated } from '../i18n/i18n';

/**
 * How to send positions while the app is closed: Traccar Client, with the same device key as its
 * device identifier and the server's OsmAnd address. The browser reports only while the app is open.
 */
export function TraccarHelp({ deviceKey, serverUrl, onBack }: { deviceKey: string; serverUrl: string | null; onBack: () => void }) {
  return (
    <section class="m-help" aria-labelledby="m-help-title">
      <button type="button" class="m-back" onClick={onBack}>
        {t('mobile.back')}
      </button>
      <h1 id="m-help-title">{t('mobile.backgroundTitle')}</h1>
      <p>{t('mobile.backgroundWhy')}</p>
      <ol>
        <li>{t('mobile.backgroundInstall')}</li>
        <li>
          {t('mobile.backgroundIdentifier')} <code {...untranslated}>{deviceKey}</code>
        </li>
        <li>
          {serverUrl ? (
            <>
              {t('mobile.backgroundServer')} <code {...untranslated}>{serverUrl}</code>
            </>
          ) : (
            t('mobile.backgroundServerAsk')
          )}
        </li>
        <li>{t('mobile.backgroundAccuracy')}</li>
        <li>{t('mobile.backgroundStart')}</li>
      </ol>
      <p>{t('mobile.backgroundBattery')}</p>
    </section>
  );
}
