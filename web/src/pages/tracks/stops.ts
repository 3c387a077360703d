/** The Tracks view's stops, from the day's tracks and fixes: pure, so tested without a browser. */

/** Time standing still between tracks, or between a track and the day's edge. */
export interface Stop {
  fromMs: number;
  toMs: number;
  latitude: number;
  longitude: number;
  /** Where it is, as the track that ended or began there names it. */
  address: string;
}

/** What a stop needs of a track (a `DayTrack`). */
export interface StopTrack {
  startMs: number;
  finishMs: number;
  startLat: number;
  startLon: number;
  finishLat: number;
  finishLon: number;
  startAddress: string;
  finishAddress: string;
}

/** What a stop needs of a fix (a `Location`). */
export interface StopFix {
  locationDate: string;
  latitude: number;
  longitude: number;
  isValid: boolean;
}

/**
 * Stops: the gaps between consecutive tracks, and from the day's first valid fix to the first
 * track and from the last track to the day's last valid fix. A stop begins and ends where data
 * exists: a vehicle first heard at 22:13 did not stand still since midnight. With no track at all,
 * one stop from the first valid fix to the last.
 */
export function findStops(tracks: readonly StopTrack[], locations: readonly StopFix[], startMs: number, endMs: number): Stop[] {
  const stops: Stop[] = [];
  const add = (fromMs: number, toMs: number, latitude: number, longitude: number, address: string) => {
    const from = Math.max(fromMs, startMs);
    const to = Math.min(toMs, endMs);
    if (to > from) stops.push({ fromMs: from, toMs: to, latitude, longitude, address });
  };
  // Locations come newest first.
  const valid = locations.filter((l) => l.isValid);
  const last = valid[0];
  const first = valid.at(-1);
  if (!first || !last) return stops;
  const firstMs = Date.parse(first.locationDate);
  const lastMs = Date.parse(last.locationDate);
  if (tracks.length === 0) {
    add(firstMs, lastMs, last.latitude, last.longitude, `${last.latitude.toFixed(5)}, ${last.longitude.toFixed(5)}`);
    return stops;
  }
  const firstTrack = tracks[0]!;
  add(firstMs, firstTrack.startMs, firstTrack.startLat, firstTrack.startLon, firstTrack.startAddress);
  tracks.forEach((track, i) => {
    const next = tracks[i + 1];
    add(track.finishMs, next ? next.startMs : lastMs, track.finishLat, track.finishLon, track.finishAddress);
  });
  return stops;
}
