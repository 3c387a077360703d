import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { language, LANGUAGES, setLanguage, t, untranslated, type Language } from '../i18n/i18n';
import { fetchAppSettings, fetchProfile, fetchTasks, KeyRefused, type AppSettings, type AppTask, type Profile } from './device-api';
import { createOutboxSender } from './outbox-sender';
import { clearPhone, pendingChanges, queueChange, savedValue, saveValue, type PendingChange } from './phone-store';
import { startPositionReports, type PositionState } from './position-reporter';
import type { FilledForm } from './task-form';
import { TaskList } from './task-list';
import { TaskPage } from './task-page';
import { TraccarHelp } from './traccar-help';
import { withPending } from './task-view';
import { newIdempotencyKey } from './idempotency-key';

/** How often the task list is asked for again while the app is open and online. */
const REFRESH_MS = 60_000;

export type SignOutReason = 'asked' | 'refused';

type Screen = { name: 'list' } | { name: 'task'; taskID: number } | { name: 'help' };

/** The signed-in app: the header, the task list or one task, and the sending of what was done. */
export function SignedInApp({ deviceKey, onSignOut }: { deviceKey: string; onSignOut: (reason: SignOutReason) => void }) {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [settings, setSettings] = useState<AppSettings | null>(null);
  const [tasks, setTasks] = useState<AppTask[] | null>(null);
  const [pending, setPending] = useState<PendingChange[]>([]);
  const [screen, setScreen] = useState<Screen>({ name: 'list' });
  const [online, setOnline] = useState(navigator.onLine);
  const [stale, setStale] = useState(false);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [position, setPosition] = useState<PositionState>('off');
  const [, setLanguageShown] = useState<Language>(language());
  const signedOut = useRef(false);

  const keyRefused = () => {
    if (signedOut.current) return;
    signedOut.current = true;
    onSignOut('refused');
  };

  const load = async () => {
    try {
      const [me, list] = await Promise.all([fetchProfile(deviceKey), fetchTasks(deviceKey)]);
      setProfile(me);
      setTasks(list);
      setStale(false);
      await saveValue('profile', me);
      await saveValue('tasks', list);
    } catch (error) {
      if (error instanceof KeyRefused) return keyRefused();
      // Offline: what the phone kept from the last time.
      const [me, list] = await Promise.all([savedValue<Profile>('profile'), savedValue<AppTask[]>('tasks')]);
      if (me) setProfile(me);
      setTasks(list ?? []);
      setStale(true);
    }
    try {
      const loaded = await fetchAppSettings();
      setSettings(loaded);
      await saveValue('settings', loaded);
    } catch {
      setSettings((await savedValue<AppSettings>('settings')) ?? null);
    }
  };

  const sender = useMemo(
    () =>
      createOutboxSender(deviceKey, {
        waiting: () => void pendingChanges().then(setPending),
        refused: (_change, message) => setRefusals((current) => [...current, message]),
        keyRefused,
        sent: () => undefined,
      }),
    [deviceKey],
  );

  useEffect(() => {
    void pendingChanges().then(setPending);
    void load().then(() => sender.flush());
    const goOnline = () => {
      setOnline(true);
      void load();
    };
    const goOffline = () => setOnline(false);
    // Back in front (the phone unlocked, the app switched to): the coordinator may have changed the day.
    const shown = () => document.visibilityState === 'visible' && navigator.onLine && void load();
    document.addEventListener('visibilitychange', shown);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    const refresh = setInterval(() => navigator.onLine && void load(), REFRESH_MS);
    const stopPositions = startPositionReports(deviceKey, setPosition, keyRefused);
    const back = (event: PopStateEvent) => setScreen((event.state as Screen | null) ?? { name: 'list' });
    window.addEventListener('popstate', back);
    return () => {
      sender.stop();
      stopPositions();
      clearInterval(refresh);
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
      document.removeEventListener('visibilitychange', shown);
      window.removeEventListener('popstate', back);
    };
  }, [deviceKey]);

  // Once every change is sent, the server's list is the truth again.
  const waiting = pending.length;
  const previousWaiting = useRef(waiting);
  useEffect(() => {
    if (previousWaiting.current > 0 && waiting === 0) void load();
    previousWaiting.current = waiting;
  }, [waiting]);

  const go = (next: Screen) => {
    history.pushState(next, '');
    setScreen(next);
    window.scrollTo(0, 0);
  };
  const back = () => history.back();

  const queue = async (change: PendingChange) => {
    await queueChange(change);
    setPending(await pendingChanges());
    void sender.flush();
  };

  const shown = tasks ? withPending(tasks, pending) : null;
  const current = screen.name === 'task' ? shown?.find((task) => task.taskID === screen.taskID) : undefined;

  const signOut = () => {
    if (waiting > 0 && !window.confirm(t('mobile.signOutPending', { count: waiting }))) return;
    onSignOut('asked');
  };

  return (
    <div class="m-app">
      <header class="m-header">
        <div class="m-who">
          <span class="m-app-name">{t('mobile.appName')}</span>
          <strong {...untranslated}>{profile?.name ?? ''}</strong>
        </div>
        <div class="m-header-tools">
          <select aria-label={t('mobile.language')} value={language()} onChange={(event) => {
            setLanguage((event.target as HTMLSelectElement).value as Language);
            setLanguageShown(language());
          }}>
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {code === 'ru' ? 'Русский' : 'English'}
              </option>
            ))}
          </select>
          <button type="button" class="m-link-button" onClick={signOut}>
            {t('mobile.signOut')}
          </button>
        </div>
      </header>
      <div class="m-bar" role="status">
        {!online && <span class="m-offline">{t('mobile.offline')}</span>}
        {waiting > 0 && <span class="m-waiting">{t('mobile.waiting', { count: waiting })}</span>}
        {stale && online && <span>{t('mobile.stale')}</span>}
        {position === 'denied' && <span>{t('mobile.positionDenied')}</span>}
      </div>
      {refusals.map((message, index) => (
        <p key={index} class="m-problem" role="alert">
          {t('mobile.changeRefused', { message })}
        </p>
      ))}
      <main>
        {screen.name === 'help' && <TraccarHelp deviceKey={deviceKey} serverUrl={settings ? osmandAddress(settings) : null} onBack={back} />}
        {screen.name === 'task' && current && (
          <TaskPage
            task={current}
            fields={current.form?.fields ?? null}
            onBack={back}
            onStatus={(status, comment) => queue({ kind: 'status', taskID: current.taskID, status, comment, idempotencyKey: newIdempotencyKey(), actedAt: new Date().toISOString() })}
            onForm={(form: FilledForm) =>
              queue({
                kind: 'form',
                taskID: current.taskID,
                values: form.values,
                files: form.files.map((file) => ({ ...file, idempotencyKey: newIdempotencyKey() })),
                idempotencyKey: newIdempotencyKey(),
                actedAt: new Date().toISOString(),
              })
            }
          />
        )}
        {(screen.name === 'list' || (screen.name === 'task' && !current)) && (
          <TaskList tasks={shown} map={settings?.map ?? null} onOpen={(taskID) => go({ name: 'task', taskID })} onHelp={() => go({ name: 'help' })} onRefresh={() => void load()} />
        )}
      </main>
    </div>
  );
}

/** The address Traccar Client sends to: this server's name on the OsmAnd port; null when that listener is off. */
function osmandAddress(settings: AppSettings): string | null {
  return settings.osmandPort > 0 ? `http://${location.hostname}:${settings.osmandPort}` : null;
}

/** Forgets the key and everything the phone kept for it. */
export async function forgetDevice(): Promise<void> {
  await clearPhone();
}
