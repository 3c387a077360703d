import L from 'leaflet';
import { createPortal } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import { FLEET_STATES, STATE_LABEL, type FleetState } from './fleet-state';

interface Props {
  map: L.Map;
  counts: ReadonlyMap<FleetState, number>;
  /** The state the list and the map are narrowed to; '' none. */
  chosen: FleetState | '';
  onChoose: (state: FleetState | '') => void;
}

/**
 * The legend of the markers' colours in the map's corner, with how many employees are in each
 * state; a state pressed narrows the list and the map to it (pressed again, everyone).
 */
export function FleetLegend({ map, counts, chosen, onChoose }: Props) {
  const [corner, setCorner] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const control = new L.Control({ position: 'bottomright' });
    control.onAdd = () => {
      const box = L.DomUtil.create('div', 'fleet-legend');
      // Clicks and scrolls on the legend stay off the map underneath.
      L.DomEvent.disableClickPropagation(box);
      L.DomEvent.disableScrollPropagation(box);
      return box;
    };
    control.addTo(map);
    setCorner(control.getContainer() ?? null);
    return () => {
      control.remove();
    };
  }, [map]);
  if (!corner) return null;
  return createPortal(
    <ul aria-label={t('map.legend')}>
      {FLEET_STATES.map((state) => (
        <li key={state}>
          <button type="button" class={`legend-state state-${state}`} aria-pressed={chosen === state} onClick={() => onChoose(chosen === state ? '' : state)}>
            <span class="swatch" aria-hidden="true" />
            {t(STATE_LABEL[state])}
            <span class="legend-count">{counts.get(state) ?? 0}</span>
          </button>
        </li>
      ))}
    </ul>,
    corner,
  );
}
