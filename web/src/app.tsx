import { lazy, Suspense } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, describe, setSession, type SessionInfo } from './api';
import { DeliveriesPage } from './pages/deliveries';
import { EventsPage } from './pages/events';
import { MapPage } from './pages/map';
import { SettingsPage } from './pages/settings';
import { SignIn } from './pages/sign-in';
import { useRoute } from './router';
import { SessionContext } from './session';
import { ErrorAlert } from './ui/messages';

// The zone editor (Leaflet-Geoman) and the track view (uPlot) are loaded when first opened, as
// are the pages of the fleet's day (employees with their QR codes, tasks, map objects).
const ZonesPage = lazy(() => import('./pages/zones').then((m) => m.ZonesPage));
const TracksPage = lazy(() => import('./pages/tracks').then((m) => m.TracksPage));
const EmployeesPage = lazy(() => import('./pages/employees').then((m) => m.EmployeesPage));
const TasksPage = lazy(() => import('./pages/tasks').then((m) => m.TasksPage));
const MapObjectsPage = lazy(() => import('./pages/map-objects').then((m) => m.MapObjectsPage));
const ReportsPage = lazy(() => import('./pages/reports').then((m) => m.ReportsPage));

const tabs = [
  { path: 'map', label: 'Map' },
  { path: 'employees', label: 'Employees' },
  { path: 'tasks', label: 'Tasks' },
  { path: 'objects', label: 'Map objects' },
  { path: 'events', label: 'Events' },
  { path: 'zones', label: 'Zones' },
  { path: 'tracks', label: 'Tracks' },
  { path: 'reports', label: 'Reports' },
  { path: 'deliveries', label: 'Deliveries' },
  { path: 'settings', label: 'Settings' },
] as const;

type Tab = (typeof tabs)[number]['path'];

/** The skip link moves focus past the tabs; a plain `#main` link would change the hash route. */
function skipToContent(event: Event): void {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

export function App() {
  const [session, setSessionState] = useState<SessionInfo | null | undefined>(undefined);
  /** Why the first question to the server (who is signed in) failed, other than a 401. */
  const [loadFailure, setLoadFailure] = useState('');
  const [signOutFailure, setSignOutFailure] = useState('');
  const route = useRoute();

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
        else setLoadFailure(`The server could not be reached: ${describe(error)}`);
      });
  };
  useEffect(load, []);

  if (session === undefined && loadFailure) {
    return (
      <main class="loading">
        <ErrorAlert message={loadFailure} />
        <button type="button" onClick={load}>
          Try again
        </button>
      </main>
    );
  }
  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={signedIn} />;

  const tab: Tab = tabs.some((t) => t.path === route[0]) ? (route[0] as Tab) : 'map';
  const signOut = async () => {
    setSignOutFailure('');
    try {
      await api.delete('/workspace/api/session');
    } catch (error) {
      // Showing the sign-in page while the session still works would leave it open on a shared computer.
      if (!(error instanceof ApiFailure && error.envelope.status === 401)) {
        setSignOutFailure(`You are not signed out: ${describe(error)}`);
        return;
      }
    }
    signedIn(null);
  };

  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main" onClick={skipToContent}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Lokator</span>
        <nav aria-label="Workspace">
          <ul>
            {tabs.map((t) => (
              <li key={t.path}>
                <a href={`#/${t.path}`} aria-current={tab === t.path ? 'page' : undefined}>
                  {t.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.login} · {session.account.name}
        </span>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <ErrorAlert message={signOutFailure} />
      <main id="main" tabIndex={-1}>
        {tab === 'map' && <MapPage />}
        {tab === 'events' && <EventsPage route={route.slice(1)} />}
        <Suspense fallback={<p class="loading">Loading…</p>}>
          {tab === 'zones' && <ZonesPage />}
          {tab === 'tracks' && <TracksPage />}
          {tab === 'employees' && <EmployeesPage route={route.slice(1)} />}
          {tab === 'tasks' && <TasksPage />}
          {tab === 'objects' && <MapObjectsPage />}
          {tab === 'reports' && <ReportsPage />}
        </Suspense>
        {tab === 'deliveries' && <DeliveriesPage />}
        {tab === 'settings' && <SettingsPage />}
      </main>
    </SessionContext.Provider>
  );
}
