import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { language, LANGUAGES, setLanguage, t, untranslated, type Language } from '../i18n/i18n';
import { fetchFormFields, fetchProfile, fetchTasks, KeyRefused, type FormField, type Profile, type Task } from './device-api';
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
  const [tasks, setTasks] = useState<Task[] | null>(null);
  const [pending, setPending] = useState<PendingChange[]>([]);
  const [fields, setFields] = useState<Record<number, FormField[]>>({});
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

  const loadFields = async (list: readonly Task[]) => {
    for (const task of list) {
      if (task.customFieldsFormTemplateID === null) continue;
      try {
        const loaded = await fetchFormFields(deviceKey, task.taskID);
        await saveValue(`fields:${task.taskID}`, loaded);
        setFields((current) => ({ ...current, [task.taskID]: loaded }));
      } catch (error) {
        if (error instanceof KeyRefused) return keyRefused();
        const saved = await savedValue<FormField[]>(`fields:${task.taskID}`);
        if (saved) setFields((current) => ({ ...current, [task.taskID]: saved }));
      }
    }
  };

  const load = async () => {
    try {
      const [me, list] = await Promise.all([fetchProfile(deviceKey), fetchTasks(deviceKey)]);
      setProfile(me);
      setTasks(list);
      setStale(false);
      await saveValue('profile', me);
      await saveValue('tasks', list);
      void loadFields(list);
    } catch (error) {
      if (error instanceof KeyRefused) return keyRefused();
      // Offline: what the phone kept from the last time.
      const [me, list] = await Promise.all([savedValue<Profile>('profile'), savedValue<Task[]>('tasks')]);
      if (me) setProfile(me);
      setTasks(list ?? []);
      setStale(true);
      if (list) void loadFields(list);
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
        {screen.name === 'help' && <TraccarHelp deviceKey={deviceKey} serverUrl={profile ? osmandAddress(profile) : null} onBack={back} />}
        {screen.name === 'task' && current && (
          <TaskPage
            task={current}
            fields={fields[current.taskID] ?? null}
            onBack={back}
            onStatus={(status, comment) => queue({ kind: 'status', taskID: current.taskID, status, comment, idempotencyKey: newIdempotencyKey(), actedAt: new Date().toISOString() })}
            onForm={(form: FilledForm) =>
              queue({
                kind: 'form',
                taskID: current.taskID,
                // A form is saved with the status the task has on the phone, which it leaves as it is.
                status: current.status,
                values: form.values,
                files: form.files.map((file) => ({ ...file, idempotencyKey: newIdempotencyKey() })),
                idempotencyKey: newIdempotencyKey(),
                actedAt: new Date().toISOString(),
              })
            }
          />
        )}
        {(screen.name === 'list' || (screen.name === 'task' && !current)) && (
          <TaskList tasks={shown} map={profile?.map ?? null} onOpen={(taskID) => go({ name: 'task', taskID })} onHelp={() => go({ name: 'help' })} />
        )}
      </main>
    </div>
  );
}

/** The address Traccar Client sends to: the OsmAnd port of this server, when the server names it. */
function osmandAddress(profile: Profile): string | null {
  return (profile as Profile & { osmandUrl?: string | null }).osmandUrl ?? null;
}

/** Forgets the key and everything the phone kept for it. */
export async function forgetDevice(): Promise<void> {
  await clearPhone();
}
