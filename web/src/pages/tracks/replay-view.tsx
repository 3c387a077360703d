import { useEffect, useMemo, useState } from 'preact/hooks';
import { describe, query } from '../../api';
import { formatDateTime } from '../../i18n/format';
import { t, untranslated } from '../../i18n/i18n';
import { navigate } from '../../router';
import type { Employee } from '../../types';
import { ErrorAlert, LoadFailure } from '../../ui/messages';
import { loadReplay, type Replay } from './replay-data';
import { ReplayChart } from './replay-chart';
import { ReplayControls } from './replay-controls';
import { ReplayMap } from './replay-map';
import { isLocalDateTime, localDateTime, zonedMs } from './zoned-time';

type Loaded = { status: 'idle' } | { status: 'loading' } | { status: 'failed'; error: string } | { status: 'loaded'; replay: Replay };

/** The longest period replayed at once (and the longest the server writes as a file). */
const MAX_DAYS = 31;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The link that opens a replay (`#/tracks/replay/<ids>/<from>/<to>[/play]`), the times local to the account's zone. */
export function replayLink(subscriberIDs: number[], from: string, to: string, play = false): string {
  return `#/tracks/replay/${subscriberIDs.join(',')}/${from}/${to}${play ? '/play' : ''}`;
}

/** The last hour up to the current minute's end, as a replay link that starts playing. */
export function lastHourLink(subscriberID: number, timeZone: string, nowMs: number): string {
  const to = Math.ceil(nowMs / MINUTE_MS) * MINUTE_MS;
  return replayLink([subscriberID], localDateTime(to - 60 * MINUTE_MS, timeZone), localDateTime(to, timeZone), true);
}

/** Where the server writes the shown tracks as a file. */
function fileLink(ids: number[], from: string, to: string, format: 'gpx' | 'kml'): string {
  return `/v6/api/globalPositioningManagement/trackFile${query({ subscriberIDs: ids.join(','), dateFrom: `${from}:00`, dateTo: `${to}:00`, format })}`;
}

/**
 * Replay of some employees over a period: their lines, stops and events on the map, markers
 * moving with the replay's time, the speed chart below with its cursor at that time.
 */
