import L from 'leaflet';
import type { MapObject } from '../types';
import { escapeHtml } from './zone-layers';

const STYLE: L.CircleMarkerOptions = { radius: 6, color: '#6b3fa0', weight: 2, fillColor: '#ffffff', fillOpacity: 1 };
const SELECTED: L.CircleMarkerOptions = { radius: 9, color: '#f0a500', weight: 4, fillColor: '#6b3fa0', fillOpacity: 1 };

export interface MapObjectLayer {
  layer: L.LayerGroup;
  markers: Map<number, L.CircleMarker>;
  /** Marks one object (none: null). */
  select(mapObjectID: number | null): void;
  bounds(): L.LatLngBounds;
}

/**
 * The account's map objects (customers' addresses, depots) as small purple rings drawn on a
 * canvas, so thousands of them cost no DOM; the name is the tooltip. The page's list is their
 * keyboard way in.
 */
export function mapObjectLayer(objects: MapObject[], onSelect?: (object: MapObject) => void): MapObjectLayer {
  const renderer = L.canvas({ padding: 0.5 });
  const layer = L.layerGroup();
  const markers = new Map<number, L.CircleMarker>();
  for (const object of objects) {
    const marker = L.circleMarker([object.latitude, object.longitude], { ...STYLE, renderer, interactive: true });
    marker.bindTooltip(escapeHtml(object.name), { direction: 'top', offset: [0, -6] });
    if (onSelect) marker.on('click', () => onSelect(object));
    marker.addTo(layer);
    markers.set(object.mapObjectID, marker);
  }
  let selected: number | null = null;
  return {
    layer,
    markers,
    select(mapObjectID) {
      if (selected !== null) markers.get(selected)?.setStyle(STYLE).setRadius(STYLE.radius!);
      selected = mapObjectID;
      const marker = mapObjectID === null ? undefined : markers.get(mapObjectID);
      marker?.setStyle(SELECTED).setRadius(SELECTED.radius!).bringToFront();
    },
    bounds: () => L.latLngBounds([...markers.values()].map((m) => m.getLatLng())),
  };
}
