import type L from 'leaflet';
import { useEffect, useRef } from 'preact/hooks';
import { useSessionInfo } from '../../session';
import { FleetMarkers } from './fleet-markers';
import { todayIn } from './fleet-state';
import { useLivePositions } from './live-positions';
import { useEmployees } from './use-employees';
import { useNow } from './use-now';
import '../map.css';

/** The states of a quiet fleet (a new day, gone offline) are brought up to date this often. */
const CLOCK_MS = 60_000;

/**
 * The employees' and vehicles' latest positions on another page's map (Zones, Tasks), drawn and
 * moved as on the fleet map: the same markers, states and clusters. Choosing one marks it.
 * The map is null until the page's map is ready.
 */
export function useFleetOverlay(map: L.Map | null): void {
  const { account } = useSessionInfo();
  const employees = useEmployees();
  const live = useLivePositions(employees.refresh);
  const nowMs = useNow(CLOCK_MS);
  const markers = useRef<FleetMarkers | null>(null);

  useEffect(() => {
    if (!map) return;
    const drawn = new FleetMarkers(map, account.timeZone, (subscriberID) => drawn.mark(subscriberID));
    markers.current = drawn;
    return () => {
      drawn.remove();
      markers.current = null;
    };
  }, [map]);

  useEffect(() => {
    if (markers.current && employees.byId) markers.current.show(employees.byId, live.positions, todayIn(account.timeZone, nowMs));
  }, [map, employees.byId, live.positions, nowMs]);
}
