import L from 'leaflet';
import { formatScaleLength } from '../i18n/format';

/** Leaflet's scale internals the metric line is drawn with (not in its typings). */
type ScaleInternals = { _mScale: HTMLElement; _getRoundNum(metres: number): number; _updateScale(scale: HTMLElement, text: string, ratio: number): void };

/** Leaflet's metric scale bar, its length written in the workspace's language ("500 м", "2 km"). */
class LocalScale extends L.Control.Scale {
  _updateMetric(maxMetres: number): void {
    const self = this as unknown as ScaleInternals;
    const metres = self._getRoundNum(maxMetres);
    self._updateScale(self._mScale, formatScaleLength(metres), metres / maxMetres);
  }
}

/** A scale bar in the bottom left corner of a map. */
export function addScaleBar(map: L.Map): L.Control.Scale {
  return new LocalScale({ imperial: false, maxWidth: 120, position: 'bottomleft' }).addTo(map);
}
