import L from 'leaflet';
import { useEffect, useRef } from 'preact/hooks';
import { useSessionInfo } from '../session';
import type { Zone } from '../types';

/** Where a map starts before it has anything to show. */
const START: L.LatLngExpression = [55.75, 37.62];
const START_ZOOM = 10;

/**
 * A Leaflet map in a div. Tiles come from the MAP_TILE_URL setting; without one (or while the
 * tile server is unreachable) the map is a plain background that still shows zones, tracks and
 * positions, which are vectors drawn by the workspace.
 */
export function MapView({ label, onReady }: { label: string; onReady: (map: L.Map) => (() => void) | void }) {
  const { map: settings } = useSessionInfo();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const map = L.map(element, { center: START, zoom: START_ZOOM, preferCanvas: false, keyboard: true });
    map.attributionControl.setPrefix(false);
    if (settings.tileUrl) L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: 19 }).addTo(map);
    const cleanup = onReady(map);
    return () => {
      cleanup?.();
      // Leaflet ends a zoom animation from a 250 ms timer, which throws on a map removed
      // meanwhile (a page left right after a zoom): end it now instead.
      (map as unknown as ZoomAnimation)._animatingZoom = false;
      map.remove();
    };
  }, []);

  return <div ref={container} class="map" role="region" aria-label={label} tabIndex={0} />;
}

/** A zone's colour (an integer 0xRRGGBB in the interface) as CSS; a default for none. */
export function zoneColor(color: number | null | undefined): string {
  return typeof color === 'number' ? `#${(color & 0xffffff).toString(16).padStart(6, '0')}` : '#3367d6';
}

/** Leaflet's [lat, lng] ring of a zone's bounds. */
export function zoneLatLngs(zone: Pick<Zone, 'bounds'>): L.LatLngTuple[] {
  return zone.bounds.map((p) => [p.latitude, p.longitude]);
}

/** Moves the map to show all of `bounds`, if there is anything. */
export function fitTo(map: L.Map, bounds: L.LatLngBounds): void {
  if (bounds.isValid()) whenStill(map, () => map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 }));
}

/** Leaflet's flag for a running zoom animation (not in its typings). */
type ZoomAnimation = { _animatingZoom: boolean };

/**
 * Runs `move` (a change of the view) now, or when the running zoom animation ends: Leaflet
 * silently drops a zoom asked for during one (e.g. a row chosen while the first fit still animates).
 */
export function whenStill(map: L.Map, move: () => void): void {
  if ((map as unknown as ZoomAnimation)._animatingZoom) map.once('zoomend', move);
  else move();
}
