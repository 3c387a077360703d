import L from 'leaflet';
import { useEffect, useRef, useState } from 'preact/hooks';
import { fitTo, MapView, whenStill } from '../../map/base-map';
import type { Day } from './day-data';
import { eventName } from './day-data';
import type { Selection } from './selection';
import { clockTime } from './zoned-time';
import { formatDistance, formatDuration } from '../../i18n/format';
import { t } from '../../i18n/i18n';

const TRACK_COLOURS = ['#1f5fbf', '#7b3fb5', '#0f7a6c', '#b5531f', '#3f6b1f'];
const EVENT_COLOURS: Record<number, string> = { 1: '#1e7b34', 2: '#b3261e', 3: '#8a5a00', 4: '#d0480f', 5: '#9b1c5a' };
const SELECTED = '#f0a500';

interface Layers {
  tracks: L.Polyline[];
  stops: L.Marker[];
  events: L.CircleMarker[];
}

/**
 * The day on a map: each track a polyline, stops as numbered markers (divIcons, reachable by
 * keyboard), vehicle events as coloured circles. Clicking one selects it, as its table row does.
 */
export function DayMap({ day, timeZone, selection, onSelect }: { day: Day; timeZone: string; selection: Selection | null; onSelect: (s: Selection) => void }) {
  const [map, setMap] = useState<L.Map | null>(null);
  const layers = useRef<Layers | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    if (!map) return;
    const group = L.layerGroup().addTo(map);
    const time = (ms: number) => clockTime(ms, timeZone, day.day);
    const tracks = day.tracks.map((track, i) => {
      const line = L.polyline(track.points.length > 1 ? track.points : [[track.startLat, track.startLon], [track.finishLat, track.finishLon]], {
        color: TRACK_COLOURS[i % TRACK_COLOURS.length],
        weight: 4,
        opacity: 0.85,
        className: 'track-line',
      });
      line.bindTooltip(t('tracks.trackTooltip', { n: i + 1, from: time(track.startMs), to: time(track.finishMs), distance: formatDistance(track.distance) }), { sticky: true });
      line.on('click', () => select.current({ kind: 'track', index: i }));
      return line.addTo(group);
    });
    const stops = day.stops.map((stop, i) => {
      const label = t('tracks.stopLabel', { n: i + 1, from: time(stop.fromMs), to: time(stop.toMs), duration: formatDuration((stop.toMs - stop.fromMs) / 1000) });
      const marker = L.marker([stop.latitude, stop.longitude], {
        icon: L.divIcon({ className: 'stop-marker', html: `<span>${i + 1}</span>`, iconSize: [24, 24], iconAnchor: [12, 12] }),
        title: label,
        keyboard: true,
        zIndexOffset: 500,
      });
      marker.on('click', () => select.current({ kind: 'stop', index: i }));
      // Leaflet turns Enter on a focused marker into keypress, not click.
      marker.on('keypress', (e) => {
        if ((e as L.LeafletKeyboardEvent).originalEvent.key === 'Enter') select.current({ kind: 'stop', index: i });
      });
      marker.addTo(group);
      // Leaflet makes a keyboard marker a button; its name is the stop, not the number drawn in it.
      marker.getElement()?.setAttribute('aria-label', label);
      return marker;
    });
    const events = day.events.map((event, i) => {
      const marker = L.circleMarker([event.latitude, event.longitude], {
        radius: 7,
        color: '#fff',
        weight: 2,
        fillColor: EVENT_COLOURS[event.type] ?? '#444',
        fillOpacity: 1,
        className: `event-marker event-type-${event.type}`,
      });
      marker.bindTooltip(t('tracks.eventAt', { event: eventName(event.type), time: time(event.timeMs) }));
      marker.on('click', () => select.current({ kind: 'event', index: i }));
      return marker.addTo(group);
    });
    layers.current = { tracks, stops, events };

    const bounds = L.latLngBounds([]);
    tracks.forEach((t) => bounds.extend(t.getBounds()));
    stops.forEach((s) => bounds.extend(s.getLatLng()));
    events.forEach((e) => bounds.extend(e.getLatLng()));
    fitTo(map, bounds);
    return () => {
      layers.current = null;
      group.remove();
    };
  }, [map, day]);

  useEffect(() => {
    const drawn = layers.current;
    if (!map || !drawn) return;
    drawn.tracks.forEach((line, i) => {
      const chosen = selection?.kind === 'track' && selection.index === i;
      line.setStyle(chosen ? { color: SELECTED, weight: 7, opacity: 1 } : { color: TRACK_COLOURS[i % TRACK_COLOURS.length], weight: 4, opacity: selection?.kind === 'track' ? 0.45 : 0.85 });
      line.getElement()?.classList.toggle('selected', chosen);
      if (chosen) {
        line.bringToFront();
        fitTo(map, line.getBounds());
      }
    });
    drawn.stops.forEach((marker, i) => {
      const chosen = selection?.kind === 'stop' && selection.index === i;
      marker.getElement()?.classList.toggle('selected', chosen);
      if (chosen) whenStill(map, () => map.setView(marker.getLatLng(), Math.max(map.getZoom(), 16)));
    });
    drawn.events.forEach((marker, i) => {
      const chosen = selection?.kind === 'event' && selection.index === i;
      marker.setRadius(chosen ? 11 : 7);
      marker.setStyle({ color: chosen ? SELECTED : '#fff', weight: chosen ? 4 : 2 });
      marker.getElement()?.classList.toggle('selected', chosen);
      if (chosen) {
        marker.bringToFront();
        whenStill(map, () => map.setView(marker.getLatLng(), Math.max(map.getZoom(), 16)));
      }
    });
  }, [map, day, selection]);

  return (
    <MapView
      label={t('tracks.mapLabel', { tracks: day.tracks.length, stops: day.stops.length, events: day.events.length })}
      onReady={(created) => {
        setMap(created);
        return () => setMap(null);
      }}
    />
  );
}
