import { api, query } from '../../api';
import type { Location } from '../../types';
import { findStops, type Stop } from './stops';
import { dayBoundsMs } from './zoned-time';
import { formatLitres, formatNumber, formatSpeed } from '../../i18n/format';
import { t, type PlainKey } from '../../i18n/i18n';

/** What the Tracks view shows of one employee's local day, all read through the v6 routes. */

const BASE = '/v6/api/globalPositioningManagement';
const PAGE = 1000;

/** Interface 2.2. */
export interface Track {
  trackID: number;
  subscriberID: number;
  startDate: string;
  finishDate: string;
  startAddress: string;
  finishAddress: string;
  startLat: number;
  startLon: number;
  finishLat: number;
  finishLon: number;
  distance: number;
  duration: number;
}

/** Interface 2.3. */
export interface VehicleEvent {
  type: number;
  latitude: number;
  longitude: number;
  value: number;
  eventDate: string;
}

export interface StatisticsRecord {
  endFuelLevel: number | null;
  locationDate: string;
}

/** A track with its fixes (oldest first) and its times as instants. */
export interface DayTrack extends Track {
  startMs: number;
  finishMs: number;
  points: [number, number][];
}

export interface DayEvent extends VehicleEvent {
  timeMs: number;
}

/** One point of the chart: speed from a valid fix, fuel from the statistics of a valid fix. */
export interface Reading {
  timeMs: number;
  speedKmh: number | null;
  fuelLitres: number | null;
}

export interface Day {
  day: string;
  startMs: number;
  endMs: number;
  /** Fixes of the day, valid or not: none means there is nothing to show. */
  fixCount: number;
  tracks: DayTrack[];
  stops: Stop[];
  events: DayEvent[];
  readings: Reading[];
}

const EVENT_TYPES: Record<number, { name: PlainKey; unit: 'l' | 'kmh' | '' }> = {
  1: { name: 'tracks.eventFill', unit: 'l' },
  2: { name: 'tracks.eventDrain', unit: 'l' },
  3: { name: 'tracks.eventSensor', unit: '' },
  4: { name: 'tracks.eventSpeeding', unit: 'kmh' },
  5: { name: 'tracks.eventProlonged', unit: 'kmh' },
};

export const eventName = (type: number) => {
  const known = EVENT_TYPES[type];
  return known ? t(known.name) : t('tracks.eventN', { type });
};

/** An event's value with its unit: litres to 0.1, speeds in whole km/h. */
export function eventValue(type: number, value: number): string {
  const unit = EVENT_TYPES[type]?.unit;
  return unit === 'l' ? formatLitres(value) : unit === 'kmh' ? formatSpeed(value) : formatNumber(value, 2);
}

/**
 * Loads the local day `day` (account zone) of one employee. The period is sent without an offset,
 * so the server reads it in the account's zone too; `.999` keeps the next midnight out.
 */
export async function loadDay(subscriberID: number, day: string, timeZone: string, nowMs = Date.now()): Promise<Day> {
  const { startMs, endMs } = dayBoundsMs(day, timeZone);
  const period = { from: `${day}T00:00:00`, to: `${day}T23:59:59.999` };
  const [tracks, events, locations, fuel] = await Promise.all([
    api.get<Track[]>(`${BASE}/tracks${query({ subscriberIDs: subscriberID, dateFrom: period.from, dateTo: period.to, count: PAGE })}`),
    loadEvents(subscriberID, period),
    loadLocations(subscriberID, period),
    loadFuel(subscriberID, period),
  ]);
  const dayTracks = await loadTrackPoints(tracks);
  return {
    day,
    startMs,
    endMs,
    fixCount: locations.length,
    tracks: dayTracks,
    stops: findStops(dayTracks, locations, startMs, Math.min(endMs, nowMs)),
    events: events.map((e) => ({ ...e, timeMs: Date.parse(e.eventDate) })),
    readings: mergeReadings(locations, fuel),
  };
}

/** Local date-times of the account's zone, without an offset: the server reads them in that zone too. */
export type Period = { from: string; to: string };

/** All the day's fixes: the list is newest first and pages by the last id seen (CONTRACT §1). */
export async function loadLocations(subscriberID: number, period: Period): Promise<Location[]> {
  const all: Location[] = [];
  let lastLocationID: number | undefined;
  for (;;) {
    const page = await api.get<Location[]>(
      `${BASE}/locations${query({ subscriberIDs: subscriberID, dateFrom: period.from, dateTo: period.to, count: PAGE, lastLocationID })}`,
    );
    all.push(...page);
    const last = page.at(-1)?.locationID;
    if (page.length < PAGE || last === undefined) return all;
    lastLocationID = last;
  }
}

/** Events and statistics page by `offset` over records, before grouping. */
async function loadPaged<T>(path: (offset: number) => string, records: (body: { data: Record<string, unknown>[] }) => T[]): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = records(await api.get<{ data: Record<string, unknown>[] }>(path(offset)));
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

export function loadEvents(subscriberID: number, period: Period): Promise<VehicleEvent[]> {
  return loadPaged(
    (offset) => `${BASE}/events${query({ subscriberIDs: subscriberID, startDate: period.from, finishDate: period.to, count: PAGE, offset })}`,
    (body) => body.data.flatMap((group) => group.events as VehicleEvent[]),
  );
}

/**
 * The fuel level over the day: statistics with interval 3 give one record per valid fix, its
 * `endFuelLevel` the smoothed level at that fix (CONTRACT §2), which is what a chart should show.
 */
export function loadFuel(subscriberID: number, period: Period): Promise<StatisticsRecord[]> {
  return loadPaged(
    (offset) => `${BASE}/statistics${query({ subscriberIDs: subscriberID, dateFrom: period.from, dateTo: period.to, interval: 3, count: PAGE, offset })}`,
    (body) => body.data.flatMap((group) => group.statistics as StatisticsRecord[]),
  );
}

/** Each track's fixes, a few requests at a time. */
async function loadTrackPoints(tracks: Track[]): Promise<DayTrack[]> {
  const result: DayTrack[] = new Array<DayTrack>(tracks.length);
  let next = 0;
  const worker = async () => {
    while (next < tracks.length) {
      const index = next++;
      const track = tracks[index]!;
      const fixes = await api.get<Location[]>(`${BASE}/tracks/${track.trackID}/locations`);
      result[index] = {
        ...track,
        startMs: Date.parse(track.startDate),
        finishMs: Date.parse(track.finishDate),
        points: fixes.map((f) => [f.latitude, f.longitude]),
      };
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return result.sort((a, b) => a.startMs - b.startMs);
}

/** One series of points in time order from the valid fixes' speeds and the fuel records. */
export function mergeReadings(locations: Location[], fuel: StatisticsRecord[]): Reading[] {
  const byTime = new Map<number, Reading>();
  const at = (timeMs: number) => {
    let reading = byTime.get(timeMs);
    if (!reading) byTime.set(timeMs, (reading = { timeMs, speedKmh: null, fuelLitres: null }));
    return reading;
  };
  // Invalid fixes carry whatever the receiver made up; they take no part (CONTRACT §2).
  for (const l of locations) if (l.isValid) at(Date.parse(l.locationDate)).speedKmh = l.velocity;
  for (const f of fuel) if (f.endFuelLevel !== null) at(Date.parse(f.locationDate)).fuelLitres = f.endFuelLevel;
  return [...byTime.values()].sort((a, b) => a.timeMs - b.timeMs);
}
