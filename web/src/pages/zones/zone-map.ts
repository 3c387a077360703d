import L from 'leaflet';
// Geoman patches the global Leaflet (window.L), so it is imported after Leaflet.
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import { fitTo } from '../../map/base-map';
import { addZoneLayers, zoneStyle, type ZoneLayers } from '../../map/zone-layers';
import type { Zone, ZoneGroup } from '../../types';
import { roundDegrees, type Bounds } from './coordinates';
import { language } from '../../i18n/i18n';

/** More groups than this fold the layers control into its button, as on the Map tab. */
const MAX_OPEN_GROUPS = 8;

/** A shape not saved yet: drawn, or typed as coordinates. */
const DRAFT_STYLE: L.PathOptions = { color: '#c26a00', weight: 3, dashArray: '8 4', fillOpacity: 0.15 };

/** Geoman's vertex editing, without the removal of a whole zone when a right click leaves it under 3 corners. */
const EDIT_OPTIONS = { snappable: false, removeLayerBelowMinVertexCount: false, draggable: false } as const;

/** The outline of a Leaflet polygon as interface bounds (longitudes wrapped into -180..180). */
export function boundsOf(polygon: L.Polygon): Bounds {
  const latLngs = polygon.getLatLngs();
  const ring = (Array.isArray(latLngs[0]) ? latLngs[0] : latLngs) as L.LatLng[];
  return ring.map((point) => point.wrap()).map((p) => ({ latitude: roundDegrees(p.lat), longitude: roundDegrees(p.lng) }));
}

/**
 * The Zones tab's map: the account's zones (through zone-layers), the selected zone, a draft of a
 * new zone, and Geoman's drawing and vertex editing. Geoman's toolbar is not shown; the page's own
 * buttons call these methods, so every action has a named, focusable control.
 */
export class ZoneMap {
  private layers: ZoneLayers | null = null;
  private zones = new Map<number, Zone>();
  private selected: number | null = null;
  private zoomToSelected = false;
  private draft: L.Polygon | null = null;
  private editing: { polygon: L.Polygon; original: L.LatLng[] } | null = null;
  private onDrawn: ((bounds: Bounds) => void) | null = null;

  constructor(
    readonly map: L.Map,
    private readonly onSelect: (zoneID: number) => void,
  ) {
    map.on('pm:create', this.created);
    // Geoman's own hints while drawing and editing, in the workspace's language.
    map.pm.setLang(language());
  }

  /** Draws (again) the zones, keeping the groups the user switched off and the selection. */
  showZones(zones: Zone[], groups: ZoneGroup[]): void {
    const first = this.layers === null;
    const hidden = this.layers?.hiddenGroups();
    this.layers?.remove();
    this.zones = new Map(zones.map((zone) => [zone.zoneID, zone]));
    this.layers = addZoneLayers(this.map, zones, groups, {
      hidden,
      // Open is easiest by keyboard; folded (Enter opens it) where it would cover the map.
      collapsed: groups.length > MAX_OPEN_GROUPS || matchMedia('(max-width: 720px)').matches,
      // Clicks on a zone add corners while drawing and are part of dragging while editing.
      onSelect: (zone) => {
        if (!this.onDrawn && !this.editing) this.onSelect(zone.zoneID);
      },
    });
    if (first && !this.zoomToSelected) fitTo(this.map, this.layers.bounds());
    this.select(this.selected, this.zoomToSelected);
  }

  /** Highlights a zone (none: null) and, if asked, moves the map to it. */
  select(zoneID: number | null, zoom: boolean): void {
    if (this.selected !== null) this.restyle(this.selected, false);
    this.selected = zoneID;
    const polygon = zoneID === null ? undefined : this.layers?.polygons.get(zoneID);
    // Not drawn yet (the list is loading): zoom once it is.
    this.zoomToSelected = zoom && zoneID !== null && !polygon;
    if (zoneID === null || !polygon) return;
    this.restyle(zoneID, true);
    polygon.bringToFront();
    if (zoom) fitTo(this.map, polygon.getBounds());
  }

