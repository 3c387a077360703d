import type { ComponentChildren } from 'preact';
import { eventName, eventValue, type Day } from './day-data';
import { isSelected, type Selection } from './selection';
import { clockTime } from './zoned-time';
import { formatDistance, formatDuration, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';

interface Props {
  day: Day;
  timeZone: string;
  selection: Selection | null;
  onSelect: (selection: Selection) => void;
}

const km = (metres: number) => formatNumber(metres / 1000, 1, 1);
const position = (latitude: number, longitude: number) => `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;

/** The day's tracks, stops and events as tables; each row's button shows it on the map. */
export function DayTables({ day, timeZone, selection, onSelect }: Props) {
  const time = (ms: number) => clockTime(ms, timeZone, day.day);
  const show = (kind: Selection['kind'], index: number, name: string) => (
    <ShowButton pressed={isSelected(selection, kind, index)} label={t('tracks.showOnMap', { what: name })} onClick={() => onSelect({ kind, index })} />
  );
  const totalKm = formatDistance(day.tracks.reduce((sum, track) => sum + track.distance, 0));

  return (
    <div class="day-tables">
      <DayTable
        id="tracks-table"
        title={t('tracks.tracks')}
        summary={day.tracks.length > 0 ? t('tracks.summary', { count: day.tracks.length, distance: totalKm }) : undefined}
        empty={t('tracks.noTracks')}
        head={['', t('tracks.start'), t('tracks.finish'), t('tracks.from'), t('tracks.to'), t('tracks.distance'), t('tracks.duration')]}
        rows={day.tracks.map((track, i) => ({
          selected: isSelected(selection, 'track', i),
          cells: [
            show('track', i, t('tracks.trackN', { n: i + 1 })),
            time(track.startMs),
            time(track.finishMs),
            track.startAddress,
            track.finishAddress,
            <span class="number">{km(track.distance)}</span>,
            <span class="number">{formatDuration(track.duration)}</span>,
          ],
        }))}
      />
      <DayTable
        id="stops-table"
        title={t('tracks.stops')}
        empty={t('tracks.noStops')}
        head={['', t('tracks.stopFrom'), t('tracks.until'), t('tracks.duration'), t('tracks.place')]}
        rows={day.stops.map((s, i) => ({
          selected: isSelected(selection, 'stop', i),
          cells: [
            show('stop', i, t('tracks.stopN', { n: i + 1 })),
            time(s.fromMs),
            time(s.toMs),
            <span class="number">{formatDuration((s.toMs - s.fromMs) / 1000)}</span>,
            s.address,
          ],
        }))}
      />
      <DayTable
        id="events-table"
        title={t('tracks.events')}
        empty={t('tracks.noEvents')}
        head={['', t('tracks.time'), t('tracks.event'), t('tracks.value'), t('tracks.position')]}
        rows={day.events.map((e, i) => ({
          selected: isSelected(selection, 'event', i),
          cells: [
            show('event', i, t('tracks.eventNLower', { n: i + 1 })),
            time(e.timeMs),
            eventName(e.type),
            <span class="number">{eventValue(e.type, e.value)}</span>,
            position(e.latitude, e.longitude),
          ],
        }))}
      />
    </div>
  );
}

function ShowButton({ pressed, label, onClick }: { pressed: boolean; label: string; onClick: () => void }) {
  return (
    <button type="button" class="secondary show-on-map" aria-pressed={pressed} aria-label={label} onClick={onClick}>
      {t('tracks.show')}
    </button>
  );
}

function DayTable(props: {
  id: string;
  title: string;
  summary?: string | undefined;
  empty: string;
  head: string[];
  rows: { selected: boolean; cells: ComponentChildren[] }[];
}) {
  const headingId = `${props.id}-title`;
  return (
    <div class="day-table">
      <h2 id={headingId}>
        {props.title}
        {props.summary && <span class="muted"> · {props.summary}</span>}
      </h2>
      {props.rows.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        // Focusable, so a table wider than a phone can be scrolled by keyboard.
        <div class="table-scroll" tabIndex={0} role="region" aria-labelledby={headingId}>
          <table aria-labelledby={headingId}>
            <thead>
              <tr>
                {props.head.map((h, i) => (
                  <th key={i} scope="col">
                    {h || <span class="visually-hidden">{t('tracks.mapColumn')}</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row, i) => (
                <tr key={i} class={row.selected ? 'selected' : undefined}>
                  {row.cells.map((cell, j) => (
                    <td key={j}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
