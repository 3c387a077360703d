import type { ComponentChildren } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect, useErrorBoundary, useState } from 'preact/hooks';
import { api, ApiFailure, describe, setSession, type SessionInfo } from './api';
import { DeliveriesPage } from './pages/deliveries';
import { EventsPage } from './pages/events';
import { MapPage } from './pages/map';
import { PasswordForm } from './pages/password';
import { SettingsPage } from './pages/settings';
import { TwoFactorSetup } from './pages/two-factor';
import { SignIn } from './pages/sign-in';
import { useRoute } from './router';
import { LANGUAGES, language, setLanguage, t, untranslated, type Language } from './i18n/i18n';
import { zoneName, zoneOffset } from './i18n/format';
import { AccountSetup } from './pages/account-setup';
import { ACCOUNT, AccountChangedContext, SessionContext, type AccountSettings } from './session';
import { ErrorAlert, LoadFailure } from './ui/messages';
import { AlertsBell } from './pages/alerts/alerts-bell';
import { AlertsContext, useAlerts } from './pages/alerts/use-alerts';

// The zone editor (Leaflet-Geoman) and the track view (uPlot) are loaded when first opened, as
// are the pages of the fleet's day (employees with their QR codes, tasks, map objects).
const ZonesPage = lazy(() => import('./pages/zones').then((m) => m.ZonesPage));
const TracksPage = lazy(() => import('./pages/tracks').then((m) => m.TracksPage));
const EmployeesPage = lazy(() => import('./pages/employees').then((m) => m.EmployeesPage));
const TasksPage = lazy(() => import('./pages/tasks').then((m) => m.TasksPage));
const MapObjectsPage = lazy(() => import('./pages/map-objects').then((m) => m.MapObjectsPage));
const ReportsPage = lazy(() => import('./pages/reports').then((m) => m.ReportsPage));
const AlertsPage = lazy(() => import('./pages/alerts/alerts-page').then((m) => m.AlertsPage));
const AuditLogPage = lazy(() => import('./pages/audit-log').then((m) => m.AuditLogPage));

const tabs = [
  { path: 'map', label: 'tab.map' },
  { path: 'employees', label: 'tab.employees' },
  { path: 'tasks', label: 'tab.tasks' },
  { path: 'objects', label: 'tab.objects' },
  { path: 'events', label: 'tab.events' },
  { path: 'zones', label: 'tab.zones' },
  { path: 'tracks', label: 'tab.tracks' },
  { path: 'reports', label: 'tab.reports' },
  { path: 'alerts', label: 'tab.alerts' },
  { path: 'deliveries', label: 'tab.deliveries' },
  { path: 'settings', label: 'tab.settings' },
] as const;

type Tab = (typeof tabs)[number]['path'];

/**
 * A page whose code failed to load (the server down while its chunk was fetched, after the one
 * reload for a new release) or that failed while drawing: the failure and a Retry, which loads the
 * workspace anew, instead of a blank page.
 */
function PageBoundary({ children }: { children: ComponentChildren }) {
  const [error] = useErrorBoundary();
  if (error) return <LoadFailure message={t('app.pageFailed')} onRetry={() => location.reload()} />;
  return <>{children}</>;
}