  /** Moves the map to a zone only if part of it is out of view (after its outline changed). */
  reveal(zoneID: number): void {
    const polygon = this.layers?.polygons.get(zoneID);
    if (polygon && !this.map.getBounds().contains(polygon.getBounds())) fitTo(this.map, polygon.getBounds());
  }

  /** Starts Geoman's polygon drawing; `onDrawn` gets the outline once the first corner is clicked again. */
  startDrawing(onDrawn: (bounds: Bounds) => void): void {
    this.onDrawn = onDrawn;
    this.map.pm.enableDraw('Polygon', { snappable: false, continueDrawing: false, pathOptions: DRAFT_STYLE, templineStyle: DRAFT_STYLE });
  }

  cancelDrawing(): void {
    this.onDrawn = null;
    if (this.map.pm.globalDrawModeEnabled()) this.map.pm.disableDraw();
  }

  private created = (event: { layer: L.Layer }) => {
    const polygon = event.layer as L.Polygon;
    const onDrawn = this.onDrawn;
    this.onDrawn = null;
    if (!onDrawn) {
      polygon.remove();
      return;
    }
    this.clearDraft();
    this.draft = polygon;
    // Geoman is still finishing its drawing mode when it fires pm:create: the page reacts after it.
    setTimeout(() => onDrawn(boundsOf(polygon)));
  };

  /** Shows a new zone's outline (typed as coordinates) and moves the map to it. */
  showDraft(bounds: Bounds): void {
    this.clearDraft();
    this.draft = L.polygon(
      bounds.map((p) => [p.latitude, p.longitude] as L.LatLngTuple),
      DRAFT_STYLE,
    ).addTo(this.map);
    fitTo(this.map, this.draft.getBounds());
  }

  /** The new zone's outline as it is now (vertex edits included), or null without one. */
  draftBounds(): Bounds | null {
    return this.draft ? boundsOf(this.draft) : null;
  }

  clearDraft(): void {
    if (!this.draft) return;
    if (this.editing?.polygon === this.draft) this.stopEditing(false);
    this.draft.remove();
    this.draft = null;
  }

  /** Shows draggable corners on the draft (`'draft'`) or on a zone; false if there is no such shape. */
  editVertices(target: number | 'draft'): boolean {
    this.stopEditing(false);
    const polygon = target === 'draft' ? this.draft : this.layers?.polygons.get(target);
    if (!polygon) return false;
    // A zone in a group switched off in the layers control is shown again to be edited.
    this.layers?.groups.forEach((group) => {
      if (group.hasLayer(polygon) && !this.map.hasLayer(group)) group.addTo(this.map);
    });
    const ring = polygon.getLatLngs()[0] as L.LatLng[];
    this.editing = { polygon, original: ring.map((p) => L.latLng(p.lat, p.lng)) };
    polygon.pm.enable(EDIT_OPTIONS);
    if (!this.map.getBounds().contains(polygon.getBounds())) fitTo(this.map, polygon.getBounds());
    return true;
  }

  /** The outline being edited as it is now, or null when no vertex editing is on. */
  editedBounds(): Bounds | null {
    return this.editing ? boundsOf(this.editing.polygon) : null;
  }

  /** Ends vertex editing; without `keep` the shape returns to what it was. */
  stopEditing(keep: boolean): void {
    const editing = this.editing;
    if (!editing) return;
    this.editing = null;
    editing.polygon.pm.disable();
    if (!keep) editing.polygon.setLatLngs(editing.original);
  }

  destroy(): void {
    this.cancelDrawing();
    this.stopEditing(false);
    this.map.off('pm:create', this.created);
  }

  private restyle(zoneID: number, selected: boolean): void {
    const zone = this.zones.get(zoneID);
    const polygon = this.layers?.polygons.get(zoneID);
    if (zone && polygon) polygon.setStyle(zoneStyle(zone, selected));
  }
}
