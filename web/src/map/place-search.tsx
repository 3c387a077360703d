import L from 'leaflet';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../api';
import { language, t } from '../i18n/i18n';
import { useSessionInfo } from '../session';
import { whenStill } from './base-map';
import './place-search.css';

/** A place the server's geocoder found (GET /workspace/api/places). */
interface FoundPlace {
  name: string;
  latitude: number;
  longitude: number;
}

/** Zoom of a found place: its street and houses readable. */
const PLACE_ZOOM = 17;

/**
 * An address search above a map: the server asks its geocoder (GEOCODER_URL) and answers the
 * places found; choosing one moves the map there and marks it. Not shown when the server has no
 * geocoder, or while the map is not ready.
 */
export function PlaceSearch({ map }: { map: L.Map | null }) {
  const { map: settings } = useSessionInfo();
  const [text, setText] = useState('');
  const [places, setPlaces] = useState<FoundPlace[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const pin = useRef<L.CircleMarker | null>(null);
  useEffect(() => () => void pin.current?.remove(), [map]);
  if (!settings.placeSearch || !map) return null;

  const search = (event: Event) => {
    event.preventDefault();
    const q = text.trim();
    if (q === '') return;
    setBusy(true);
    setError('');
    api
      .get<FoundPlace[]>(`/workspace/api/places${query({ q, language: language() })}`)
      .then(setPlaces)
      .catch((failure: unknown) => {
        setPlaces(null);
        setError(t('map.search.failed', { reason: describe(failure) }));
      })
      .finally(() => setBusy(false));
  };
  const choose = (place: FoundPlace) => {
    pin.current?.remove();
    const point: L.LatLngTuple = [place.latitude, place.longitude];
    pin.current = L.circleMarker(point, { radius: 9, color: '#d93025', weight: 3, fillOpacity: 0.2, className: 'found-place' }).bindTooltip(place.name).addTo(map);
    whenStill(map, () => map.setView(point, Math.max(map.getZoom(), PLACE_ZOOM)));
    setPlaces(null);
  };

  return (
    <div class="place-search">
      <form role="search" aria-label={t('map.search.label')} onSubmit={search}>
        <input type="search" value={text} aria-label={t('map.search.label')} placeholder={t('map.search.placeholder')} maxLength={200} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" class="secondary" disabled={busy}>
          {t('map.search.find')}
        </button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {places && (
        <div role="status" class="place-results">
          {places.length === 0 ? (
            <p class="muted">{t('map.search.nothing')}</p>
          ) : (
            <ul aria-label={t('map.search.results')}>
              {places.map((place, index) => (
                <li key={index}>
                  <button type="button" class="link" onClick={() => choose(place)}>
                    {place.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
