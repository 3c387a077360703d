import L from 'leaflet';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useSessionInfo } from '../session';
import type { Zone } from '../types';
import { t } from '../i18n/i18n';
import { addScaleBar } from './scale-bar';

/** A transparent pixel in place of a tile that failed, so no broken-image box covers the background. */
const NO_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** A map's container carries its Leaflet map, so browser tests can turn pixels into coordinates. */
export type MapContainer = HTMLElement & { leafletMap?: L.Map };

/** Where a map starts before it has anything to show. */
const START: L.LatLngExpression = [55.75, 37.62];
const START_ZOOM = 10;
/** The deepest zoom: tiles' usual last level, and the map's own limit without tiles (clustering needs one). */
const MAX_ZOOM = 19;

/**
 * A Leaflet map in a div. Tiles come from the MAP_TILE_URL setting; without one (or while the
 * tile server is unreachable) the map is a plain background that still shows zones, tracks and
 * positions, which are vectors drawn by the workspace.
 */
export function MapView({ label, onReady }: { label: string; onReady: (map: L.Map) => (() => void) | void }) {
  const { map: settings } = useSessionInfo();
  const container = useRef<HTMLDivElement>(null);
  const [tilesDown, setTilesDown] = useState(false);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const map = L.map(element, { center: START, zoom: START_ZOOM, maxZoom: MAX_ZOOM, preferCanvas: false, keyboard: true, zoomControl: false });
    L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(map);
    addScaleBar(map);
    map.attributionControl.setPrefix(false);
    (element as MapContainer).leafletMap = map;
    if (settings.tileUrl) {
      const tiles = L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: MAX_ZOOM, errorTileUrl: NO_TILE }).addTo(map);
      // Offline, or the tile server down: the plain background stays, and the page says why; a tile
      // that loads later (the network is back) takes the note away.
      tiles.on('tileerror', () => setTilesDown(true));
      tiles.on('tileload', (event: L.TileEvent) => {
        if (event.tile.src !== NO_TILE) setTilesDown(false);
      });
    }
    const cleanup = onReady(map);
    return () => {
      cleanup?.();
      // Leaflet ends a zoom animation from a 250 ms timer, which throws on a map removed
      // meanwhile (a page left right after a zoom): end it now instead.
      (map as unknown as ZoomAnimation)._animatingZoom = false;
      map.remove();
    };
  }, []);

  return (
    <div class="map-frame">
      <div ref={container} class="map" role="region" aria-label={label} tabIndex={0} />
      {tilesDown && (
        <p class="map-note" role="status">
          {t('map.tilesDown')}
        </p>
      )}
    </div>
  );
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
