import { render } from 'preact';
import { useState } from 'preact/hooks';
import 'leaflet/dist/leaflet.css';
import './mobile.css';
import { t } from '../i18n/i18n';
import { storedKey, storeKey, takeKeyFromAddress } from './device-key';
import { forgetDevice, SignedInApp, type SignOutReason } from './mobile-app';

/** The employee's app at /m/: signed in by the key of the link it was opened with. */
function MobileRoot({ initialKey }: { initialKey: string | null }) {
  const [key, setKey] = useState(initialKey);
  const [reason, setReason] = useState<SignOutReason | null>(null);

  const signOut = (why: SignOutReason) => {
    storeKey(null);
    void forgetDevice();
    setReason(why);
    setKey(null);
  };

  if (key) return <SignedInApp key={key} deviceKey={key} onSignOut={signOut} />;
  return (
    <main class="m-signed-out">
      <h1>{t('mobile.appName')}</h1>
      {reason === 'refused' && (
        <p class="m-problem" role="alert">
          {t('mobile.keyRefused')}
        </p>
      )}
      {reason === 'asked' && <p role="status">{t('mobile.signedOut')}</p>}
      <p>{t('mobile.signInHow')}</p>
    </main>
  );
}

async function start(): Promise<void> {
  const fromAddress = takeKeyFromAddress();
  // A link with another employee's key: what the phone kept for the previous one is not theirs.
  if (fromAddress && fromAddress !== storedKey()) {
    await forgetDevice().catch(() => undefined);
    storeKey(fromAddress);
  }
  document.title = t('mobile.appName');
  render(<MobileRoot initialKey={fromAddress ?? storedKey()} />, document.getElementById('app')!);
  if ('serviceWorker' in navigator) {
    // The worker keeps the app's files, so the app opens without a network.
    navigator.serviceWorker.register('/m/sw.js', { scope: '/m/' }).catch(() => undefined);
  }
}

void start();
