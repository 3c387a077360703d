import type L from 'leaflet';
import { useCan } from '../session';
import { useEffect, useRef, useState } from 'preact/hooks';
import { matchesWords, searchWords } from '../../../src/http/free-text';
import { api, describe } from '../api';
import { fitTo, MapView } from '../map/base-map';
import { mapObjectLayer, type MapObjectLayer } from '../map/map-object-layer';
import { PlacePicker, type Point } from '../map/place-picker';
import type { MapObject } from '../types';
import { LoadFailure, StatusLine } from '../ui/messages';
import { MAP_OBJECTS, MapObjectForm } from './map-objects/map-object-form';
import './side-panels.css';
import { t } from '../i18n/i18n';

type Editor = { kind: 'none' } | { kind: 'new'; key: number } | { kind: 'object'; mapObjectID: number };

/**
 * The Map objects tab: the account's map objects (CONTRACT §3) on a map and in a list; a new one
 * is placed by clicking the map (or typing its coordinates), an existing one edited or deleted.
 */
export function MapObjectsPage() {
  const canEdit = useCan('edit');
  const [objects, setObjects] = useState<MapObject[] | null>(null);
  const [loadError, setLoadError] = useState('');
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [editor, setEditor] = useState<Editor>({ kind: 'none' });
  const [picked, setPicked] = useState<Point | null>(null);
  const map = useRef<{ map: L.Map; picker: PlacePicker; layer: MapObjectLayer | null } | null>(null);
  const newForms = useRef(0);
  const select = useRef((id: number) => show({ kind: 'object', mapObjectID: id }));

  const fitted = useRef(false);

  /** Draws the objects (again); the first time, the map moves to show them all. */
  const draw = (list: MapObject[]) => {
    const held = map.current;
    if (!held) return;
    held.layer?.layer.remove();
    held.layer = mapObjectLayer(list, (object) => select.current(object.mapObjectID));
    held.layer.layer.addTo(held.map);
    if (!fitted.current) fitTo(held.map, held.layer.bounds());
    fitted.current = true;
  };

  const load = async () => {
    const list = await api.get<MapObject[]>(MAP_OBJECTS);
    setObjects(list);
    draw(list);
    return list;
  };
  const loadOrSay = () => {
    setLoadError('');
    load().catch((error: unknown) => setLoadError(t('objects.loadFailed', { reason: describe(error) })));
  };
  useEffect(loadOrSay, []);

  const show = (next: Editor) => {
    const held = map.current;
    held?.picker.stop();
    held?.picker.clear();
    setPicked(null);
    if (next.kind === 'new') held?.picker.start(setPicked);
    held?.layer?.select(next.kind === 'object' ? next.mapObjectID : null);
    if (next.kind === 'object') {
      const marker = held?.layer?.markers.get(next.mapObjectID);
      if (held && marker && !held.map.getBounds().contains(marker.getLatLng())) held.map.panTo(marker.getLatLng());
    }
    setEditor(next);
  };
  select.current = (id: number) => {
    setStatus('');
    show({ kind: 'object', mapObjectID: id });
  };

  const onMapReady = (leaflet: L.Map) => {
    const held = { map: leaflet, picker: new PlacePicker(leaflet), layer: null };
    map.current = held;
    if (objects) draw(objects);
    return () => {
      held.picker.destroy();
      map.current = null;
    };
  };

  const saved = async (object: MapObject, message: string) => {
    await load();
    show({ kind: 'object', mapObjectID: object.mapObjectID });
    setStatus(message);
  };
  const closed = () => {
    show({ kind: 'none' });
    document.getElementById('map-objects-title')?.focus();
  };
  const deleted = async (message: string) => {
    await load();
    closed();
    setStatus(message);
  };

  const words = searchWords(search);
  const listed = (objects ?? [])
    .filter((o) => words.length === 0 || matchesWords(`${o.name}\n${o.address}\n${o.externalID ?? ''}`, words))
    .sort((a, b) => a.name.localeCompare(b.name));
  const selected = editor.kind === 'object' ? objects?.find((o) => o.mapObjectID === editor.mapObjectID) : undefined;
  return (
    <section class="map-objects-page" aria-labelledby="map-objects-title">
      <div class="list-head">
        <h1 id="map-objects-title" tabIndex={-1}>
          {t('objects.title')}
        </h1>
        {canEdit && (
          <button type="button" onClick={() => (setStatus(''), show({ kind: 'new', key: ++newForms.current }))}>
            {t('objects.add')}
          </button>
        )}
      </div>
      <StatusLine class="ok" message={status} />
      <LoadFailure message={loadError} onRetry={loadOrSay} />
      <div class="map-layout">
        <div class="map-column">
          <MapView label={t('objects.map')} onReady={onMapReady} />
        </div>
        <div class="side-column">
          {editor.kind === 'new' && (
            <MapObjectForm key={`new-${editor.key}`} object={null} picked={picked} onPoint={(p) => map.current?.picker.show(p)} onSaved={saved} onDeleted={deleted} onClose={closed} />
          )}
          {selected && <MapObjectForm key={`object-${selected.mapObjectID}`} object={selected} picked={null} onPoint={() => {}} onSaved={saved} onDeleted={deleted} onClose={closed} />}
          <div class="side-panel" role="region" aria-labelledby="map-object-list-title">
            <h2 id="map-object-list-title">{t('objects.list', { count: objects?.length ?? 0 })}</h2>
            <label>
              {t('objects.find')}
              <input type="search" value={search} autocomplete="off" onInput={(e) => setSearch(e.currentTarget.value)} />
            </label>
            {objects === null && !loadError && <p class="muted">{t('objects.loading')}</p>}
            {objects?.length === 0 && <p class="muted">{t('objects.none')}</p>}
            <ul class="pick-list">
              {listed.slice(0, 500).map((object) => (
                <li key={object.mapObjectID}>
                  <button type="button" class="pick-item" aria-current={selected?.mapObjectID === object.mapObjectID ? 'true' : undefined} onClick={() => select.current(object.mapObjectID)}>
                    <span class="pick-name">{object.name}</span>
                    {object.address && <span class="muted">{object.address}</span>}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}
