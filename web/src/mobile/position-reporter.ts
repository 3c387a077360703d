import { KeyRefused, sendPosition, type PositionFix } from './device-api';

/** A fix at most this often: a phone reports every few seconds, the track needs less. */
const MIN_INTERVAL_MS = 15_000;

export type PositionState = 'off' | 'waiting' | 'sending' | 'denied';

/**
 * While the app is open, the phone's position goes to the server as fixes through the device
 * path (which also keeps the employee's isOnline on). A fix that cannot be sent is dropped: the
 * next one is newer anyway, and Traccar Client covers the background.
 */
export function startPositionReports(key: string, onState: (state: PositionState) => void, onKeyRefused: () => void): () => void {
  if (!('geolocation' in navigator)) {
    onState('off');
    return () => {};
  }
  let lastSentMs = 0;
  onState('waiting');
  const watch = navigator.geolocation.watchPosition(
    (position) => {
      const now = Date.now();
      if (now - lastSentMs < MIN_INTERVAL_MS) return;
      lastSentMs = now;
      const { coords } = position;
      const fix: PositionFix = {
        latitude: coords.latitude,
        longitude: coords.longitude,
        accuracyMetres: Number.isFinite(coords.accuracy) ? coords.accuracy : null,
        speedMs: finite(coords.speed),
        heading: finite(coords.heading),
        time: new Date(position.timestamp).toISOString(),
      };
      sendPosition(key, fix).then(
        () => onState('sending'),
        (error: unknown) => {
          if (error instanceof KeyRefused) onKeyRefused();
          // Offline: the next position is tried as usual.
          lastSentMs = 0;
        },
      );
    },
    (error) => onState(error.code === error.PERMISSION_DENIED ? 'denied' : 'waiting'),
    { enableHighAccuracy: true, maximumAge: 10_000, timeout: 60_000 },
  );
  return () => navigator.geolocation.clearWatch(watch);
}

/** A reading of the Geolocation API, null where the phone has none (null, or NaN when standing still). */
function finite(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}
