import L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../api';
import { MapView } from '../map/base-map';
import { mapObjectLayer } from '../map/map-object-layer';
import { addZoneLayers } from '../map/zone-layers';
import { useSessionInfo } from '../session';
import type { MapObject, Zone, ZoneGroup } from '../types';
import { ErrorAlert, StatusLine } from '../ui/messages';
import { EmployeeList } from './map/employee-list';
import { FleetLayer } from './map/fleet-layer';
import { fitClearOfControls } from './map/fit-clear';
import { useLivePositions, type LiveStatus } from './map/live-positions';
import { useEmployees } from './map/use-employees';
import { t } from '../i18n/i18n';
import './map.css';

const statusText = { connecting: 'map.connecting', live: 'map.live', reconnecting: 'map.reconnecting' } as const satisfies Record<LiveStatus, string>;

/** More zone groups than this and the layers control starts folded. */
const MAX_OPEN_GROUPS = 8;

interface Drawn {
  map: L.Map;
  markers: FleetLayer;
}

/**
 * The live map: every employee's latest position, moved as the live stream reports fixes, the
 * account's zones by group, and a list of employees beside it (below it on a phone).
 */
export function MapPage() {
  const { account } = useSessionInfo();
  const employees = useEmployees();
  const live = useLivePositions(employees.refresh);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  /** Null while the zones load: the first fit waits for their layers control, to keep clear of it. */
  const [zoneBounds, setZoneBounds] = useState<L.LatLngBounds | null>(null);
  const [zoneError, setZoneError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  /** What the view was last fitted to on its own (at once, not flown from the start view); positions win over zones, and only once. */
  const fitted = useRef<'nothing' | 'zones' | 'positions'>('nothing');

  const ready = useCallback((map: L.Map) => {
    const markers = new FleetLayer(map, account.timeZone, setSelected);
    let zones: { remove(): void } | null = null;
    let gone = false;
    // Map objects are a layer of their own, switched in the zones' control; without them the map still works.
    const objects = api.get<MapObject[]>('/v6/api/mapObjectManagement/mapObjects').catch(() => [] as MapObject[]);
    Promise.all([
      api.get<Zone[]>(`/v6/api/zoneManagement/zones${query({ withCustomTemplateItems: false })}`),
      api.get<ZoneGroup[]>('/v6/api/zoneManagement/zoneGroups'),
      objects,
    ])
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
        setZoneBounds(L.latLngBounds([]));
      });
    setDrawn({ map, markers });
    return () => {
      gone = true;
      zones?.remove();
      markers.remove();
    };
  }, []);

  useEffect(() => {
    if (drawn && employees.byId) drawn.markers.show(employees.byId, live.positions);
  }, [drawn, employees.byId, live.positions]);

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
  }, [drawn, employees.byId, live.positions, zoneBounds]);

  const centreOn = (subscriberID: number) => {
    setSelected(subscriberID);
    drawn?.markers.focus(subscriberID);
  };

  useEffect(() => {
    drawn?.markers.mark(selected);
  }, [drawn, selected]);

  const showEveryone = () => {
    if (!drawn) return;
    const all = drawn.markers.bounds();
    if (zoneBounds?.isValid()) all.extend(zoneBounds);
    fitClearOfControls(drawn.map, all);
  };

  return (
    <section class="live-map" aria-labelledby="map-title">
      <div class="live-map-head">
        <h1 id="map-title">{t('map.title')}</h1>
        <StatusLine class={`live-status ${live.status}`} message={t(statusText[live.status])} />
        <button type="button" class="secondary" onClick={showEveryone}>
          {t('map.showAll')}
        </button>
      </div>
      <ErrorAlert message={employees.error} />
      <ErrorAlert message={zoneError} />
      <div class="live-map-body">
        <MapView label={t('map.label')} onReady={ready} />
        <EmployeeList
          employees={employees.byId}
          positions={live.positions}
          timeZone={account.timeZone}
          selected={selected}
          onSelect={centreOn}
        />
      </div>
    </section>
  );
}
