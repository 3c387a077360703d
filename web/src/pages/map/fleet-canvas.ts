import L from 'leaflet';
import { whenStill } from '../../map/base-map';
import type { Employee, Location } from '../../types';
import type { EmployeeLayer } from './employee-markers';
import { employeeTooltip, syncShown, type Shown } from './shown-employees';

const FOCUS_ZOOM = 15;
const RADIUS_PX = 6;
/** How far the heading arrow reaches past the dot. */
const ARROW_PX = 7;

const ONLINE = { color: '#ffffff', weight: 1.5, fillColor: '#1f5fbf', fillOpacity: 1 };
const OFFLINE = { ...ONLINE, fillColor: '#5b6475' };
const SELECTED = { color: '#1d2330', weight: 2.5, fillColor: '#f0a500', fillOpacity: 1 };

/** Leaflet's canvas internals a marker draws with (not in its typings). */
type CanvasInternals = { _renderer: { _drawing: boolean; _ctx: CanvasRenderingContext2D; _updateCircle(layer: L.Layer): void }; _point: L.Point; _radius: number };

/**
 * A dot with an arrow for the heading (interface 2.1 `angle`, degrees clockwise from north), drawn
 * on Leaflet's canvas renderer: a moved marker costs a redraw of its corner of one canvas in the
 * next frame, not a DOM change.
 */
class HeadingMarker extends L.CircleMarker {
  heading: number | null = null;

  _updatePath(): void {
    const self = this as unknown as CanvasInternals;
    const renderer = self._renderer;
    renderer._updateCircle(this);
    if (this.heading === null || !renderer._drawing) return;
    const { x, y } = self._point;
    const radians = (this.heading * Math.PI) / 180;
    const [dx, dy] = [Math.sin(radians), -Math.cos(radians)];
    const tip = RADIUS_PX + ARROW_PX;
    const ctx = renderer._ctx;
    ctx.beginPath();
    ctx.moveTo(x + dx * tip, y + dy * tip);
    // The arrow's base sits on the dot's edge, a little to each side of the heading.
    ctx.lineTo(x + dx * RADIUS_PX - dy * 4, y + dy * RADIUS_PX + dx * 4);
    ctx.lineTo(x + dx * RADIUS_PX + dy * 4, y + dy * RADIUS_PX - dx * 4);
    ctx.closePath();
    ctx.fillStyle = (this.options.fillColor as string) ?? '#1f5fbf';
    ctx.fill();
  }

  /** The area to redraw around the marker takes the arrow in, or a moved arrow would leave a trace. */
  _updateBounds(): void {
    const self = this as unknown as CanvasInternals & { _pxBounds: L.Bounds };
    const reach = RADIUS_PX + ARROW_PX + 2;
    self._pxBounds = L.bounds(self._point.subtract([reach, reach]), self._point.add([reach, reach]));
  }
}

/**
 * The employees of a big fleet on one canvas: a dot per employee with its heading, blue online and
 * grey offline, the name, time and speed as the tooltip. A coordinator reaches an employee by
 * keyboard through the list beside the map, which centres the map on them and opens the tooltip.
 */
export class FleetCanvas implements EmployeeLayer {
  private readonly renderer = L.canvas({ padding: 0.2, tolerance: 3 });
  private readonly layer: L.LayerGroup;
  private readonly shown = new Map<number, Shown<HeadingMarker>>();
  private selected: number | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly timeZone: string,
    private readonly onSelect: (subscriberID: number) => void,
  ) {
    this.layer = L.layerGroup().addTo(map);
  }

  show(employees: ReadonlyMap<number, Employee>, positions: ReadonlyMap<number, Location>): void {
    syncShown(this.shown, this.layer, employees, positions, (employee, position) => this.create(employee, position), ({ marker, employee, position }, before) => {
      marker.heading = position.velocity > 0 ? position.angle : null;
      if (before.isOnline !== employee.isOnline) marker.setStyle(this.style(employee));
      marker.setLatLng([position.latitude, position.longitude]);
      if (marker.isTooltipOpen()) marker.getTooltip()?.update();
    });
  }

  bounds(): L.LatLngBounds {
    return L.latLngBounds([...this.shown.values()].map(({ marker }) => marker.getLatLng()));
  }

  focus(subscriberID: number): void {
    const held = this.shown.get(subscriberID);
    if (!held) return;
    this.mark(subscriberID);
    const map = this.map;
    whenStill(map, () => map.setView(held.marker.getLatLng(), Math.max(map.getZoom(), FOCUS_ZOOM)));
    held.marker.openTooltip();
  }

  mark(subscriberID: number | null): void {
    const previous = this.selected === null ? undefined : this.shown.get(this.selected);
    previous?.marker.setStyle(this.style(previous.employee));
    this.selected = subscriberID;
    const held = subscriberID === null ? undefined : this.shown.get(subscriberID);
    held?.marker.setStyle(SELECTED).bringToFront();
  }

  remove(): void {
    this.layer.remove();
  }

  private style(employee: Employee) {
    return employee.subscriberID === this.selected ? SELECTED : employee.isOnline === false ? OFFLINE : ONLINE;
  }

  private create(employee: Employee, position: Location): HeadingMarker {
    const marker = new HeadingMarker([position.latitude, position.longitude], { ...this.style(employee), radius: RADIUS_PX, renderer: this.renderer });
    marker.heading = position.velocity > 0 ? position.angle : null;
    const id = employee.subscriberID;
    // Written when shown, from what is held then: 2,000 markers do not rebuild 2,000 tooltips a batch.
    marker.bindTooltip(() => this.details(id), { direction: 'right', offset: [RADIUS_PX, 0] });
    marker.on('click', () => this.onSelect(id));
    marker.addTo(this.layer);
    return marker;
  }

  private details(subscriberID: number): HTMLElement {
    const held = this.shown.get(subscriberID);
    return held ? employeeTooltip(held.employee, held.position, this.timeZone) : document.createElement('div');
  }
}
