// A vehicle and its tracker, simulated second by second: a driver who accelerates, cruises, slows
// for turns and stops at traffic lights along a polyline; a tracker that samples every 10 s with the
// ignition on and every 30 s with it off, sends a fix at each ignition change, and loses the odd
// packet. Readings carry realistic noise: GPS positions wander within 15-30 m while parked and
// scatter 3 m while moving, fuel readings ±0.5 L, temperatures ±0.2 °C. Seeded, deterministic.
import { haversineMetres } from '../../src/geo/geo.js';
import { move, seededRandom, type LatLon } from './pipeline/fixtures.js';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
/** The tracker's period with the ignition on (driving, idling) and off (parked). */
export const DRIVING_EVERY_S = 10;
export const PARKED_EVERY_S = 30;
/** Half-width of the fuel reading noise; readings come rounded to hundredths of a litre. */
export const FUEL_NOISE_L = 0.5;
export const FUEL_DECIMALS = 2;
export const TEMPERATURE_NOISE_C = 0.2;
export const SENSOR = { coolant: 1, cargo: 2, door: 3 } as const;

const IDLE_L_PER_HOUR = 2;
const DRIVING_L_PER_KM = 0.28;
/** Share of periodic fixes the network loses (never the fix sent on an ignition change). */
const LOST_FIX_RATE = 0.01;
export const COVERAGE_GAP_SECONDS = 12 * 60;
export const LATE_BUFFER_SECONDS = 12 * 60;
const ACCELERATION = 1.1; // m/s²
const COMFORTABLE_BRAKING = 1.3; // m/s², what the driver plans with
const MAX_BRAKING = 3; // m/s²

/** One location as the ingestion route takes it, without `subscriberID`. */
export interface LocationBody {
  locationDate: string;
  isValid: boolean;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
  fuelLevel: number;
  ignition: boolean;
  sensors: { sensorID: number; value: number }[];
}

export interface DayFix {
  timeMs: number;
  body: LocationBody;
  /** Held back by the tracker (no mobile network) and sent after the rest of the day. */
  withheld: boolean;
  /** What is really in the tank; the reading is this plus noise. */
  trueFuelL: number;
}

// ---------------------------------------------------------------------------------------------
// Geometry

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The index of the polyline segment `s` metres along it lies on. */
function segmentAt(cum: number[], s: number): number {
  let i = 0;
  while (i < cum.length - 2 && cum[i + 1]! <= s) i++;
  return i;
}

