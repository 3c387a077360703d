import L from 'leaflet';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/i18n';
import type { AppSettings, AppTask as Task } from './device-api';

const NO_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * A small map of the tasks, numbered in the order of the list; a tap on a marker opens its task.
 * Without tiles (none configured, or offline) the markers still show on a plain background.
 */
export function TaskMap({ tasks, map: settings, onOpen }: { tasks: readonly Task[]; map: AppSettings['map'] | null; onOpen: (taskID: number) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const map = L.map(element, { center: [55.75, 37.62], zoom: 10, maxZoom: 19, zoomControl: false, attributionControl: Boolean(settings?.tileUrl) });
    map.attributionControl?.setPrefix(false);
    if (settings?.tileUrl) L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: 19, errorTileUrl: NO_TILE }).addTo(map);
    mapRef.current = map;
    layer.current = L.layerGroup().addTo(map);
    return () => {
      (map as unknown as { _animatingZoom: boolean })._animatingZoom = false;
      map.remove();
    };
  }, [settings?.tileUrl]);

  useEffect(() => {
    const map = mapRef.current;
    const group = layer.current;
    if (!map || !group) return;
    group.clearLayers();
    const points: L.LatLngTuple[] = [];
    tasks.forEach((task, index) => {
      if (task.latitude === null || task.longitude === null) return;
      const point: L.LatLngTuple = [task.latitude, task.longitude];
      points.push(point);
      const closed = task.status === 2 || task.status === 3;
      const icon = L.divIcon({ className: `m-marker${closed ? ' m-marker-closed' : ''}`, html: String(index + 1), iconSize: [28, 28] });
      L.marker(point, { icon, title: task.title, keyboard: false }).on('click', () => onOpen(task.taskID)).addTo(group);
    });
    if (points.length === 1) map.setView(points[0]!, 15);
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 16 });
  }, [tasks, settings?.tileUrl]);

  return <div ref={container} class="m-map" role="region" aria-label={t('mobile.map')} />;
}
