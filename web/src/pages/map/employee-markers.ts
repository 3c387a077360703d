import L from 'leaflet';
import { whenStill } from '../../map/base-map';
import type { Employee, Location } from '../../types';
import { initials } from './fix-format';
import { employeeTooltip, syncShown, type Shown } from './shown-employees';

/** Centring on an employee zooms in at least this far, so the street is readable. */
const FOCUS_ZOOM = 15;

/** How the live map draws employees: a marker each (a small fleet) or one canvas (a big one). */
export interface EmployeeLayer {
  /** Draws the positions of known employees; a marker already there moves, others come and go. */
  show(employees: ReadonlyMap<number, Employee>, positions: ReadonlyMap<number, Location>): void;
  /** The area holding every marker (not valid when there are none). */
  bounds(): L.LatLngBounds;
  /** Centres the map on an employee, marks them and shows their tooltip. */
  focus(subscriberID: number): void;
  /** Marks the selected employee (none: null). */
  mark(subscriberID: number | null): void;
  remove(): void;
}

/**
 * One marker per employee with a position: a round badge with the initials (a divIcon, so no
 * image files) and an arrow for the heading while moving, its tooltip the name, the fix's time in
 * the account's zone and the speed. Markers are Leaflet's keyboard markers: focusable, Enter
 * selects, focus shows the tooltip. For a small fleet; a big one is drawn by FleetCanvas.
 */
export class EmployeeMarkers implements EmployeeLayer {
  private readonly layer: L.LayerGroup;
  private readonly shown = new Map<number, Shown<L.Marker>>();
  private selected: number | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly timeZone: string,
    private readonly onSelect: (subscriberID: number) => void,
  ) {
    this.layer = L.layerGroup().addTo(map);
  }

  /** Draws the positions of known employees; a marker already there moves, others come and go. */
  show(employees: ReadonlyMap<number, Employee>, positions: ReadonlyMap<number, Location>): void {
    syncShown(this.shown, this.layer, employees, positions, (employee, position) => this.create(employee, position), ({ marker, employee, position }) => {
      marker.setLatLng([position.latitude, position.longitude]);
      marker.setTooltipContent(employeeTooltip(employee, position, this.timeZone));
      this.label(marker, employee);
      this.point(marker, position);
    });
  }

  /** The area holding every marker (not valid when there are none). */
  bounds(): L.LatLngBounds {
    return L.latLngBounds([...this.shown.values()].map(({ marker }) => marker.getLatLng()));
  }

  /** Centres the map on an employee's marker, marks it and shows its tooltip. */
  focus(subscriberID: number): void {
    const held = this.shown.get(subscriberID);
    if (!held) return;
    this.mark(subscriberID);
    const map = this.map;
    whenStill(map, () => map.setView(held.marker.getLatLng(), Math.max(map.getZoom(), FOCUS_ZOOM)));
    held.marker.openTooltip();
  }

  /** Marks one marker as the selected employee's (drawn above the others). */
  mark(subscriberID: number | null): void {
    if (this.selected !== null) {
      const previous = this.shown.get(this.selected)?.marker;
      previous?.getElement()?.classList.remove('is-selected');
      previous?.setZIndexOffset(0);
    }
    this.selected = subscriberID;
    const marker = subscriberID === null ? undefined : this.shown.get(subscriberID)?.marker;
    marker?.getElement()?.classList.add('is-selected');
    marker?.setZIndexOffset(1000);
  }

  remove(): void {
    this.layer.remove();
  }

  private create(employee: Employee, position: Location): L.Marker {
    const badge = document.createElement('span');
    badge.className = 'employee-initials';
    badge.setAttribute('aria-hidden', 'true');
    badge.textContent = initials(employee.name);
    const marker = L.marker([position.latitude, position.longitude], {
      icon: L.divIcon({ className: 'employee-marker', html: badge, iconSize: [32, 32], iconAnchor: [16, 16], tooltipAnchor: [16, 0] }),
      keyboard: true,
      riseOnHover: true,
    });
    marker.bindTooltip(employeeTooltip(employee, position, this.timeZone), { direction: 'right' });
    marker.on('click', () => this.onSelect(employee.subscriberID));
    marker.addTo(this.layer);
    this.label(marker, employee);
    this.point(marker, position);
    if (this.selected === employee.subscriberID) this.mark(employee.subscriberID);
    return marker;
  }

  /** The marker's accessible name and online state; its visible text is only the initials. */
  private label(marker: L.Marker, employee: Employee): void {
    const element = marker.getElement();
    if (!element) return;
    element.setAttribute('aria-label', employee.name);
    element.dataset.subscriberId = String(employee.subscriberID);
    element.classList.toggle('is-offline', employee.isOnline === false);
  }

  /** The heading arrow, turned to the fix's angle (degrees clockwise from north); none while standing. */
  private point(marker: L.Marker, position: Location): void {
    const element = marker.getElement();
    if (!element) return;
    let arrow = element.querySelector<HTMLElement>('.heading');
    if (!arrow) {
      arrow = document.createElement('span');
      arrow.className = 'heading';
      arrow.setAttribute('aria-hidden', 'true');
      element.append(arrow);
    }
    arrow.hidden = position.velocity <= 0;
    arrow.style.transform = `rotate(${position.angle}deg)`;
  }

}
