import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, describe } from '../api';
import { navigate, useRoute } from '../router';
import { useSessionInfo } from '../session';
import type { Employee } from '../types';
import { ErrorAlert, LoadFailure } from '../ui/messages';
import { loadDay, type Day } from './tracks/day-data';
import { DayChart } from './tracks/day-chart';
import { DayMap } from './tracks/day-map';
import { DayTables } from './tracks/day-tables';
import type { Selection } from './tracks/selection';
import { ReplayView, replayLink } from './tracks/replay-view';
import { dayIn, isDay, shiftDay } from './tracks/zoned-time';
import './tracks.css';
import { formatDay } from '../i18n/format';
import { t } from '../i18n/i18n';

type Loaded = { status: 'idle' } | { status: 'loading' } | { status: 'failed'; error: string } | { status: 'loaded'; day: Day };

/**
 * One employee's local day (`#/tracks/<subscriberID>/<YYYY-MM-DD>`): tracks, stops and vehicle
 * events on a map and in tables, and speed and fuel over the day in a chart. Or a replay of some
 * employees over a period (`#/tracks/replay/…`).
 */
export function TracksPage() {
  const { account } = useSessionInfo();
  const timeZone = account.timeZone;
  const route = useRoute();
  const today = dayIn(timeZone, Date.now());
  const [unlinkedDay, setUnlinkedDay] = useState(today);
  const replayMode = route[1] === 'replay';
  const subscriberID = /^\d+$/.test(route[1] ?? '') ? Number(route[1]) : null;
  const day = isDay(route[2]) ? route[2] : subscriberID === null ? unlinkedDay : today;

  const [employees, setEmployees] = useState<Employee[] | null>(null);
  const [employeesError, setEmployeesError] = useState('');
  const [loaded, setLoaded] = useState<Loaded>({ status: 'idle' });
  const [selection, setSelection] = useState<Selection | null>(null);

  const [attempt, setAttempt] = useState(0);
  const loadEmployees = () => {
    setEmployeesError('');
    api
      .get<Employee[]>('/v6/api/subscriberManagement/subscribers')
      .then((list) => setEmployees([...list].sort((a, b) => a.name.localeCompare(b.name))))
      .catch((error: unknown) => setEmployeesError(t('tracks.employeesFailed', { reason: describe(error) })));
  };
  useEffect(loadEmployees, []);

  useEffect(() => {
    setSelection(null);
    if (subscriberID === null) {
      setLoaded({ status: 'idle' });
      return;
    }
    let current = true;
    setLoaded({ status: 'loading' });
    loadDay(subscriberID, day, timeZone)
      .then((result) => current && setLoaded({ status: 'loaded', day: result }))
      .catch((error: unknown) => current && setLoaded({ status: 'failed', error: describe(error) }));
    return () => {
      current = false;
    };
  }, [subscriberID, day, timeZone, attempt]);

  const choose = (id: number | null, nextDay: string) => {
    if (id === null) {
      setUnlinkedDay(nextDay);
      navigate('tracks');
    } else navigate('tracks', id, nextDay);
  };

  const employeeName = useMemo(() => employees?.find((e) => e.subscriberID === subscriberID)?.name, [employees, subscriberID]);
  // A link to an employee of another account (or a deleted one) reads as empty days; say what it is.
  const unknownEmployee = subscriberID !== null && employees !== null && employeeName === undefined;

  // From a replay, the day view opens on its first employee and the day it starts.
  const replayFirst = /^\d+/.exec(route[2] ?? '')?.[0];
  const dayTarget = replayMode ? (replayFirst ? Number(replayFirst) : null) : subscriberID;
  const dayOfReplay = replayMode && isDay(route[3]?.slice(0, 10)) ? route[3]!.slice(0, 10) : day;
  const modes = (
    <nav class="tracks-modes" aria-label={t('replay.modes')}>
      <a href={dayTarget === null ? '#/tracks' : `#/tracks/${dayTarget}/${dayOfReplay}`} aria-current={replayMode ? undefined : 'page'}>
        {t('replay.dayMode')}
      </a>
      <a
        href={subscriberID === null ? '#/tracks/replay' : replayLink([subscriberID], `${day}T00:00`, `${shiftDay(day, 1)}T00:00`)}
        aria-current={replayMode ? 'page' : undefined}
      >
        {t('replay.replayMode')}
      </a>
    </nav>
  );

  if (replayMode) {
    return (
      <section class="tracks-page" aria-labelledby="tracks-title">
        <h1 id="tracks-title">{t('tracks.title')}</h1>
        {modes}
        <LoadFailure message={employeesError} onRetry={loadEmployees} />
        <ReplayView route={route} timeZone={timeZone} employees={employees} />
      </section>
    );
  }

  return (
    <section class="tracks-page" aria-labelledby="tracks-title">
      <h1 id="tracks-title">{t('tracks.title')}</h1>
      {modes}
      <div class="toolbar">
        {/* Named by the span alone: a wrapping label would add the chosen option to the name. */}
        <label>
          <span id="tracks-employee-label">{t('tracks.employee')}</span>
          <select
            aria-labelledby="tracks-employee-label"
            value={subscriberID === null ? '' : String(subscriberID)}
            onChange={(e) => choose(e.currentTarget.value ? Number(e.currentTarget.value) : null, day)}
            disabled={employees === null}
          >
            <option value="">{employees === null ? t('app.loading') : t('tracks.choose')}</option>
            {unknownEmployee && <option value={String(subscriberID)}>{t('tracks.unknown', { id: subscriberID ?? '' })}</option>}
            {employees?.map((e) => (
              <option key={e.subscriberID} value={String(e.subscriberID)}>
                {e.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span id="tracks-day-label">{t('tracks.day')}</span>
          <input type="date" aria-labelledby="tracks-day-label" value={day} max={today} required onChange={(e) => isDay(e.currentTarget.value) && choose(subscriberID, e.currentTarget.value)} />
        </label>
        <div class="day-steps">
          <button type="button" class="secondary" onClick={() => choose(subscriberID, shiftDay(day, -1))}>
            {t('tracks.previous')}
          </button>
          <button type="button" class="secondary" onClick={() => choose(subscriberID, shiftDay(day, 1))} disabled={day >= today}>
            {t('tracks.next')}
          </button>
        </div>
      </div>
      <LoadFailure message={employeesError} onRetry={loadEmployees} />

      <div role="status" class="tracks-status">
        {loaded.status === 'idle' && <p class="muted">{t('tracks.idle')}</p>}
        {loaded.status === 'loading' && <p class="muted">{t('tracks.loading')}</p>}
        {loaded.status === 'loaded' && loaded.day.fixCount === 0 && !unknownEmployee && <p class="empty-day">{t('tracks.noFixes')}</p>}
      </div>
      {unknownEmployee && <ErrorAlert message={t('tracks.noEmployee', { id: subscriberID ?? '' })} />}
      {loaded.status === 'failed' && <LoadFailure message={t('tracks.dayFailed', { reason: loaded.error })} onRetry={() => setAttempt((n) => n + 1)} />}

      {loaded.status === 'loaded' && loaded.day.fixCount > 0 && !unknownEmployee && (
        <div class="day-view">
          <h2 class="visually-hidden">
            {t('tracks.whoOn', { name: employeeName ?? t('tracks.employeeN', { id: subscriberID ?? '' }), day: formatDay(day) })}
          </h2>
          <div class="day-overview">
            <DayMap day={loaded.day} timeZone={timeZone} selection={selection} onSelect={setSelection} />
            <DayChart day={loaded.day} timeZone={timeZone} />
          </div>
          <DayTables
            day={loaded.day}
            timeZone={timeZone}
            selection={selection}
            onSelect={(chosen) => {
              setSelection(chosen);
              // On a phone the map is above the tables: bring it into view.
              document.querySelector('.tracks-page .map')?.scrollIntoView({ block: 'nearest' });
            }}
          />
        </div>
      )}
    </section>
  );
}
