import L from 'leaflet';

const DRAFT: L.CircleMarkerOptions = { radius: 9, color: '#c26a00', weight: 3, dashArray: '4 3', fillColor: '#ffd9a8', fillOpacity: 0.9 };

export interface Point {
  latitude: number;
  longitude: number;
}

/** Degrees to 6 decimals (about 10 cm): what a click can mean. */
const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;

/**
 * Picking a point by clicking the map, for a new map object or task: while picking, the map's
 * cursor is a crosshair and a click places (or moves) the draft marker. Typed coordinates move
 * the draft too (`show`), so the keyboard has the same way in.
 */
export class PlacePicker {
  private draft: L.CircleMarker | null = null;
  private onPick: ((point: Point) => void) | null = null;

  constructor(private readonly map: L.Map) {
    map.on('click', this.clicked);
  }

  start(onPick: (point: Point) => void): void {
    this.onPick = onPick;
    this.map.getContainer().classList.add('picking');
  }

  /** Stops picking; the draft marker stays until `clear`. */
  stop(): void {
    this.onPick = null;
    this.map.getContainer().classList.remove('picking');
  }

  show(point: Point | null): void {
    if (!point) return this.clear();
    if (this.draft) this.draft.setLatLng([point.latitude, point.longitude]);
    else this.draft = L.circleMarker([point.latitude, point.longitude], { ...DRAFT, interactive: false }).addTo(this.map);
  }

  clear(): void {
    this.draft?.remove();
    this.draft = null;
  }

  destroy(): void {
    this.stop();
    this.clear();
    this.map.off('click', this.clicked);
  }

  private clicked = (event: L.LeafletMouseEvent) => {
    if (!this.onPick) return;
    const { lat, lng } = event.latlng.wrap();
    const point = { latitude: round(lat), longitude: round(lng) };
    this.show(point);
    this.onPick(point);
  };
}
