import L from 'leaflet';
import { whenStill } from '../../map/base-map';
import { escapeHtml } from '../../map/zone-layers';
import type { Task } from '../../types';
import { clock, statusLabel, travelTime, type Arrival } from './task-model';
import { t } from '../../i18n/i18n';

const STATUS_CLASS: Record<number, string> = { 0: 'new', 1: 'accepted', 2: 'rejected', 3: 'done', 4: 'progress' };

/**
 * The Tasks tab's map: a pin per task with a point, coloured by status; keyboard markers named by
 * the task, so Enter selects one as a click does. The selected task's assignee is drawn where
 * their latest fix is, with a dashed line to the task and the estimated arrival.
 */
export class TaskMarkers {
  private readonly layer: L.LayerGroup;
  private readonly markers = new Map<number, L.Marker>();
  private readonly eta: L.LayerGroup;
  private selected: number | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly onSelect: (taskID: number) => void,
  ) {
    this.layer = L.layerGroup().addTo(map);
    this.eta = L.layerGroup().addTo(map);
  }

  show(tasks: Task[]): void {
    this.layer.clearLayers();
    this.markers.clear();
    for (const task of tasks) {
      if (task.latitude === null || task.longitude === null) continue;
      const badge = document.createElement('span');
      badge.setAttribute('aria-hidden', 'true');
      badge.textContent = clock(task.startDate);
      const marker = L.marker([task.latitude, task.longitude], {
        icon: L.divIcon({ className: `task-marker status-${STATUS_CLASS[task.status] ?? 'new'}`, html: badge, iconSize: [44, 22], iconAnchor: [22, 22] }),
        keyboard: true,
        riseOnHover: true,
      });
      marker.on('click', () => this.onSelect(task.taskID));
      marker.on('add', () => {
        const element = marker.getElement();
        element?.setAttribute('aria-label', t('tasks.marker', { title: task.title, status: statusLabel(task.status) }));
        element?.classList.toggle('is-selected', task.taskID === this.selected);
      });
      marker.bindTooltip(escapeHtml(`${clock(task.startDate)} ${task.title}`), { direction: 'top', offset: [0, -22] });
      marker.addTo(this.layer);
      this.markers.set(task.taskID, marker);
    }
  }

  bounds(): L.LatLngBounds {
    return L.latLngBounds([...this.markers.values()].map((m) => m.getLatLng()));
  }

  /** Marks the selected task and moves the map to it when it is out of view. */
  select(taskID: number | null): void {
    if (this.selected !== null) this.markers.get(this.selected)?.getElement()?.classList.remove('is-selected');
    this.selected = taskID;
    const marker = taskID === null ? undefined : this.markers.get(taskID);
    marker?.getElement()?.classList.add('is-selected');
    marker?.setZIndexOffset(1000);
    if (marker && !this.map.getBounds().contains(marker.getLatLng())) whenStill(this.map, () => this.map.panTo(marker.getLatLng()));
  }

  /** The assignee on the way to the selected task, with the estimate; none: nothing drawn. */
  showArrival(task: Task | undefined, arrival: Arrival | undefined, assigneeName: string): void {
    this.eta.clearLayers();
    if (!task || !arrival || task.latitude === null || task.longitude === null) return;
    const from: L.LatLngTuple = [arrival.latitude, arrival.longitude];
    L.polyline([from, [task.latitude, task.longitude]], { color: '#1f5fbf', weight: 3, dashArray: '6 6', interactive: false }).addTo(this.eta);
    const text = t('tasks.etaTooltip', { name: assigneeName, time: clock(arrival.estimatedArrivalDate), travel: travelTime(arrival.travelSeconds) });
    L.circleMarker(from, { radius: 7, color: '#ffffff', weight: 2, fillColor: '#1f5fbf', fillOpacity: 1, interactive: false })
      .bindTooltip(escapeHtml(text), { permanent: true, direction: 'right', className: 'eta-tooltip' })
      .addTo(this.eta);
  }

  remove(): void {
    this.layer.remove();
    this.eta.remove();
  }
}