/** The skip link moves focus past the tabs; a plain `#main` link would change the hash route. */
function skipToContent(event: Event): void {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/** The workspace in the language chosen in this browser; a switch renders it anew in the other. */
export function App() {
  const [current, setCurrent] = useState<Language>(language());
  const choose = (next: Language) => {
    setLanguage(next);
    setCurrent(next);
  };
  return <Workspace key={current} onLanguage={choose} />;
}

function LanguageSwitch({ onLanguage }: { onLanguage: (language: Language) => void }) {
  return (
    <select class="language" aria-label={t('app.language')} value={language()} onChange={(e) => onLanguage(e.currentTarget.value as Language)}>
      {LANGUAGES.map((code) => (
        <option key={code} value={code} lang={code}>
          {t(code === 'ru' ? 'language.ru' : 'language.en')}
        </option>
      ))}
    </select>
  );
}

function Workspace({ onLanguage }: { onLanguage: (language: Language) => void }) {
  const [session, setSessionState] = useState<SessionInfo | null | undefined>(undefined);
  /** Why the first question to the server (who is signed in) failed, other than a 401. */
  const [loadFailure, setLoadFailure] = useState('');
  const [signOutFailure, setSignOutFailure] = useState('');
  /** The account's settings while they are still the first start's: the question is shown. */
  const [setup, setSetup] = useState<AccountSettings | null>(null);
  const route = useRoute();

  const accountChanged = (account: AccountSettings) => {
    setSessionState((info) => (info ? { ...info, account: { ...info.account, name: account.name, timeZone: account.timeZone } } : info));
  };

  const signedIn = (info: SessionInfo | null) => {
    setSession(info, () => signedIn(null));
    setSessionState(info);
  };

  const load = () => {
    setLoadFailure('');
    api
      .get<SessionInfo>('/workspace/api/session')
      .then(signedIn)
      .catch((error: unknown) => {
        if (error instanceof ApiFailure && error.envelope.status === 401) signedIn(null);
        else setLoadFailure(t('app.unreachable', { reason: describe(error) }));
      });
  };
  useEffect(load, []);

  // Whether the account still has the first start's zone and language: then the workspace asks.
  const accountID = session?.account.accountID;
  useEffect(() => {
    if (accountID === undefined) return;
    api
      .get<AccountSettings>(ACCOUNT)
      .then((account) => setSetup(account.settingsConfirmed ? null : account))
      .catch(() => setSetup(null));
  }, [accountID]);
  const setupDone = (account: AccountSettings | null) => {
    if (account) accountChanged(account);
    setSetup(null);
  };

  if (session === undefined && loadFailure) {
    return (
      <main class="loading">
        <LoadFailure message={loadFailure} onRetry={load} />
      </main>
    );
  }
  if (session === undefined) return <p class="loading">{t('app.loading')}</p>;
  if (session === null) return <SignIn onSignedIn={signedIn} languageSwitch={<LanguageSwitch onLanguage={onLanguage} />} />;
  // A temporary password from an admin: nothing else until the user has chosen their own.
  if (session.mustChangePassword) {
    return (
      <main class="must-change" aria-labelledby="must-change-title">
        <h1 id="must-change-title">{t('people.mustChange')}</h1>
        <p>{t('people.mustChangeIntro')}</p>
        <PasswordForm onChanged={load} />
      </main>
    );
  }

  const tab: Tab = tabs.some((t) => t.path === route[0]) ? (route[0] as Tab) : 'map';
  const signOut = async () => {
    setSignOutFailure('');
    try {
      await api.delete('/workspace/api/session');
    } catch (error) {
      // Showing the sign-in page while the session still works would leave it open on a shared computer.
      if (!(error instanceof ApiFailure && error.envelope.status === 401)) {
        setSignOutFailure(t('app.notSignedOut', { reason: describe(error) }));
        return;
      }
    }
    signedIn(null);
  };

  // The account requires a second factor this user has not set up: that comes first, and alone.
  if (session.twoFactor.setupRequired) {
    return (
      <main class="sign-in two-factor-required">
        <div class="sign-in-language">
          <LanguageSwitch onLanguage={onLanguage} />
        </div>
        <h1>{t('twoFactor.setupTitle')}</h1>
        <p>{t('twoFactor.setupIntro')}</p>
        <TwoFactorSetup onDone={load} />
        <button type="button" class="link" onClick={signOut}>
          {t('app.signOut')}
        </button>
        <ErrorAlert message={signOutFailure} />
      </main>
    );
  }

  return <SignedIn session={session} tab={tab} route={route} onLanguage={onLanguage} signOut={signOut} signOutFailure={signOutFailure} setup={setup} setupDone={setupDone} accountChanged={accountChanged} />;
}

interface SignedInProps {
  session: SessionInfo;
  tab: Tab;
  route: string[];
  onLanguage: (language: Language) => void;
  signOut: () => Promise<void>;
  signOutFailure: string;
  setup: AccountSettings | null;
  setupDone: (account: AccountSettings | null) => void;
  accountChanged: (account: AccountSettings) => void;
}

/** The signed-in workspace: the header with the alerts bell, and the tab's page. */
function SignedIn({ session, tab, route, onLanguage, signOut, signOutFailure, setup, setupDone, accountChanged }: SignedInProps) {
  const { timeZone } = session.account;
  const alerts = useAlerts(session.userID);
  return (
    <SessionContext.Provider value={session}>
      <AlertsContext.Provider value={alerts}>
      <AccountChangedContext.Provider value={accountChanged}>
        <a class="skip" href="#main" onClick={skipToContent}>
          {t('app.skip')}
        </a>
        <header class="top">
          <span class="brand">Lokator</span>
          <nav aria-label={t('app.nav')}>
            <ul>
              {tabs.map((tabLink) => (
                <li key={tabLink.path}>
                  <a href={`#/${tabLink.path}`} aria-current={tab === tabLink.path ? 'page' : undefined}>
                    {t(tabLink.label)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <span class="who" {...untranslated}>
            {session.login} · {session.account.name}
          </span>
          <span class="zone" title={t('app.zoneTitle', { id: timeZone, offset: zoneOffset(timeZone) })}>
            {t('app.zone', { zone: zoneName(timeZone) })}
          </span>
          <AlertsBell />
          <LanguageSwitch onLanguage={onLanguage} />
          <button type="button" class="link" onClick={signOut}>
            {t('app.signOut')}
          </button>
        </header>
        <ErrorAlert message={signOutFailure} />
        {session.role === 'viewer' && <p class="read-only-note">{t('people.readOnly')}</p>}
        <main id="main" tabIndex={-1}>
          {setup && <AccountSetup account={setup} onDone={setupDone} />}
          {tab === 'map' && <MapPage route={route.slice(1)} />}
          {tab === 'events' && <EventsPage route={route.slice(1)} />}
          <PageBoundary key={tab}>
            <Suspense fallback={<p class="loading">{t('app.loading')}</p>}>
              {tab === 'zones' && <ZonesPage />}
              {tab === 'tracks' && <TracksPage />}
              {tab === 'employees' && <EmployeesPage route={route.slice(1)} />}
              {tab === 'tasks' && <TasksPage route={route.slice(1)} />}
              {tab === 'objects' && <MapObjectsPage />}
              {tab === 'reports' && <ReportsPage />}
              {tab === 'alerts' && <AlertsPage />}
              {tab === 'settings' && route[1] === 'audit' && session.role === 'admin' && <AuditLogPage />}
            </Suspense>
          </PageBoundary>
          {tab === 'deliveries' && <DeliveriesPage />}
          {tab === 'settings' && (route[1] !== 'audit' || session.role !== 'admin') && <SettingsPage />}
        </main>
      </AccountChangedContext.Provider>
      </AlertsContext.Provider>
    </SessionContext.Provider>
  );
}
