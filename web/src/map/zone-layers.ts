import L from 'leaflet';
import type { Zone, ZoneGroup } from '../types';
import { zoneColor, zoneLatLngs } from './base-map';
import './zone-layers.css';
import { t } from '../i18n/i18n';

/** The layer key of zones without a group. */
export const NO_GROUP = 'none';
export type GroupKey = number | typeof NO_GROUP;

export interface ZoneLayers {
  /** One polygon per zone that has bounds, by zoneID. */
  polygons: Map<number, L.Polygon>;
  /** One layer group per zone group, plus NO_GROUP, each listed in the layers control. */
  groups: Map<GroupKey, L.LayerGroup>;
  control: L.Control.Layers;
  /** The groups whose layer is switched off in the control now. */
  hiddenGroups(): Set<GroupKey>;
  /** Everything these layers cover (invalid when no zone has bounds). */
  bounds(): L.LatLngBounds;
  /** Takes the layers and the control off the map. */
  remove(): void;
}

export interface ZoneLayerOptions {
  /** Called when a zone's polygon is clicked. */
  onSelect?: (zone: Zone) => void;
  /** Groups to start switched off (for example what was hidden before the zones were reloaded). */
  hidden?: Set<GroupKey>;
  /** The layers control starts folded (a button) instead of open; open suits keyboard users best. */
  collapsed?: boolean;
}

/** A zone drawn in its colour; a disabled zone dashed and paler, as it fires no signals. */
export function zoneStyle(zone: Pick<Zone, 'color' | 'enabled'>, selected = false): L.PathOptions {
  const enabled = zone.enabled !== false;
  return {
    color: zoneColor(zone.color),
    weight: selected ? 5 : 2,
    opacity: enabled ? 0.9 : 0.7,
    fillOpacity: selected ? 0.3 : enabled ? 0.18 : 0.06,
    dashArray: enabled ? undefined : '6 6',
  };
}

/** Leaflet writes control labels and tooltips as HTML; zone and group names are plain text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Adds the account's zones to a map: one layer group per zone group (and one for zones without a
 * group), each a checkbox of a layers control, so a coordinator can show and hide whole groups.
 */
export function addZoneLayers(map: L.Map, zones: Zone[], groups: ZoneGroup[], options: ZoneLayerOptions = {}): ZoneLayers {
  const layerGroups = new Map<GroupKey, L.LayerGroup>();
  const polygons = new Map<number, L.Polygon>();
  const control = L.control.layers(undefined, undefined, { collapsed: options.collapsed ?? false, sortLayers: false });
  const known = new Set(groups.map((g) => g.zoneGroupID));

  const sorted = [...groups].sort((a, b) => a.name.localeCompare(b.name) || a.zoneGroupID - b.zoneGroupID);
  const entries: [GroupKey, string][] = [...sorted.map((g): [GroupKey, string] => [g.zoneGroupID, g.name]), [NO_GROUP, t('map.noGroup')]];
  for (const [key, name] of entries) {
    const layer = L.layerGroup();
    layerGroups.set(key, layer);
    control.addOverlay(layer, escapeHtml(name));
    if (!options.hidden?.has(key)) layer.addTo(map);
  }

  for (const zone of zones) {
    if (zone.bounds.length < 3) continue;
    const key: GroupKey = zone.zoneGroupID != null && known.has(zone.zoneGroupID) ? zone.zoneGroupID : NO_GROUP;
    const polygon = L.polygon(zoneLatLngs(zone), zoneStyle(zone));
    polygon.bindTooltip(escapeHtml(zone.name), { sticky: true });
    if (options.onSelect) polygon.on('click', () => options.onSelect?.(zone));
    polygon.addTo(layerGroups.get(key)!);
    polygons.set(zone.zoneID, polygon);
  }
  control.addTo(map);
  // A named group, so assistive technology says what the checkboxes switch.
  control.getContainer()?.setAttribute('role', 'group');
  control.getContainer()?.setAttribute('aria-label', t('map.groupsShown'));

  return {
    polygons,
    groups: layerGroups,
    control,
    hiddenGroups: () => new Set([...layerGroups].filter(([, layer]) => !map.hasLayer(layer)).map(([key]) => key)),
    bounds: () => {
      const all = L.latLngBounds([]);
      polygons.forEach((p) => all.extend(p.getBounds()));
      return all;
    },
    remove: () => {
      control.remove();
      layerGroups.forEach((layer) => layer.remove());
    },
  };
}
