import L from 'leaflet';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../api';
import { MapView } from '../map/base-map';
import { mapObjectLayer } from '../map/map-object-layer';
import { addZoneLayers } from '../map/zone-layers';
import { useSessionInfo } from '../session';
import type { MapObject, Zone, ZoneGroup } from '../types';
import { LoadFailure, StatusLine } from '../ui/messages';
import { EmployeeCard } from './map/employee-card';
import { fitClearOfControls } from './map/fit-clear';
import { EVERYONE, filterFleet, isFiltered, type FleetFilter } from './map/fleet-filter';
import { FleetLegend } from './map/fleet-legend';
import { FleetList } from './map/fleet-list';
import { FleetMarkers } from './map/fleet-markers';
import { FLEET_STATES, fleetStateOf, todayIn, type FleetState } from './map/fleet-state';
import { useLivePositions, type LiveStatus } from './map/live-positions';
import { useEmployees } from './map/use-employees';
import { useNow } from './map/use-now';
import { t } from '../i18n/i18n';
import './map.css';

const statusText = { connecting: 'map.connecting', live: 'map.live', reconnecting: 'map.reconnecting' } as const satisfies Record<LiveStatus, string>;

/** More zone groups than this and the layers control starts folded. */
const MAX_OPEN_GROUPS = 8;
/** "5 min ago" and the states of a quiet fleet (a new day, no data today) are brought up to date this often. */
const CLOCK_MS = 15_000;

interface Drawn {
  map: L.Map;
  markers: FleetMarkers;
}

/**
 * The fleet map: every employee's latest position in the colour of their state, moved as the live
 * stream reports fixes, the account's zones by group, and a list beside it (below it on a phone)
 * that narrows both by name, group and state. An employee chosen on either opens their card.
 */
