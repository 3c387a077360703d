import type L from 'leaflet';
import { useCan } from '../session';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../api';
import { MapView } from '../map/base-map';
import { PlaceSearch } from '../map/place-search';
import { useFleetOverlay } from './map/fleet-overlay';
import type { Zone, ZoneGroup } from '../types';
import { LoadFailure, StatusLine } from '../ui/messages';
import { ZoneEditor, ZONES } from './zones/zone-editor';
import { GroupManager } from '../ui/group-manager';
import { ZoneList } from './zones/zone-list';
import { ZoneMap } from './zones/zone-map';
import './zones.css';
import { t } from '../i18n/i18n';

export const ZONE_GROUPS = '/v6/api/zoneManagement/zoneGroups';

/** What the side panel shows: nothing, the drawing hint, a new zone's form, or a zone's form. */
type Editor =
  | { kind: 'none' }
  | { kind: 'drawing' }
  | { kind: 'new'; key: number; coordinates: boolean }
  | { kind: 'zone'; zoneID: number };


export function ZonesPage() {
  const canEdit = useCan('edit');
  const [zones, setZones] = useState<Zone[] | null>(null);
  const [groups, setGroups] = useState<ZoneGroup[]>([]);
  const [loadError, setLoadError] = useState('');
  const [editor, setEditor] = useState<Editor>({ kind: 'none' });
  const [status, setStatus] = useState('');
  const zoneMap = useRef<ZoneMap | null>(null);
  const [leaflet, setLeaflet] = useState<L.Map | null>(null);
  // The fleet's positions, as on the live map: a zone is drawn where the vehicles are.
  useFleetOverlay(leaflet);
  const loaded = useRef<{ zones: Zone[]; groups: ZoneGroup[] } | null>(null);
  const newZones = useRef(0);

  const load = async () => {
    const [zoneList, groupList] = await Promise.all([
      api.get<Zone[]>(`${ZONES}?withCustomTemplateItems=false`),
      api.get<ZoneGroup[]>(ZONE_GROUPS),
    ]);
    loaded.current = { zones: zoneList, groups: groupList };
    setZones(zoneList);
    setGroups(groupList);
    zoneMap.current?.showZones(zoneList, groupList);
  };

  const loadOrSay = () => {
    setLoadError('');
    load().catch((error: unknown) => setLoadError(t('zones.loadFailed', { reason: describe(error) })));
  };
  useEffect(loadOrSay, []);

  /** Every change of the side panel goes through here, so the map keeps no stale drawing, draft or vertex edit. */
  const show = (next: Editor, options: { zoom?: boolean; keepDraft?: boolean } = {}) => {
    const map = zoneMap.current;
    map?.cancelDrawing();
    map?.stopEditing(false);
    if (!options.keepDraft) map?.clearDraft();
    map?.select(next.kind === 'zone' ? next.zoneID : null, options.zoom ?? false);
    setEditor(next);
  };

  const selectZone = (zoneID: number) => {
    setStatus('');
    show({ kind: 'zone', zoneID }, { zoom: true });
  };
  // The map is made once; its clicks reach the current render's handler through this ref.
  const selectFromMap = useRef(selectZone);
  selectFromMap.current = selectZone;

  const drawZone = () => {
    setStatus('');
    show({ kind: 'drawing' });
    zoneMap.current?.startDrawing(() => show({ kind: 'new', key: ++newZones.current, coordinates: false }, { keepDraft: true }));
  };

  const enterCoordinates = () => {
    setStatus('');
    show({ kind: 'new', key: ++newZones.current, coordinates: true });
  };

  const cancelDrawing = () => show({ kind: 'none' });

  const closeEditor = () => {
    show({ kind: 'none' });
    document.getElementById('zone-list-title')?.focus();
  };

  // Escape ends drawing, as the Cancel drawing button does.
  useEffect(() => {
    if (editor.kind !== 'drawing') return;
    const keyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') cancelDrawing();
    };
    addEventListener('keydown', keyDown);
    return () => removeEventListener('keydown', keyDown);
  }, [editor.kind]);

  const saved = async (zoneID: number, message: string) => {
    await load();
    show({ kind: 'zone', zoneID });
    zoneMap.current?.reveal(zoneID);
    setStatus(message);
  };

  const deleted = async (message: string) => {
    await load();
    closeEditor();
    setStatus(message);
  };

  const groupsChanged = async (message: string) => {
    await load();
    setStatus(message);
  };

  const onMapReady = (map: L.Map) => {
    const controller = new ZoneMap(map, (zoneID) => selectFromMap.current(zoneID));
    zoneMap.current = controller;
    setLeaflet(map);
    if (loaded.current) controller.showZones(loaded.current.zones, loaded.current.groups);
    return () => {
      controller.destroy();
      zoneMap.current = null;
      setLeaflet(null);
    };
  };

  const drawing = editor.kind === 'drawing';
  const selectedZone = editor.kind === 'zone' ? zones?.find((z) => z.zoneID === editor.zoneID) : undefined;
  return (
    <section aria-labelledby="zones-title" class="zones-page">
      <h1 id="zones-title">{t('zones.title')}</h1>
      {canEdit && (
      <div class="toolbar" role="group" aria-label={t('zones.addZone')}>
        {/* One button that changes its name, so the focus stays on it when drawing starts or stops. */}
        <button type="button" class={drawing ? 'secondary' : undefined} onClick={drawing ? cancelDrawing : drawZone}>
          {drawing ? t('zones.cancelDrawing') : t('zones.draw')}
        </button>
        <button type="button" class="secondary" onClick={enterCoordinates}>
          {t('zones.enterCoordinates')}
        </button>
        {drawing && <p class="drawing-hint">{t('zones.drawingHint')}</p>}
        <StatusLine class="ok" message={status} />
      </div>
      )}
      <LoadFailure message={loadError} onRetry={loadOrSay} />
      <div class="zones-layout">
        <div class="zones-map">
          <PlaceSearch map={leaflet} />
          <MapView label={t('zones.map')} onReady={onMapReady} />
        </div>
        <div class="zones-side">
          {editor.kind === 'new' && zoneMap.current && (
            <ZoneEditor
              key={`new-${editor.key}`}
              zone={null}
              groups={groups}
              zoneMap={zoneMap.current}
              startWithCoordinates={editor.coordinates}
              onSaved={saved}
              onDeleted={deleted}
              onClose={closeEditor}
            />
          )}
          {selectedZone && zoneMap.current && (
            <ZoneEditor key={`zone-${selectedZone.zoneID}`} zone={selectedZone} groups={groups} zoneMap={zoneMap.current} onSaved={saved} onDeleted={deleted} onClose={closeEditor} />
          )}
          {zones === null ? (
            !loadError && <p class="muted">{t('zones.loading')}</p>
          ) : (
            <ZoneList zones={zones} groups={groups} selected={selectedZone?.zoneID ?? null} onSelect={selectZone} />
          )}
          <GroupManager
            title={t('zones.groups')}
            path={ZONE_GROUPS}
            idField="zoneGroupID"
            groups={groups.map((g) => ({ id: g.zoneGroupID, name: g.name, members: t('zones.count', { count: (zones ?? []).filter((z) => z.zoneGroupID === g.zoneGroupID).length }) }))}
            onChanged={groupsChanged}
          />
        </div>
      </div>
    </section>
  );
}