export function ReplayView({ route, timeZone, employees }: { route: string[]; timeZone: string; employees: Employee[] | null }) {
  const nowMs = Date.now();
  const routeIds = (route[2] ?? '').split(',').filter((id) => /^\d+$/.test(id)).map(Number);
  const routeFrom = isLocalDateTime(route[3]) ? route[3] : null;
  const routeTo = isLocalDateTime(route[4]) ? route[4] : null;
  const autoplay = route[5] === 'play';

  const [chosen, setChosen] = useState<number[]>(routeIds);
  const [from, setFrom] = useState(routeFrom ?? `${localDateTime(nowMs, timeZone).slice(0, 10)}T00:00`);
  const [to, setTo] = useState(routeTo ?? localDateTime(Math.ceil(nowMs / MINUTE_MS) * MINUTE_MS, timeZone));
  const [formError, setFormError] = useState('');
  const routeKey = route.slice(2, 5).join('/');
  useEffect(() => {
    setChosen(routeIds);
    if (routeFrom) setFrom(routeFrom);
    if (routeTo) setTo(routeTo);
  }, [routeKey]);

  const [loaded, setLoaded] = useState<Loaded>({ status: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const [timeMs, setTimeMs] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(64);

  const known = useMemo(() => new Map((employees ?? []).map((e) => [e.subscriberID, e.name])), [employees]);
  const unknownIds = employees === null ? [] : routeIds.filter((id) => !known.has(id));
  const shownIds = routeIds.filter((id) => known.has(id));

  useEffect(() => {
    setPlaying(false);
    if (employees === null || shownIds.length === 0 || !routeFrom || !routeTo) {
      setLoaded({ status: 'idle' });
      return;
    }
    let current = true;
    setLoaded({ status: 'loading' });
    const fromMs = zonedMs(routeFrom, timeZone);
    const toMs = zonedMs(routeTo, timeZone);
    loadReplay(
      shownIds.map((id) => ({ subscriberID: id, name: known.get(id) ?? String(id) })),
      { from: `${routeFrom}:00`, to: `${routeTo}:00` },
      fromMs,
      toMs,
    )
      .then((replay) => {
        if (!current) return;
        setLoaded({ status: 'loaded', replay });
        setTimeMs(replay.startMs);
        if (autoplay) setPlaying(true);
      })
      .catch((error: unknown) => current && setLoaded({ status: 'failed', error: describe(error) }));
    return () => {
      current = false;
    };
  }, [routeKey, employees, timeZone, attempt]);

  const replay = loaded.status === 'loaded' ? loaded.replay : null;
  const hasData = replay !== null && replay.employees.some((e) => e.path.length > 0);

  // The clock of the replay: real time times the speed, from frame to frame, until the data ends.
  useEffect(() => {
    if (!playing || !replay) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const step = (now - last) * speed;
      last = now;
      setTimeMs((time) => Math.min(replay.endMs, time + step));
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, replay]);
  useEffect(() => {
    if (playing && replay && timeMs >= replay.endMs) setPlaying(false);
  }, [playing, replay, timeMs]);

  const show = (event: Event) => {
    event.preventDefault();
    if (chosen.length === 0) return setFormError(t('replay.chooseSomeone'));
    if (!isLocalDateTime(from) || !isLocalDateTime(to)) return setFormError(t('replay.badPeriod'));
    const span = zonedMs(to, timeZone) - zonedMs(from, timeZone);
    if (span <= 0) return setFormError(t('replay.fromAfterTo'));
    if (span > MAX_DAYS * DAY_MS) return setFormError(t('replay.tooLong', { days: MAX_DAYS }));
    setFormError('');
    navigate('tracks', 'replay', chosen.join(','), from, to);
  };

  return (
    <div class="replay">
      <form class="toolbar replay-form" onSubmit={show} noValidate>
        <label>
          <span id="replay-employees-label">{t('replay.employees')}</span>
          <select
            multiple
            size={Math.min(5, Math.max(2, employees?.length ?? 2))}
            aria-labelledby="replay-employees-label"
            disabled={employees === null}
            onChange={(e) => setChosen([...e.currentTarget.selectedOptions].map((o) => Number(o.value)))}
          >
            {employees?.map((e) => (
              <option key={e.subscriberID} value={String(e.subscriberID)} selected={chosen.includes(e.subscriberID)} {...untranslated}>
                {e.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span id="replay-from-label">{t('replay.from')}</span>
          <input type="datetime-local" aria-labelledby="replay-from-label" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </label>
        <label>
          <span id="replay-to-label">{t('replay.to')}</span>
          <input type="datetime-local" aria-labelledby="replay-to-label" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('replay.show')}</button>
      </form>
      <ErrorAlert message={formError} />
      {unknownIds.length > 0 && <ErrorAlert message={t('tracks.noEmployee', { id: unknownIds.join(', ') })} />}

      <div role="status" class="tracks-status">
        {loaded.status === 'idle' && <p class="muted">{t('replay.idle')}</p>}
        {loaded.status === 'loading' && <p class="muted">{t('replay.loading')}</p>}
        {replay && !hasData && <p class="empty-day">{t('replay.noFixes')}</p>}
      </div>
      {loaded.status === 'failed' && <LoadFailure message={t('replay.failed', { reason: loaded.error })} onRetry={() => setAttempt((n) => n + 1)} />}

      {replay && hasData && routeFrom && routeTo && (
        <div class="replay-view">
          <h2 class="visually-hidden">
            {t('replay.heading', { names: replay.employees.map((e) => e.name).join(', '), from: formatDateTime(zonedMs(routeFrom, timeZone), timeZone), to: formatDateTime(zonedMs(routeTo, timeZone), timeZone) })}
          </h2>
          <ReplayMap replay={replay} timeMs={timeMs} timeZone={timeZone} />
          <ReplayControls
            replay={replay}
            timeZone={timeZone}
            timeMs={timeMs}
            playing={playing}
            speed={speed}
            onPlay={() => {
              if (timeMs >= replay.endMs) setTimeMs(replay.startMs);
              setPlaying(true);
            }}
            onPause={() => setPlaying(false)}
            onSpeed={setSpeed}
            onTime={setTimeMs}
          />
          <ReplayChart replay={replay} timeZone={timeZone} timeMs={timeMs} followPointer={!playing} onTime={setTimeMs} />
          <p class="replay-files">
            <span>{t('replay.download')}</span>{' '}
            <a class="button secondary" href={fileLink(shownIds, routeFrom, routeTo, 'gpx')} download>
              GPX
            </a>{' '}
            <a class="button secondary" href={fileLink(shownIds, routeFrom, routeTo, 'kml')} download>
              KML
            </a>
          </p>
        </div>
      )}
    </div>
  );
}
