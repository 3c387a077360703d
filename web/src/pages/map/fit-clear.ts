import type L from 'leaflet';
import { whenStill } from '../../map/base-map';

const MARGIN_PX = 24;

/**
 * Like `fitTo`, but keeps what it shows out from under the controls in the top corners (zoom
 * buttons, an open layers control): each corner is cleared on the side that costs less of the map.
 */
export function fitClearOfControls(map: L.Map, bounds: L.LatLngBounds, animate = true): void {
  if (!bounds.isValid()) return;
  const size = map.getSize();
  let [top, left, right] = [MARGIN_PX, MARGIN_PX, MARGIN_PX];
  for (const side of ['left', 'right'] as const) {
    const corner = map.getContainer().querySelector<HTMLElement>(`.leaflet-top.leaflet-${side}`);
    if (!corner || corner.offsetWidth === 0) continue;
    const clearX = corner.offsetWidth + MARGIN_PX / 2;
    const clearY = corner.offsetHeight + MARGIN_PX / 2;
    if (clearX / size.x < clearY / size.y) {
      if (side === 'left') left = Math.max(left, clearX);
      else right = Math.max(right, clearX);
    } else {
      top = Math.max(top, clearY);
    }
  }
  // On a map too small for the controls, plain margins at least show everything.
  if (left + right > size.x / 2 || top > size.y / 2) [top, left, right] = [MARGIN_PX, MARGIN_PX, MARGIN_PX];
  whenStill(map, () => map.fitBounds(bounds, { paddingTopLeft: [left, top], paddingBottomRight: [right, MARGIN_PX], maxZoom: 16, animate }));
}