export function bearingDeg(a: LatLon, b: LatLon): number {
  const y = Math.sin(rad(b.lon - a.lon)) * Math.cos(rad(b.lat));
  const x = Math.cos(rad(a.lat)) * Math.sin(rad(b.lat)) - Math.sin(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.cos(rad(b.lon - a.lon));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

export const metres = (a: LatLon, b: LatLon) => haversineMetres(a.lat, a.lon, b.lat, b.lon);

/** A road: a polyline with a cruising speed per segment, traffic lights and stretches where the driver speeds. */
export interface Road {
  points: LatLon[];
  kmh: number[];
  lights: { atM: number; holdS: number }[];
  speeding: { fromM: number; toM: number; kmh: number }[];
}

export interface Leg {
  metres: number;
  bearing: number;
  kmh: number;
  /** Traffic lights on this leg, as fractions of its length, with how long the driver waits. */
  lights?: { at: number; holdS: number }[];
  /** A stretch of this leg (fractions) driven at `kmh` instead. */
  speeding?: { from: number; to: number; kmh: number };
}

export function buildRoad(from: LatLon, legs: Leg[]): Road {
  const road: Road = { points: [from], kmh: [], lights: [], speeding: [] };
  let at = from;
  let done = 0;
  for (const leg of legs) {
    at = move(at, leg.metres, leg.bearing);
    road.points.push(at);
    road.kmh.push(leg.kmh);
    for (const light of leg.lights ?? []) road.lights.push({ atM: done + light.at * leg.metres, holdS: light.holdS });
    if (leg.speeding) road.speeding.push({ fromM: done + leg.speeding.from * leg.metres, toM: done + leg.speeding.to * leg.metres, kmh: leg.speeding.kmh });
    done += leg.metres;
  }
  return road;
}

// ---------------------------------------------------------------------------------------------
// The vehicle and its tracker

type Standing = 'parked' | 'traffic';

export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

const inside = (windows: TimeWindow[], t: number) => windows.some((w) => t >= w.fromMs && t < w.toMs);

/** When a drive really began and ended: the first and last second the wheels turned. */
export interface Drive {
  name: string;
  departureMs: number;
  arrivalMs: number;
}

export interface DriveOptions {
  /** Seconds after departure: no fixes at all for COVERAGE_GAP_SECONDS (a dead zone). */
  silenceAfterS?: number;
  /** Seconds after departure: fixes taken but held back for LATE_BUFFER_SECONDS (no mobile data). */
  withholdAfterS?: number;
  /** Seconds after departure: the engine overheats for a minute or two (a long climb). */
  overheatAfterS?: number;
  /** Seconds after departure: one fix comes out invalid (a tunnel). */
  invalidAfterS?: number;
}

const WILD_FIXES: Pick<LocationBody, 'latitude' | 'longitude' | 'velocity'>[] = [
  { latitude: 0, longitude: 0, velocity: 0 },
  { latitude: 58.3912, longitude: 33.3187, velocity: 212 },
  { latitude: -33.8568, longitude: 151.2153, velocity: 4 },
  { latitude: 89.9, longitude: -179.9, velocity: 120 },
];

export class VehicleSimulation {
  readonly fixes: DayFix[] = [];
  readonly random: () => number;
  t: number;
  /** Where the vehicle really is. */
  position: LatLon;
  private heading = 0;
  private speedMs = 0;
  ignition = false;
  fuelL = 96;
  /** Litres per second going in (+) or out (−) of the tank while parked. */
  pumpLps = 0;
  doorOpen = false;
  private coolantC = 22;
  private cargoC = -18;
  private overheatFromMs: number | null = null;
  /** How far parked fixes scatter at the current parking place. */
  private jitterM = 20;
  private offset = { north: 0, east: 0 };
  private standing: Standing = 'parked';
  private nextSampleMs: number;
  private forceFix = false;
  private wildIndex = 0;
  /** Dead zones: nothing gets through. */
  readonly silences: TimeWindow[] = [];
  /** No mobile data: fixes are taken and held back. */
  readonly withheld: TimeWindow[] = [];
  readonly invalidAt: number[] = [];
  readonly drives: Drive[] = [];
  burntL = 0;
  private onSinceMs = 0;
  /** From the fix that reported the ignition on to the fix that reported it off. */
  readonly ignitionOn: [number, number][] = [];

  constructor(seed: number, startMs: number, depot: LatLon) {
    this.random = seededRandom(seed);
    this.t = startMs;
    this.position = depot;
    this.nextSampleMs = startMs;
    this.jitterM = this.between(15, 30);
    this.emit(true);
  }

  between(low: number, high: number): number {
    return low + this.random() * (high - low);
  }

  /** Standing still for `seconds` (engine on or off). */
  stand(seconds: number, standing: Standing = 'parked'): void {
    this.standing = standing;
    this.speedMs = 0;
    for (let i = 0; i < seconds; i++) this.tick(0);
  }

  standUntil(ms: number): void {
    if (ms < this.t) throw new Error(`day schedule overrun: ${new Date(this.t).toISOString()} is past ${new Date(ms).toISOString()}`);
    this.stand(Math.round((ms - this.t) / SECOND));
  }

  /** The ignition turns on or off; the tracker sends a fix at once (one second later, to keep instants distinct). */
  setIgnition(on: boolean): void {
    this.ignition = on;
    this.forceFix = true;
    this.tick(0);
    if (on) this.onSinceMs = this.t;
    else this.ignitionOn.push([this.onSinceMs, this.t]);
  }

  /** Parks at a new place: the GPS scatter there is its own. */
  arrivePlace(): void {
    this.jitterM = this.between(15, 30);
    this.offset = { north: 0, east: 0 };
    this.parkedPosition();
  }

  /**
   * Where a parked fix lands: a receiver standing still wanders around the true point (the error
   * drifts from fix to fix) and stays within the place's scatter radius.
   */
  private parkedPosition(): LatLon {
    const step = 8 * Math.sqrt(this.random());
    const direction = this.random() * 2 * Math.PI;
    let north = this.offset.north + step * Math.cos(direction);
    let east = this.offset.east + step * Math.sin(direction);
    const r = Math.hypot(north, east);
    if (r > this.jitterM) {
      north *= this.jitterM / r;
      east *= this.jitterM / r;
    }
    this.offset = { north, east };
    return move(this.position, Math.hypot(north, east), (Math.atan2(east, north) * 180) / Math.PI);
  }

  /** Pumps `litres` in (positive) or out (negative) over `seconds`, parked. */
  pump(litres: number, seconds: number): void {
    this.pumpLps = litres / seconds;
    this.stand(seconds);
    this.pumpLps = 0;
  }

  drive(name: string, road: Road, options: DriveOptions = {}): Drive {
    const cum = [0];
    for (let i = 1; i < road.points.length; i++) cum.push(cum[i - 1]! + metres(road.points[i - 1]!, road.points[i]!));
    const length = cum.at(-1)!;
    // Where the driver must be at most at a given speed: turns (slower the sharper), lights (0), the end (0).
    const turns: { atM: number; vMs: number }[] = [];
    for (let i = 1; i < road.points.length - 1; i++) {
      const a = bearingDeg(road.points[i - 1]!, road.points[i]!);
      const b = bearingDeg(road.points[i]!, road.points[i + 1]!);
      const turn = Math.abs(((b - a + 540) % 360) - 180);
      if (turn > 20) turns.push({ atM: cum[i]!, vMs: (turn > 60 ? 18 : 28) / 3.6 });
    }
    const stops = [...road.lights.map((l) => ({ atM: l.atM, holdS: l.holdS })), { atM: length, holdS: 0 }].sort((a, b) => a.atM - b.atM);

    const departureMs = this.t;
    if (options.silenceAfterS !== undefined) this.silences.push({ fromMs: departureMs + options.silenceAfterS * SECOND, toMs: departureMs + (options.silenceAfterS + COVERAGE_GAP_SECONDS) * SECOND });
    if (options.withholdAfterS !== undefined) this.withheld.push({ fromMs: departureMs + options.withholdAfterS * SECOND, toMs: departureMs + (options.withholdAfterS + LATE_BUFFER_SECONDS) * SECOND });
    if (options.overheatAfterS !== undefined) this.overheatFromMs = departureMs + options.overheatAfterS * SECOND;
    if (options.invalidAfterS !== undefined) {
      this.invalidAt.push(departureMs + options.invalidAfterS * SECOND);
      this.invalidAt.sort((a, b) => a - b);
    }

    let s = 0;
    let drift = 0;
    for (;;) {
      const stop = stops[0]!;
      drift = Math.max(-3, Math.min(3, drift + this.between(-0.4, 0.4)));
      const zone = road.speeding.find((z) => s >= z.fromM && s < z.toM);
      let target = ((zone ? zone.kmh : road.kmh[segmentAt(cum, s)]!) + drift) / 3.6;
      for (const limit of [...turns.filter((c) => c.atM > s), { atM: stop.atM, vMs: 0 }]) {
        const d = limit.atM - s;
        if (d < 400) target = Math.min(target, Math.sqrt(limit.vMs ** 2 + 2 * COMFORTABLE_BRAKING * d));
      }
      const v = this.speedMs;
      const next = target > v ? Math.min(target, v + ACCELERATION) : Math.max(target, v - MAX_BRAKING, 0);
      const step = (v + next) / 2;
      if (stop.atM - s - step < 0.5) {
        // At the light (or the destination): the last metres, then standing there.
        const lastM = stop.atM - s;
        s = stop.atM;
        this.advance(road, cum, s, lastM, 0);
        stops.shift();
        if (stops.length === 0) break;
        this.stand(stop.holdS, 'traffic');
        continue;
      }
      s += step;
      this.advance(road, cum, s, step, next);
    }
    const drive: Drive = { name, departureMs, arrivalMs: this.t };
    this.drives.push(drive);
    return drive;
  }

  /** One second of driving that ends `s` metres along the road at `speedMs`. */
  private advance(road: Road, cum: number[], s: number, stepM: number, speedMs: number): void {
    const i = segmentAt(cum, s);
    const a = road.points[i]!;
    const b = road.points[i + 1]!;
    const f = Math.min(1, (s - cum[i]!) / (cum[i + 1]! - cum[i]!));
    this.position = { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
    this.heading = bearingDeg(a, b);
    this.speedMs = speedMs;
    this.standing = 'traffic';
    this.tick(stepM);
  }

  /** One second passes; `stepM` metres were driven in it. */
  private tick(stepM: number): void {
    this.t += SECOND;
    if (this.ignition) {
      const burnt = IDLE_L_PER_HOUR / 3600 + (DRIVING_L_PER_KM * stepM) / 1000;
      this.fuelL -= burnt;
      this.burntL += burnt;
    }
    this.fuelL += this.pumpLps;
    this.coolantC += this.ignition ? (90 - this.coolantC) / 240 : (22 - this.coolantC) / 1800;
    this.cargoC = this.doorOpen ? Math.min(-6, this.cargoC + 2.4 / 60) : Math.max(-18, this.cargoC - 1.5 / 60);
    if (this.forceFix || this.t >= this.nextSampleMs) this.emit(this.forceFix);
  }

  private coolantReading(): number {
    if (this.overheatFromMs !== null && this.t >= this.overheatFromMs) {
      // Two degrees per 10 s up to 109 °C and back down: one clean excursion above 105.
      const s = (this.t - this.overheatFromMs) / SECOND;
      if (s < 190) return 90 + 0.2 * (s < 95 ? s : 190 - s);
      this.overheatFromMs = null;
    }
    return this.coolantC;
  }

  private emit(forced: boolean): void {
    this.forceFix = false;
    this.nextSampleMs = this.t + (this.ignition ? DRIVING_EVERY_S : PARKED_EVERY_S) * SECOND;
    if (inside(this.silences, this.t)) return;
    const invalid = this.invalidAt.length > 0 && this.t >= this.invalidAt[0]! && !forced;
    if (invalid) this.invalidAt.shift();
    else if (!forced && this.random() < LOST_FIX_RATE) return;

    const moving = this.speedMs > 0;
    const seen = moving || this.standing === 'traffic' ? move(this.position, 3 * Math.sqrt(this.random()), this.random() * 360) : this.parkedPosition();
    const noise = (half: number) => this.between(-half, half);
    const velocity = moving ? Math.max(0, this.speedMs * 3.6 + noise(0.8)) : this.between(0, 3);
    const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
    const body: LocationBody = {
      locationDate: new Date(this.t).toISOString(),
      isValid: true,
      latitude: round(seen.lat, 7),
      longitude: round(seen.lon, 7),
      angle: Math.round(this.heading) % 360,
      velocity: round(velocity, 1),
      fuelLevel: round(this.fuelL + noise(FUEL_NOISE_L), FUEL_DECIMALS),
      ignition: this.ignition,
      sensors: [
        { sensorID: SENSOR.coolant, value: round(this.coolantReading() + noise(TEMPERATURE_NOISE_C), 1) },
        { sensorID: SENSOR.cargo, value: round(this.cargoC + noise(TEMPERATURE_NOISE_C), 1) },
        { sensorID: SENSOR.door, value: this.doorOpen ? 1 : 0 },
      ],
    };
    if (invalid) {
      // No satellite fix: the receiver reports garbage, which must take no part in anything.
      Object.assign(body, WILD_FIXES[this.wildIndex++ % WILD_FIXES.length], { isValid: false });
      // And once an engine temperature far over its limit, which must raise nothing either.
      if (this.wildIndex === 3) body.sensors[0]!.value = 150;
    }
    this.fixes.push({ timeMs: this.t, body, withheld: inside(this.withheld, this.t), trueFuelL: this.fuelL });
  }
}
