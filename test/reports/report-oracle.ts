// The reports' figures computed by brute force from the raw fixes of generated days (and the trips
// the day generator derives from them by the rules of CONTRACT §2), with none of the pipeline's code:
// every fix is looked at again, so a month of them is scanned, which is what the reports must not do.
import type { DayFix, TripTruth } from '../positioning/day-generator.js';
import type { LatLon } from '../positioning/pipeline/fixtures.js';

const GAP_S = 600;
const EXIT_MARGIN_M = 50;
const METRES_PER_DEGREE = 111_320;

export interface OracleDay {
  date: string;
  fromMs: number;
  toMs: number;
}

export interface OracleZone {
  zoneID: number;
  name: string;
  ring: LatLon[];
}

export interface DayFigures {
  date: string;
  mileageM: number;
  trips: number;
  drivingS: number;
  engineS: number;
  idleS: number;
  maxSpeed: number | null;
  startFuel: number | null;
  endFuel: number | null;
}

export interface OracleStop {
  startMs: number;
  finishMs: number | null;
  idleS: number;
}

export interface OracleVisit {
  zoneID: number;
  enteredMs: number;
  leftMs: number | null;
}

/** A vehicle's whole history: its valid fixes in time order and its trips. */
export class VehicleOracle {
  readonly valid: DayFix[];

  constructor(
    fixes: readonly DayFix[],
    readonly trips: readonly TripTruth[],
  ) {
    this.valid = fixes.filter((f) => f.body.isValid).sort((a, b) => a.timeMs - b.timeMs);
  }

  /** Engine seconds between two consecutive valid fixes: with the ignition on at the first, at most the gap threshold. */
  private static engineBetween(p: DayFix, q: DayFix): number {
    return p.body.ignition ? Math.min((q.timeMs - p.timeMs) / 1000, GAP_S) : 0;
  }

  private inTrip(p: DayFix, q: DayFix): boolean {
    return this.trips.some((t) => p.timeMs >= t.startMs && q.timeMs <= t.finishMs);
  }

  /** The median of the last five fuel readings up to fix i (the smoothing of CONTRACT §2). */
  private smoothedFuel(i: number): number {
    const readings = this.valid.slice(Math.max(0, i - 4), i + 1).map((f) => f.body.fuelLevel).sort((a, b) => a - b);
    const middle = Math.floor(readings.length / 2);
    return readings.length % 2 ? readings[middle]! : (readings[middle - 1]! + readings[middle]!) / 2;
  }

  day(day: OracleDay): DayFigures {
    const inDay = (ms: number) => ms >= day.fromMs && ms < day.toMs;
    let engineS = 0;
    let idleS = 0;
    for (let i = 1; i < this.valid.length; i++) {
      const [p, q] = [this.valid[i - 1]!, this.valid[i]!];
      if (!inDay(q.timeMs)) continue;
      const seconds = VehicleOracle.engineBetween(p, q);
      engineS += seconds;
      if (!this.inTrip(p, q)) idleS += seconds;
    }
    const trips = this.trips.filter((t) => t.startMs < day.toMs && t.finishMs >= day.fromMs);
    const speeds = this.valid.filter((f) => trips.some((t) => f.timeMs >= t.startMs && f.timeMs <= t.finishMs)).map((f) => f.body.velocity);
    const first = this.valid.findIndex((f) => inDay(f.timeMs));
    const last = this.valid.findLastIndex((f) => inDay(f.timeMs));
    return {
      date: day.date,
      mileageM: trips.reduce((sum, t) => sum + t.distanceM, 0),
      trips: trips.filter((t) => t.startMs >= day.fromMs).length,
      drivingS: trips.reduce((sum, t) => sum + (Math.min(t.finishMs, day.toMs) - Math.max(t.startMs, day.fromMs)) / 1000, 0),
      engineS,
      idleS,
      maxSpeed: speeds.length ? Math.max(...speeds) : null,
      startFuel: first >= 0 ? this.smoothedFuel(first) : null,
      endFuel: last >= 0 ? this.smoothedFuel(last) : null,
    };
  }

  /** The time between consecutive trips, with the engine time in it; the last one open. */
  stops(): OracleStop[] {
    const stops: OracleStop[] = [];
    this.trips.forEach((trip, i) => {
      const next = this.trips[i + 1];
      const untilMs = next ? next.startMs : this.valid.at(-1)!.timeMs;
      let idleS = 0;
      for (let k = 1; k < this.valid.length; k++) {
        const [p, q] = [this.valid[k - 1]!, this.valid[k]!];
        if (p.timeMs >= trip.finishMs && q.timeMs <= untilMs) idleS += VehicleOracle.engineBetween(p, q);
      }
      stops.push({ startMs: trip.finishMs, finishMs: next ? next.startMs : null, idleS });
    });
    return stops;
  }

  /**
   * Zone visits by the boundary rule of the zone signals: entered at the first fix inside (even-odd
   * rule, the boundary inside), left at the first fix outside whose surroundings, 25 and 50 m away in
   * the eight compass directions, are outside too.
   */
  visits(zones: readonly OracleZone[]): OracleVisit[] {
    const visits: OracleVisit[] = [];
    const open = new Map<number, OracleVisit>();
    for (const fix of this.valid) {
      const at = { lat: fix.body.latitude, lon: fix.body.longitude };
      for (const zone of zones) {
        const inside = contains(zone.ring, at);
        const visit = open.get(zone.zoneID);
        if (inside && !visit) {
          const entered = { zoneID: zone.zoneID, enteredMs: fix.timeMs, leftMs: null };
          open.set(zone.zoneID, entered);
          visits.push(entered);
        } else if (!inside && visit && clearOf(zone.ring, at)) {
          visit.leftMs = fix.timeMs;
          open.delete(zone.zoneID);
        }
      }
    }
    return visits.sort((a, b) => a.enteredMs - b.enteredMs || a.zoneID - b.zoneID);
  }
}

/** Even-odd ray casting; a point on an edge counts as inside. */
export function contains(ring: readonly LatLon[], point: LatLon): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    const cross = (b.lon - a.lon) * (point.lat - a.lat) - (b.lat - a.lat) * (point.lon - a.lon);
    const within = Math.min(a.lon, b.lon) <= point.lon && point.lon <= Math.max(a.lon, b.lon) && Math.min(a.lat, b.lat) <= point.lat && point.lat <= Math.max(a.lat, b.lat);
    if (cross === 0 && within) return true;
    if (a.lat > point.lat !== b.lat > point.lat && point.lon < ((b.lon - a.lon) * (point.lat - a.lat)) / (b.lat - a.lat) + a.lon) inside = !inside;
  }
  return inside;
}

function clearOf(ring: readonly LatLon[], point: LatLon): boolean {
  const perLon = METRES_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180);
  for (const distanceM of [EXIT_MARGIN_M / 2, EXIT_MARGIN_M]) {
    for (let k = 0; k < 8; k++) {
      const angle = (k * Math.PI) / 4;
      const probe = { lat: point.lat + (distanceM * Math.cos(angle)) / METRES_PER_DEGREE, lon: point.lon + (distanceM * Math.sin(angle)) / perLon };
      if (contains(ring, probe)) return false;
    }
  }
  return true;
}
