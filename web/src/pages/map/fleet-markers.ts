import L from 'leaflet';
// The clustering plugin extends the Leaflet that set window.L, so it is imported after Leaflet.
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { whenStill } from '../../map/base-map';
import type { Employee, Location } from '../../types';
import { fleetStateOf, type Today } from './fleet-state';
import { clusterIcon, EmployeeIcon, employeeTooltip, paintMarker, type MarkerLook } from './marker-look';

/** Centring on an employee zooms in at least this far, so the street is readable. */
const FOCUS_ZOOM = 15;
/** Markers closer than this (pixels at the current zoom) gather into a cluster. */
const CLUSTER_RADIUS_PX = 60;

/** A marker and what it shows. */
interface Held extends MarkerLook {
  marker: L.Marker;
}

/** The markers of a cluster (the plugin's class, whose typings lack the marker's own type). */
type Cluster = { getAllChildMarkers(): (L.Marker & { subscriberID?: number })[] };
/**
 * The plugin's flag that makes it ignore a marker's `move` (it sets it itself while it animates):
 * a marker out of the group for a bulk move would otherwise be put back on its own, one at a time.
 */
type MoveFlag = { _ignoreMove: boolean };

/**
 * The live map's employees: a marker each (see marker-look.ts), gathered into clusters where they
 * crowd, by leaflet.markercluster. Markers are Leaflet's keyboard markers (focusable, Enter
 * selects, focus shows the tooltip); so are clusters, which zoom in to their employees when chosen.
 *
 * A batch of fixes moves its markers in two bulk steps (out of the clusters, then back at their
 * new points) rather than one marker at a time, which would regroup the clusters once per marker.
 */
export class FleetMarkers {
  private readonly group: L.MarkerClusterGroup;
  private readonly held = new Map<number, Held>();
  private selected: number | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly timeZone: string,
    private readonly onSelect: (subscriberID: number) => void,
  ) {
    this.group = L.markerClusterGroup({
      maxClusterRadius: CLUSTER_RADIUS_PX,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      // A map of thousands moving at once: no animation of markers joining and leaving clusters.
      animate: false,
      iconCreateFunction: (cluster) => clusterIcon(this.looksOf(cluster as unknown as Cluster)),
    }).addTo(map);
  }

  /**
   * Draws the employees (the ones the list's filters leave) at their positions, in their states
   * as of `today`; a marker already there moves or changes, others come and go.
   */
  show(employees: ReadonlyMap<number, Employee>, positions: ReadonlyMap<number, Location>, today: Today): void {
    const gone: L.Marker[] = [];
    for (const [id, held] of this.held) {
      if (employees.has(id) && positions.has(id)) continue;
      gone.push(held.marker);
      this.held.delete(id);
    }
    const created: L.Marker[] = [];
    const moved: { held: Held; to: L.LatLng }[] = [];
    const changed: Held[] = [];
    for (const [id, position] of positions) {
      const employee = employees.get(id);
      if (!employee) continue;
      const state = fleetStateOf(employee, position, today);
      const held = this.held.get(id);
      if (!held) {
        const look: Held = { employee, position, state, selected: id === this.selected, marker: null as unknown as L.Marker };
        look.marker = this.create(look);
        this.held.set(id, look);
        created.push(look.marker);
        continue;
      }
      if (held.employee === employee && held.position === position && held.state === state) continue;
      const before = { ...held };
      Object.assign(held, { employee, position, state });
      if (before.position.latitude !== position.latitude || before.position.longitude !== position.longitude) moved.push({ held, to: L.latLng(position.latitude, position.longitude) });
      // The list is read again every 30 s: an employee read anew with the same name looks the same.
      else if (before.employee.name !== employee.name || before.state !== state || before.position.angle !== position.angle) changed.push(held);
    }
    if (gone.length > 0) this.group.removeLayers(gone);
    if (moved.length > 0) {
      const markers = moved.map(({ held }) => held.marker);
      this.group.removeLayers(markers);
      const flag = this.group as unknown as MoveFlag;
      flag._ignoreMove = true;
      for (const { held, to } of moved) held.marker.setLatLng(to);
      flag._ignoreMove = false;
      this.group.addLayers(markers);
    }
    if (created.length > 0) this.group.addLayers(created);
    for (const held of changed) this.repaint(held);
    // A cluster's ring shows the states of its markers: those of changed markers are drawn anew.
    if (changed.length > 0) this.group.refreshClusters(changed.map((held) => held.marker));
  }

  /** The area holding every marker (not valid when there are none). */
  bounds(): L.LatLngBounds {
    return L.latLngBounds([...this.held.values()].map(({ position }) => [position.latitude, position.longitude]));
  }

  /** Centres the map on an employee, out of any cluster, marks them and shows their tooltip. */
  focus(subscriberID: number): void {
    const held = this.held.get(subscriberID);
    if (!held) return;
    this.mark(subscriberID);
    const map = this.map;
    whenStill(map, () => {
      map.setView(held.marker.getLatLng(), Math.max(map.getZoom(), FOCUS_ZOOM), { animate: false });
      this.group.zoomToShowLayer(held.marker, () => held.marker.openTooltip());
    });
  }

  /** Marks the selected employee's marker (drawn above the others); none: null. */
  mark(subscriberID: number | null): void {
    const previous = this.selected === null ? undefined : this.held.get(this.selected);
    this.selected = subscriberID;
    if (previous) {
      previous.selected = false;
      previous.marker.setZIndexOffset(0);
      this.repaint(previous);
    }
    const held = subscriberID === null ? undefined : this.held.get(subscriberID);
    if (held) {
      held.selected = true;
      held.marker.setZIndexOffset(1000);
      this.repaint(held);
    }
  }

  remove(): void {
    this.group.remove();
  }

  private create(look: Held): L.Marker {
    const id = look.employee.subscriberID;
    const marker = L.marker([look.position.latitude, look.position.longitude], { icon: new EmployeeIcon(() => look), keyboard: true, riseOnHover: true });
    (marker as L.Marker & { subscriberID?: number }).subscriberID = id;
    // Written when shown, from what is held then: thousands of markers do not rebuild thousands of tooltips a batch.
    marker.bindTooltip(() => employeeTooltip(look, this.timeZone), { direction: 'right', offset: [6, 0] });
    marker.on('click', () => this.onSelect(id));
    return marker;
  }

  /** Draws a marker that is on the map again; one hidden in a cluster is drawn when it shows. */
  private repaint(held: Held): void {
    const element = held.marker.getElement();
    if (element) paintMarker(element, held);
    if (held.marker.isTooltipOpen()) held.marker.getTooltip()?.setContent(employeeTooltip(held, this.timeZone));
  }

  private looksOf(cluster: Cluster): MarkerLook[] {
    return cluster.getAllChildMarkers().flatMap((marker) => {
      const held = marker.subscriberID === undefined ? undefined : this.held.get(marker.subscriberID);
      return held ? [held] : [];
    });
  }
}
