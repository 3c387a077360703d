import type { Account } from '../accounts/accounts.js';
import type { Period } from '../http/list-params.js';
import type { DayEdges, FixMetrics, ReportData, ReportEvent, ReportTrack, ReportZoneVisit } from '../positioning/positioning.js';
import { localDays, type LocalDay } from './report-days.js';
import { EVENT } from './report-events.js';
import type { Page, ReportRow } from './report-schema.js';

export const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** What one vehicle did on one day, before it is cut into the summary's or the fuel report's columns. */
export interface VehicleDay {
  subscriberId: number;
  day: LocalDay;
  edges: DayEdges | null;
  tracks: ReportTrack[];
  events: ReportEvent[];
  visits: ReportZoneVisit[];
}

/**
 * The daily reports cover every day of the account's zone that the period touches, whole, for every
 * employee chosen: one record per employee and day (a day without fixes has zeros), so a page is a
 * run of that grid and costs only what its employees did. Totals are differences of the pipeline's
 * running totals at the day's edges, as route 7 (interval 1) computes them for that day.
 */
export async function dailyRows<R>(
  data: ReportData,
  account: Account,
  ids: number[],
  period: Period,
  page: Page | null,
  /** `full`: tracks, zone visits and every event type read (the summary), not only fillings and drains. */
  { full, recordOf }: { full: boolean; recordOf: (day: VehicleDay) => R },
): Promise<ReportRow<R>[]> {
  return (await vehicleDays(data, account, ids, period, page, full)).map((d) => ({ subscriberId: d.subscriberId, record: recordOf(d) }));
}

async function vehicleDays(data: ReportData, account: Account, ids: number[], period: Period, page: Page | null, full: boolean): Promise<VehicleDay[]> {
  const days = localDays(period.fromMs, period.toMs, account.timeZone);
  if (days.length === 0 || ids.length === 0) return [];
  const first = page ? Math.floor(page.offset / days.length) : 0;
  const last = page ? Math.floor((page.offset + page.limit - 1) / days.length) : ids.length - 1;
  const chosen = ids.slice(first, last + 1);
  if (chosen.length === 0) return [];
  const fromMs = days[0]!.fromMs;
  const toMs = days.at(-1)!.toMs - 1;
  const edges = await data.dayEdges(account.id, chosen, days);
  const events = await data.events(account.id, chosen, fromMs, toMs, full ? Object.values(EVENT) : [EVENT.filling, EVENT.drain]);
  const tracks = full ? await data.tracks(account.id, chosen, fromMs, toMs) : [];
  const visits = full ? await data.zoneVisits(account.id, chosen, fromMs, toMs) : [];

  const edgeOf = new Map(edges.map((e) => [`${e.subscriberId}:${e.day}`, e]));
  const [tracksOf, eventsOf, visitsOf] = [bySubscriber(tracks), bySubscriber(events), bySubscriber(visits)];
  const grid: VehicleDay[] = [];
  for (const subscriberId of chosen) {
    const [ownTracks, ownEvents, ownVisits] = [tracksOf.get(subscriberId) ?? [], eventsOf.get(subscriberId) ?? [], visitsOf.get(subscriberId) ?? []];
    days.forEach((day, i) => {
      const inDay = (ms: number) => ms >= day.fromMs && ms < day.toMs;
      grid.push({
        subscriberId,
        day,
        edges: edgeOf.get(`${subscriberId}:${i}`) ?? null,
        tracks: ownTracks.filter((t) => t.startMs < day.toMs && t.finishMs >= day.fromMs),
        events: ownEvents.filter((e) => inDay(e.eventMs)),
        visits: ownVisits.filter((v) => inDay(v.enteredMs)),
      });
    });
  }
  if (!page) return grid;
  const skip = page.offset - first * days.length;
  return grid.slice(skip, skip + page.limit);
}

function bySubscriber<T extends { subscriberId: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.subscriberId);
    if (group) group.push(row);
    else groups.set(row.subscriberId, [row]);
  }
  return groups;
}

const ZERO: FixMetrics = { cumDistanceM: 0, cumTrackM: 0, cumEngineS: 0, cumTrackEngineS: 0, fuelSmoothed: null, odoAnchorKm: null, odoAnchorCumM: 0, odoAnchorTrackM: 0 };

/** Route 7's figures (interval 1) over the day, from the totals at its edges. */
export function dayTotals(d: VehicleDay) {
  const start = d.edges?.start ?? ZERO;
  const end = d.edges?.end ?? ZERO;
  const sum = (type: number) => d.events.filter((e) => e.type === type).reduce((total, e) => total + e.value, 0);
  const fillsLitres = sum(EVENT.filling);
  const drainsLitres = sum(EVENT.drain);
  const startFuel = d.edges?.startFuel ?? null;
  const fuelUsed = startFuel !== null && end.fuelSmoothed !== null ? startFuel - end.fuelSmoothed : 0;
  const engineS = end.cumEngineS - start.cumEngineS;
  const trackEngineS = (end.cumTrackEngineS ?? 0) - (start.cumTrackEngineS ?? 0);
  return {
    mileageKm: d.edges ? round(Math.max(0, end.cumTrackM - start.cumTrackM) / 1000, 3) : 0,
    engineHours: d.edges ? round(engineS / 3600, 3) : 0,
    idleS: d.edges ? Math.max(0, Math.round(engineS - trackEngineS)) : 0,
    // A drain left the tank without being burnt: used = start + filled − drained − end.
    fuelConsumption: round(fuelUsed + fillsLitres - drainsLitres, 2),
    fillsLitres,
    drainsLitres,
    startFuel,
    endFuel: d.edges ? end.fuelSmoothed : null,
  };
}
