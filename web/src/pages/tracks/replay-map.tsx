import L from 'leaflet';
import { useEffect, useRef, useState } from 'preact/hooks';
import { fitTo, MapView } from '../../map/base-map';
import { formatDuration, formatSpeed } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import type { Replay } from './replay-data';
import { positionAt, travelled } from './replay-motion';
import { clockTime } from './zoned-time';

interface Drawn {
  markers: L.Marker[];
  trails: L.Polyline[];
}

/** A popup's content as DOM nodes: names and zone names are data, never markup. */
function popup(lines: string[]): HTMLElement {
  const box = document.createElement('div');
  box.className = 'replay-popup';
  lines.forEach((line, i) => {
    const row = document.createElement(i === 0 ? 'strong' : 'div');
    row.textContent = line;
    box.append(row);
  });
  return box;
}

/** A moving marker: a dot in the employee's colour with their name beside it. */
function markerIcon(name: string, colour: string): L.DivIcon {
  const html = document.createElement('div');
  const dot = document.createElement('span');
  dot.className = 'replay-dot';
  dot.style.background = colour;
  const label = document.createElement('span');
  label.className = 'replay-name';
  label.textContent = name;
  html.append(dot, label);
  return L.divIcon({ className: 'replay-marker', html, iconSize: [16, 16], iconAnchor: [8, 8] });
}

/**
 * The replay on a map: each employee's line (faint ahead, strong where they have been), a marker
 * that moves along it with the replay's time, stops as squares and events as circles, each with a
 * popup saying what and when.
 */
export function ReplayMap({ replay, timeMs, timeZone }: { replay: Replay; timeMs: number; timeZone: string }) {
  const [map, setMap] = useState<L.Map | null>(null);
  const drawn = useRef<Drawn | null>(null);

  useEffect(() => {
    if (!map) return;
    const group = L.layerGroup().addTo(map);
    const time = (ms: number) => clockTime(ms, timeZone);
    const bounds = L.latLngBounds([]);
    const markers: L.Marker[] = [];
    const trails: L.Polyline[] = [];
    for (const employee of replay.employees) {
      const points = employee.path.map((p): [number, number] => [p.latitude, p.longitude]);
      if (points.length > 1) {
        const line = L.polyline(points, { color: employee.colour, weight: 4, opacity: 0.35, className: 'replay-line' }).addTo(group);
        bounds.extend(line.getBounds());
      }
      trails.push(L.polyline([], { color: employee.colour, weight: 5, opacity: 0.9, className: 'replay-trail', interactive: false }).addTo(group));
      employee.stops.forEach((stop, i) => {
        const label = t('tracks.stopLabel', { n: i + 1, from: time(stop.fromMs), to: time(stop.toMs), duration: formatDuration((stop.toMs - stop.fromMs) / 1000) });
        L.marker([stop.latitude, stop.longitude], {
          icon: L.divIcon({ className: 'stop-marker replay-stop', html: `<span>${i + 1}</span>`, iconSize: [22, 22], iconAnchor: [11, 11] }),
          title: label,
          keyboard: true,
        })
          .bindPopup(popup([label, employee.name, stop.address]))
          .addTo(group)
          .getElement()
          ?.setAttribute('aria-label', label);
      });
      for (const event of employee.events) {
        L.circleMarker([event.latitude, event.longitude], {
          radius: 7,
          color: '#fff',
          weight: 2,
          fillColor: event.kind === 'zone' ? '#0f7a6c' : '#d0480f',
          fillOpacity: 1,
          className: `replay-event replay-event-${event.kind}`,
        })
          .bindPopup(popup([event.what, `${time(event.timeMs)} · ${employee.name}`, event.detail]))
          .addTo(group);
      }
      const start = employee.path[0];
      const marker = L.marker(start ? [start.latitude, start.longitude] : [0, 0], {
        icon: markerIcon(employee.name, employee.colour),
        zIndexOffset: 1000,
        keyboard: false,
        interactive: false,
      });
      if (start) marker.addTo(group);
      marker.getElement()?.setAttribute('data-subscriber-id', String(employee.subscriberID));
      markers.push(marker);
    }
    drawn.current = { markers, trails };
    fitTo(map, bounds);
    // Leaflet names a popup's close button in English, whatever the page's language.
    const nameClose = (event: L.PopupEvent) => event.popup.getElement()?.querySelector('.leaflet-popup-close-button')?.setAttribute('aria-label', t('common.close'));
    map.on('popupopen', nameClose);
    return () => {
      map.off('popupopen', nameClose);
      drawn.current = null;
      group.remove();
    };
  }, [map, replay, timeZone]);

  useEffect(() => {
    const layers = drawn.current;
    if (!layers) return;
    replay.employees.forEach((employee, i) => {
      const here = positionAt(employee.path, timeMs);
      const marker = layers.markers[i];
      if (!here || !marker) return;
      marker.setLatLng([here.latitude, here.longitude]);
      const element = marker.getElement();
      element?.classList.toggle('waiting', here.outside);
      element?.setAttribute('title', `${employee.name}: ${formatSpeed(here.speedKmh)}`);
      layers.trails[i]?.setLatLngs(travelled(employee.path, timeMs));
    });
  }, [map, replay, timeMs]);

  const events = replay.employees.reduce((n, e) => n + e.events.length, 0);
  const stops = replay.employees.reduce((n, e) => n + e.stops.length, 0);
  return (
    <MapView
      label={t('replay.mapLabel', { employees: replay.employees.length, stops, events })}
      onReady={(created) => {
        setMap(created);
        return () => setMap(null);
      }}
    />
  );
}
