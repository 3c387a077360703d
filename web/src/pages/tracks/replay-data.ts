import { api, query } from '../../api';
import { t } from '../../i18n/i18n';
import { eventName, eventValue, loadEvents, loadFuel, loadLocations, mergeReadings, type Period, type Reading, type Track } from './day-data';
import type { PathPoint } from './replay-motion';
import { findStops, type Stop } from './stops';

/** What the replay shows of some employees over a period, read through the v6 routes. */

const BASE = '/v6/api/globalPositioningManagement';
const PAGE = 1000;

/** Colours of the employees' lines and markers, in the order they were chosen. */
export const REPLAY_COLOURS = ['#1f5fbf', '#c2185b', '#0f7a6c', '#b5531f', '#6a3fb5', '#3f6b1f', '#8a5a00', '#00838f'];

/** Something that happened on the way: a vehicle event or entering a zone. */
export interface ReplayEvent {
  kind: 'vehicle' | 'zone';
  /** The vehicle event's type (interface 2.3); 0 for a zone entry. */
  type: number;
  timeMs: number;
  latitude: number;
  longitude: number;
  /** What happened, in the user's language. */
  what: string;
  /** Its value with a unit, or the zone's name. */
  detail: string;
}

export interface ReplayEmployee {
  subscriberID: number;
  name: string;
  colour: string;
  /** Valid fixes, oldest first: the line, and where the marker moves. */
  path: PathPoint[];
  stops: Stop[];
  events: ReplayEvent[];
  readings: Reading[];
}

export interface Replay {
  /** The chosen period. */
  period: Period;
  /** The span of the data: from the earliest valid fix of anyone to the latest. */
  startMs: number;
  endMs: number;
  employees: ReplayEmployee[];
}

interface ZoneVisit {
  zoneName: string;
  enteredDate: string;
  latitude: number;
  longitude: number;
}

/** Zone entries of the period, from the zone visits report (a visit entered before the period is not an entry in it). */
async function loadZoneEntries(subscriberID: number, period: Period, fromMs: number): Promise<ReplayEvent[]> {
  const entries: ReplayEvent[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const body = await api.get<{ data: { records: ZoneVisit[] }[] }>(
      `/v6/api/reports/zoneVisits${query({ subscriberIDs: subscriberID, dateFrom: period.from, dateTo: period.to, count: PAGE, offset })}`,
    );
    const records = body.data.flatMap((group) => group.records);
    for (const visit of records) {
      const timeMs = Date.parse(visit.enteredDate);
      if (timeMs >= fromMs) entries.push({ kind: 'zone', type: 0, timeMs, latitude: visit.latitude, longitude: visit.longitude, what: t('replay.zoneEntry'), detail: visit.zoneName });
    }
    if (records.length < PAGE) return entries;
  }
}

async function loadEmployee(subscriberID: number, name: string, colour: string, period: Period, fromMs: number, toMs: number): Promise<ReplayEmployee> {
  const [locations, tracks, vehicleEvents, fuel, zoneEntries] = await Promise.all([
    loadLocations(subscriberID, period),
    api.get<Track[]>(`${BASE}/tracks${query({ subscriberIDs: subscriberID, dateFrom: period.from, dateTo: period.to, count: PAGE })}`),
    loadEvents(subscriberID, period),
    loadFuel(subscriberID, period),
    loadZoneEntries(subscriberID, period, fromMs),
  ]);
  const path = locations
    .filter((l) => l.isValid)
    .map((l) => ({ timeMs: Date.parse(l.locationDate), latitude: l.latitude, longitude: l.longitude, speedKmh: l.velocity }))
    .sort((a, b) => a.timeMs - b.timeMs);
  const stopTracks = tracks.map((track) => ({ ...track, startMs: Date.parse(track.startDate), finishMs: Date.parse(track.finishDate) })).sort((a, b) => a.startMs - b.startMs);
  const events: ReplayEvent[] = vehicleEvents.map((e) => ({
    kind: 'vehicle',
    type: e.type,
    timeMs: Date.parse(e.eventDate),
    latitude: e.latitude,
    longitude: e.longitude,
    what: eventName(e.type),
    detail: eventValue(e.type, e.value),
  }));
  return {
    subscriberID,
    name,
    colour,
    path,
    stops: findStops(stopTracks, locations, fromMs, toMs),
    events: [...events, ...zoneEntries].sort((a, b) => a.timeMs - b.timeMs),
    readings: mergeReadings(locations, fuel),
  };
}

/** Loads the period for each employee (a few at a time: each is several requests). */
export async function loadReplay(employees: { subscriberID: number; name: string }[], period: Period, fromMs: number, toMs: number): Promise<Replay> {
  const loaded = await Promise.all(employees.map((e, i) => loadEmployee(e.subscriberID, e.name, REPLAY_COLOURS[i % REPLAY_COLOURS.length]!, period, fromMs, toMs)));
  const times = loaded.flatMap((e) => (e.path.length ? [e.path[0]!.timeMs, e.path.at(-1)!.timeMs] : []));
  return {
    period,
    startMs: times.length ? Math.min(...times) : fromMs,
    endMs: times.length ? Math.max(...times) : toMs,
    employees: loaded,
  };
}