export function MapPage({ route = [] }: { route?: string[] }) {
  const { account } = useSessionInfo();
  const timeZone = account.timeZone;
  const employees = useEmployees();
  const live = useLivePositions(employees.refresh);
  const nowMs = useNow(CLOCK_MS);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  /** Null while the zones load: the first fit waits for their layers control, to keep clear of it. */
  const [zoneBounds, setZoneBounds] = useState<L.LatLngBounds | null>(null);
  const [zoneError, setZoneError] = useState<string | null>(null);
  const [zoneAttempt, setZoneAttempt] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [filter, setFilter] = useState<FleetFilter>(EVERYONE);
  /** What the view was last fitted to on its own (at once, not flown from the start view); positions win over zones, and only once. */
  const fitted = useRef<'nothing' | 'zones' | 'positions'>('nothing');

  const ready = useCallback((map: L.Map) => {
    const markers = new FleetMarkers(map, timeZone, setSelected);
    setDrawn({ map, markers });
    return () => markers.remove();
  }, []);

  // The zones and map objects, a layer per zone group; read again by Retry after a failure.
  useEffect(() => {
    if (!drawn) return;
    const { map } = drawn;
    let zones: { remove(): void } | null = null;
    let gone = false;
    setZoneError(null);
    // Map objects are a layer of their own, switched in the zones' control; without them the map still works.
    const objects = api.get<MapObject[]>('/v6/api/mapObjectManagement/mapObjects').catch(() => [] as MapObject[]);
    Promise.all([api.get<Zone[]>(`/v6/api/zoneManagement/zones${query({ withCustomTemplateItems: false })}`), api.get<ZoneGroup[]>('/v6/api/zoneManagement/zoneGroups'), objects])
      .then(([zoneList, groups, objectList]) => {
        if (gone) return;
        // Open, the control is the easiest to use by keyboard; on a phone or with many groups it would cover the map.
        const collapsed = groups.length > MAX_OPEN_GROUPS || matchMedia('(max-width: 720px)').matches;
        const layers = addZoneLayers(map, zoneList, groups, { collapsed });
        const objectLayer = mapObjectLayer(objectList).layer.addTo(map);
        layers.control.addOverlay(objectLayer, t('map.objectsLayer'));
        zones = { remove: () => (layers.remove(), objectLayer.remove()) };
        setZoneBounds(layers.bounds());
      })
      .catch((failure: unknown) => {
        if (gone) return;
        setZoneError(t('map.zonesFailed', { reason: describe(failure) }));
        setZoneBounds((held) => held ?? L.latLngBounds([]));
      });
    return () => {
      gone = true;
      zones?.remove();
    };
  }, [drawn, zoneAttempt]);

  const today = useMemo(() => todayIn(timeZone, nowMs), [timeZone, nowMs]);
  const all = useMemo(() => (employees.byId ? [...employees.byId.values()].sort((a, b) => a.name.localeCompare(b.name)) : null), [employees.byId]);
  const states = useMemo(() => {
    const byId = new Map<number, FleetState>();
    for (const employee of all ?? []) byId.set(employee.subscriberID, fleetStateOf(employee, live.positions.get(employee.subscriberID), today));
    return byId;
  }, [all, live.positions, today]);
  const counts = useMemo(() => {
    const byState = new Map<FleetState, number>(FLEET_STATES.map((state) => [state, 0]));
    for (const state of states.values()) byState.set(state, byState.get(state)! + 1);
    return byState;
  }, [states]);
  const matching = useMemo(() => filterFleet(all ?? [], states, filter), [all, states, filter]);
  // The map shows whom the list shows: everyone, or the filter's employees.
  const onMap = useMemo(
    () => (isFiltered(filter) || !employees.byId ? new Map(matching.map((employee) => [employee.subscriberID, employee])) : employees.byId),
    [filter, matching, employees.byId],
  );

  useEffect(() => {
    if (drawn && employees.byId) drawn.markers.show(onMap, live.positions, today);
  }, [drawn, onMap, live.positions, today]);

  // A position of someone not in the list yet: an employee added since the list was read. Asked
  // once per id, so the fixes of an employee deleted meanwhile do not read the list again and again.
  const askedAbout = useRef(new Set<number>());
  useEffect(() => {
    if (!employees.byId) return;
    const unknown = [...live.positions.keys()].filter((id) => !employees.byId?.has(id) && !askedAbout.current.has(id));
    if (unknown.length === 0) return;
    unknown.forEach((id) => askedAbout.current.add(id));
    employees.refresh();
  }, [employees.byId, live.positions]);

  useEffect(() => {
    if (!drawn || !zoneBounds || fitted.current === 'positions') return;
    const positions = drawn.markers.bounds();
    if (positions.isValid()) {
      fitClearOfControls(drawn.map, positions, false);
      fitted.current = 'positions';
    } else if (fitted.current === 'nothing' && zoneBounds.isValid()) {
      fitClearOfControls(drawn.map, zoneBounds, false);
      fitted.current = 'zones';
    }
  }, [drawn, onMap, live.positions, zoneBounds]);

  const choose = (subscriberID: number) => {
    setSelected(subscriberID);
    drawn?.markers.focus(subscriberID);
  };

  useEffect(() => {
    drawn?.markers.mark(selected);
  }, [drawn, selected]);

  // `#/map/<subscriberID>` (an alert's "Show on map"): that employee chosen once their position is known.
  const asked = route[0] && /^\d+$/.test(route[0]) ? Number(route[0]) : null;
  const shown = useRef<number | null>(null);
  useEffect(() => {
    if (asked === null || !drawn || shown.current === asked || !live.positions.has(asked)) return;
    shown.current = asked;
    choose(asked);
  }, [asked, drawn, live.positions]);

  const showEveryone = () => {
    if (!drawn) return;
    const everyone = drawn.markers.bounds();
    if (zoneBounds?.isValid()) everyone.extend(zoneBounds);
    fitClearOfControls(drawn.map, everyone);
  };

  const chosen = selected === null ? undefined : employees.byId?.get(selected);
  return (
    <section class="live-map" aria-labelledby="map-title">
      <div class="live-map-head">
        <h1 id="map-title">{t('map.title')}</h1>
        <StatusLine class={`live-status ${live.status}`} message={t(statusText[live.status])} />
        <button type="button" class="secondary" onClick={showEveryone}>
          {t('map.showAll')}
        </button>
      </div>
      <LoadFailure message={employees.error} onRetry={employees.refresh} />
      <LoadFailure message={zoneError} onRetry={() => setZoneAttempt((n) => n + 1)} />
      {drawn && <FleetLegend map={drawn.map} counts={counts} chosen={filter.state} onChoose={(state) => setFilter({ ...filter, state })} />}
      <div class="live-map-body">
        <MapView label={t('map.label')} onReady={ready} />
        <FleetList
          all={all}
          matching={matching}
          filter={filter}
          onFilter={setFilter}
          groups={employees.groups}
          states={states}
          counts={counts}
          positions={live.positions}
          timeZone={timeZone}
          selected={selected}
          onSelect={choose}
        >
          {chosen && (
            <EmployeeCard
              employee={chosen}
              position={live.positions.get(chosen.subscriberID)}
              state={states.get(chosen.subscriberID) ?? 'noData'}
              groups={employees.groups}
              timeZone={timeZone}
              today={today}
              nowMs={nowMs}
              onClose={() => setSelected(null)}
            />
          )}
        </FleetList>
      </div>
    </section>
  );
}
