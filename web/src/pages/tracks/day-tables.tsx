import type { ComponentChildren } from 'preact';
import { EVENT_TYPES, eventName, type Day } from './day-data';
import { isSelected, type Selection } from './selection';
import { clockTime, durationText } from './zoned-time';

interface Props {
  day: Day;
  timeZone: string;
  selection: Selection | null;
  onSelect: (selection: Selection) => void;
}

const km = (metres: number) => (metres / 1000).toFixed(2);
const position = (latitude: number, longitude: number) => `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;

/** The day's tracks, stops and events as tables; each row's button shows it on the map. */
export function DayTables({ day, timeZone, selection, onSelect }: Props) {
  const time = (ms: number) => clockTime(ms, timeZone, day.day);
  const show = (kind: Selection['kind'], index: number, name: string) => (
    <ShowButton pressed={isSelected(selection, kind, index)} label={`Show ${name} on the map`} onClick={() => onSelect({ kind, index })} />
  );
  const totalKm = km(day.tracks.reduce((sum, t) => sum + t.distance, 0));

  return (
    <div class="day-tables">
      <DayTable
        id="tracks-table"
        title="Tracks"
        summary={day.tracks.length > 0 ? `${day.tracks.length} tracks, ${totalKm} km` : undefined}
        empty="No tracks on this day."
        head={['', 'Start', 'Finish', 'From', 'To', 'Distance, km', 'Duration']}
        rows={day.tracks.map((t, i) => ({
          selected: isSelected(selection, 'track', i),
          cells: [
            show('track', i, `track ${i + 1}`),
            time(t.startMs),
            time(t.finishMs),
            t.startAddress,
            t.finishAddress,
            <span class="number">{km(t.distance)}</span>,
            <span class="number">{durationText(t.duration)}</span>,
          ],
        }))}
      />
      <DayTable
        id="stops-table"
        title="Stops"
        empty="No stops on this day."
        head={['', 'From', 'Until', 'Duration', 'Place']}
        rows={day.stops.map((s, i) => ({
          selected: isSelected(selection, 'stop', i),
          cells: [
            show('stop', i, `stop ${i + 1}`),
            time(s.fromMs),
            time(s.toMs),
            <span class="number">{durationText((s.toMs - s.fromMs) / 1000)}</span>,
            s.address,
          ],
        }))}
      />
      <DayTable
        id="events-table"
        title="Events"
        empty="No vehicle events on this day."
        head={['', 'Time', 'Event', 'Value', 'Position']}
        rows={day.events.map((e, i) => ({
          selected: isSelected(selection, 'event', i),
          cells: [
            show('event', i, `event ${i + 1}`),
            time(e.timeMs),
            eventName(e.type),
            <span class="number">{`${e.value}${EVENT_TYPES[e.type]?.unit ? ` ${EVENT_TYPES[e.type]!.unit}` : ''}`}</span>,
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
      Show
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
                    {h || <span class="visually-hidden">Map</span>}
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
