// A generator of realistic days of driving for one vehicle (simulated in vehicle-simulation.ts), and
// the truth about each day: the trips it made, the vehicle events it should raise and the statistics
// it should add up to. Seeded and deterministic (no Math.random), so a failing day can be generated
// again and looked at.
import { move, type LatLon } from './pipeline/fixtures.js';
import {
  bearingDeg,
  buildRoad,
  DRIVING_EVERY_S,
  FUEL_DECIMALS,
  FUEL_NOISE_L,
  HOUR,
  metres,
  MINUTE,
  SECOND,
  SENSOR,
  VehicleSimulation,
  type DayFix,
  type Drive,
  type DriveOptions,
  type Leg,
} from './vehicle-simulation.js';

export { DRIVING_EVERY_S, HOUR, MINUTE, PARKED_EVERY_S, SECOND, SENSOR, type DayFix, type LocationBody } from './vehicle-simulation.js';

/** Thresholds of CONTRACT §2 (account defaults) the truth is measured with. */
export const MOVE_SPEED_KMH = 5;
export const GAP_SECONDS = 600;
export const STOP_SECONDS = 300;

/** The vehicle settings of the generated day (CONTRACT §2); the door sensor has no limits on purpose. */
export const DAY_VEHICLE = {
  speedLimit: 90,
  prolongedSpeedSeconds: 60,
  fuelFillThreshold: 10,
  fuelDrainThreshold: 10,
  sensorLimits: [
    { sensorID: SENSOR.coolant, min: null, max: 105 },
    { sensorID: SENSOR.cargo, min: -25, max: -15 },
  ],
  initialOdometer: 48_250.5,
};

const FILL_L = 40;
const FILL_SECONDS = 180;
const DRAIN_L = 20;
export const DRAIN_SECONDS = 240;

/** A track the day must produce. */
export interface TripTruth {
  name: string;
  /** When the vehicle really started and stopped moving (or fell silent / was heard again). */
  departureMs: number;
  arrivalMs: number;
  /**
   * The fixes the track runs between, by the rules of CONTRACT §2 applied to the generated fixes:
   * from the last fix before it moved (speed above 5 km/h) to the first fix of the standstill that
   * ended it, or to the last fix before a silence of more than 10 minutes (and from the first after).
   */
  startMs: number;
  finishMs: number;
  start: LatLon;
  finish: LatLon;
  /** Haversine sum over the valid fixes from start to finish: the track distance of CONTRACT §2. */
  distanceM: number;
  validFixes: number;
  endedBy: 'stop' | 'silence';
}

export interface ExpectedEvent {
  type: 1 | 2 | 3 | 4 | 5;
  timeMs: number;
  value: number;
  latitude: number;
  longitude: number;
  /** What the generator meant by it, for messages. */
  what: string;
}

export interface DayTruth {
  dayStartMs: number;
  trips: TripTruth[];
  /** A move across the yard: too short to be a track (CONTRACT §2 drops tracks under 200 m or 60 s). */
  yardMove: { departureMs: number; arrivalMs: number; metres: number };
  events: ExpectedEvent[];
  /** Sum of the trips' distances: interval 1 mileage (interface 4.1: from tracks). */
  trackMileageM: number;
  /** Valid fixes in time order with the haversine distance from the day's first valid fix: intervals 2 and 3. */
  valid: { fix: DayFix; cumDistanceM: number }[];
  /** When the ignition was on: from the fix that reported it on to the fix that reported it off. */
  ignitionOn: [number, number][];
  coverageGap: { fromMs: number; toMs: number };
  lateBuffer: { fromMs: number; toMs: number };
  /** The refuelling and the drain: when the fuel really started to move, and by how much. */
  fill: { startMs: number; litres: number; where: LatLon };
  drain: { startMs: number; litres: number; where: LatLon };
  /** Fuel burnt by the engine over the day (the drain is not in it). */
  burntL: number;
}

export interface GeneratedDay {
  fixes: DayFix[];
  truth: DayTruth;
}

export interface DayOptions {
  seed: number;
  /** The instant of local midnight in the account's time zone: the day runs from it for 24 hours. */
  dayStartMs: number;
  depot?: LatLon;
}

/** A depot on the edge of a city, with room for 40-km trips around it. */
export const DEFAULT_DEPOT: LatLon = { lat: 55.6512, lon: 37.4163 };

export function generateDay({ seed, dayStartMs, depot = DEFAULT_DEPOT }: DayOptions): GeneratedDay {
  const sim = new VehicleSimulation(seed, dayStartMs, depot);
  const day = runDaySchedule(sim, dayStartMs);
  const truth = computeTruth(sim, day, dayStartMs);
  return { fixes: sim.fixes, truth };
}

// ---------------------------------------------------------------------------------------------
// The day

interface Schedule {
  yard: Drive;
  fill: { startMs: number; where: LatLon };
  drain: { startMs: number; where: LatLon };
}

/** The day's schedule, in local time from `dayStartMs`, a few random minutes added so no two seeds are alike. */
function runDaySchedule(sim: VehicleSimulation, dayStartMs: number): Schedule {
  const at = (h: number, m: number, jitterMinutes = 0) => dayStartMs + (h * 60 + m) * MINUTE + Math.round(sim.between(0, jitterMinutes * 60)) * SECOND;
  const b0 = sim.between(0, 360);
  const trip = (name: string, legs: Leg[], options: DriveOptions = {}) => {
    sim.setIgnition(true);
    sim.stand(Math.round(sim.between(45, 120)));
    const road = buildRoad(sim.position, legs);
    const drive = sim.drive(name, road, options);
    sim.arrivePlace();
    sim.stand(Math.round(sim.between(20, 60)));
    sim.setIgnition(false);
    return drive;
  };
  const light = (fraction: number, holdS: number) => ({ at: fraction, holdS });
  const hold = () => Math.round(sim.between(25, 90));

  // Wild fixes in the night and the evening, parked.
  for (const [h, m] of [[1, 13], [3, 47], [21, 2]] as const) sim.invalidAt.push(at(h, m));

  // Night at the depot; someone siphons 20 litres.
  const depot = sim.position;
  sim.standUntil(at(2, 20, 5));
  const drain = { startMs: sim.t, where: depot };
  sim.pump(-DRAIN_L, DRAIN_SECONDS);

  sim.standUntil(at(6, 40, 3));
  trip('depot → customer A', [
    { metres: 900, bearing: b0, kmh: 40, lights: [light(0.6, hold())] },
    { metres: 1600, bearing: b0 + 90, kmh: 50, lights: [light(0.5, hold())] },
    { metres: 4200, bearing: b0 + 80, kmh: 70 },
    { metres: 5000, bearing: b0 + 20, kmh: 80 },
    { metres: 1300, bearing: b0 + 100, kmh: 40, lights: [light(0.4, hold())] },
  ]);
  // Unloading at A: the cargo door stays open and the reefer warms past its limit.
  sim.stand(180);
  sim.doorOpen = true;
  sim.stand(360);
  sim.doorOpen = false;

  sim.standUntil(at(8, 10, 3));
  trip('customer A → fuel station', [
    { metres: 2000, bearing: b0 + 200, kmh: 50, lights: [light(0.7, hold())] },
    { metres: 3000, bearing: b0 + 160, kmh: 60, lights: [light(0.3, hold())] },
    { metres: 800, bearing: b0 + 250, kmh: 40 },
  ]);
  sim.stand(Math.round(sim.between(120, 160)));
  const fill = { startMs: sim.t, where: sim.position };
  sim.pump(FILL_L, FILL_SECONDS);

  // The long run to B: a prolonged excursion over the limit, a dead zone, then a climb that overheats the engine.
  sim.standUntil(at(9, 5, 2));
  trip('fuel station → customer B', [
    { metres: 1500, bearing: b0 + 120, kmh: 50, lights: [light(0.5, hold())] },
    { metres: 30_000, bearing: b0 + 100, kmh: 82, speeding: { from: 0.2, to: 0.35, kmh: 104 } },
    { metres: 8000, bearing: b0 + 60, kmh: 70 },
    { metres: 1500, bearing: b0 + 150, kmh: 45, lights: [light(0.5, hold())] },
  ], { silenceAfterS: 14 * 60, overheatAfterS: 29 * 60 });

  // To C: the tracker has no mobile data for twelve minutes, with a short burst over the limit in them.
  sim.standUntil(at(11, 10, 3));
  trip('customer B → customer C', [
    { metres: 2000, bearing: b0 + 300, kmh: 45, lights: [light(0.5, hold())] },
    { metres: 6000, bearing: b0 + 330, kmh: 80, speeding: { from: 0.45, to: 0.55, kmh: 97 } },
    { metres: 4000, bearing: b0 + 290, kmh: 55, lights: [light(0.5, hold())] },
    { metres: 4500, bearing: b0 + 250, kmh: 50 },
  ], { withholdAfterS: 4 * 60 });
  sim.stand(300);
  sim.doorOpen = true;
  sim.stand(480);
  sim.doorOpen = false;

  // Back to the depot, through a jam that holds the truck almost four minutes, and a tunnel.
  sim.standUntil(at(13, 10, 3));
  const from = sim.position;
  const via1 = move(from, 1500, b0 + 180);
  const legs: Leg[] = [{ metres: 1500, bearing: b0 + 180, kmh: 45, lights: [light(0.5, hold())] }];
  let point = via1;
  const waypoints = [0.35, 0.7, 1].map((f) => {
    const direct = { lat: via1.lat + (depot.lat - via1.lat) * f, lon: via1.lon + (depot.lon - via1.lon) * f };
    return f === 1 ? depot : move(direct, sim.between(-600, 600), bearingDeg(via1, depot) + 90);
  });
  waypoints.forEach((next, i) => {
    legs.push({
      metres: metres(point, next),
      bearing: bearingDeg(point, next),
      kmh: [65, 75, 45][i]!,
      lights: i === 0 ? [light(0.5, Math.round(sim.between(200, 240)))] : i === 2 ? [light(0.4, hold()), light(0.8, hold())] : [],
    });
    point = move(point, metres(point, next), bearingDeg(point, next));
  });
  trip('customer C → depot', legs, { invalidAfterS: 6 * 60 });

  // Moving the truck across the yard: 60 m at walking pace, not a track.
  sim.standUntil(at(15, 20, 10));
  const yard = trip('yard move', [{ metres: 60, bearing: b0 + 45, kmh: 9 }]);

  sim.standUntil(dayStartMs + 24 * HOUR - SECOND);
  return { yard, fill, drain };
}

// ---------------------------------------------------------------------------------------------
// The truth

function computeTruth(sim: VehicleSimulation, schedule: Schedule, dayStartMs: number): DayTruth {
  const valid: DayTruth['valid'] = [];
  let cum = 0;
  for (const fix of sim.fixes) {
    if (!fix.body.isValid) continue;
    const previous = valid.at(-1);
    if (previous) cum += metres(point(previous.fix), point(fix));
    valid.push({ fix, cumDistanceM: cum });
  }
  const moving = (i: number) => valid[i]!.fix.body.velocity > MOVE_SPEED_KMH;
  const indexAt = (ms: number, side: 'first-at-or-after' | 'last-before') =>
    side === 'first-at-or-after' ? valid.findIndex((v) => v.fix.timeMs >= ms) : valid.findLastIndex((v) => v.fix.timeMs < ms);

  const trips: TripTruth[] = [];
  const gap = sim.silences[0]!;
  for (const drive of sim.drives) {
    if (drive === schedule.yard) continue;
    const firstMoving = valid.findIndex((v, i) => v.fix.timeMs >= drive.departureMs && moving(i));
    const lastMoving = valid.findLastIndex((v, i) => v.fix.timeMs <= drive.arrivalMs && moving(i));
    const parts: [number, number, number, number, TripTruth['endedBy']][] = [];
    if (gap.fromMs > drive.departureMs && gap.toMs < drive.arrivalMs) {
      const before = indexAt(gap.fromMs, 'last-before');
      const after = indexAt(gap.toMs, 'first-at-or-after');
      if (!moving(before) || !moving(after)) throw new Error('day schedule: the coverage gap must start and end while driving');
      parts.push([firstMoving - 1, before, drive.departureMs, gap.fromMs, 'silence'], [after, lastMoving + 1, gap.toMs, drive.arrivalMs, 'stop']);
    } else {
      parts.push([firstMoving - 1, lastMoving + 1, drive.departureMs, drive.arrivalMs, 'stop']);
    }
    parts.forEach(([from, to, departureMs, arrivalMs, endedBy], i) => {
      const a = valid[from]!;
      const b = valid[to]!;
      trips.push({
        name: parts.length > 1 ? `${drive.name} (${i === 0 ? 'until' : 'after'} the dead zone)` : drive.name,
        departureMs,
        arrivalMs,
        startMs: a.fix.timeMs,
        finishMs: b.fix.timeMs,
        start: point(a.fix),
        finish: point(b.fix),
        distanceM: b.cumDistanceM - a.cumDistanceM,
        validFixes: to - from + 1,
        endedBy,
      });
    });
  }

  const events: ExpectedEvent[] = [];
  const at = (fix: DayFix) => ({ timeMs: fix.timeMs, latitude: fix.body.latitude, longitude: fix.body.longitude });
  // Speed (4, 5): each run of consecutive valid fixes above the limit is one excursion.
  const limit = DAY_VEHICLE.speedLimit;
  for (let i = 0; i < valid.length; i++) {
    if (valid[i]!.fix.body.velocity <= limit || (i > 0 && valid[i - 1]!.fix.body.velocity > limit)) continue;
    let j = i;
    while (j + 1 < valid.length && valid[j + 1]!.fix.body.velocity > limit) j++;
    const run = valid.slice(i, j + 1).map((v) => v.fix);
    const top = Math.max(...run.map((f) => f.body.velocity));
    const seconds = (run.at(-1)!.timeMs - run[0]!.timeMs) / SECOND;
    events.push({ type: 4, value: top, ...at(run[0]!), what: `speeding for ${seconds} s` });
    if (seconds >= DAY_VEHICLE.prolongedSpeedSeconds) events.push({ type: 5, value: top, ...at(run[0]!), what: `prolonged speeding for ${seconds} s` });
  }
  // Sensors (3): each run of valid readings outside the limits is one excursion, valued at its first reading.
  for (const { sensorID, min, max } of DAY_VEHICLE.sensorLimits) {
    let outside = false;
    for (const { fix } of valid) {
      const value = fix.body.sensors.find((s) => s.sensorID === sensorID)!.value;
      const out = (min !== null && value < min) || (max !== null && value > max);
      if (out && !outside) events.push({ type: 3, value, ...at(fix), what: `sensor ${sensorID} out of limits` });
      outside = out;
    }
  }
  events.push({ type: 1, value: FILL_L, timeMs: schedule.fill.startMs, latitude: schedule.fill.where.lat, longitude: schedule.fill.where.lon, what: 'refuelling' });
  events.push({ type: 2, value: DRAIN_L, timeMs: schedule.drain.startMs, latitude: schedule.drain.where.lat, longitude: schedule.drain.where.lon, what: 'drain' });
  events.sort((a, b) => a.timeMs - b.timeMs || a.type - b.type);

  const yardFixes = valid.filter((v) => v.fix.timeMs >= schedule.yard.departureMs - DRIVING_EVERY_S * SECOND && v.fix.timeMs <= schedule.yard.arrivalMs + DRIVING_EVERY_S * SECOND);
  return {
    dayStartMs,
    trips,
    yardMove: {
      departureMs: schedule.yard.departureMs,
      arrivalMs: schedule.yard.arrivalMs,
      metres: yardFixes.at(-1)!.cumDistanceM - yardFixes[0]!.cumDistanceM,
    },
    events,
    trackMileageM: trips.reduce((sum, t) => sum + t.distanceM, 0),
    valid,
    ignitionOn: sim.ignitionOn,
    coverageGap: gap,
    lateBuffer: sim.withheld[0]!,
    fill: { startMs: schedule.fill.startMs, litres: FILL_L, where: schedule.fill.where },
    drain: { startMs: schedule.drain.startMs, litres: DRAIN_L, where: schedule.drain.where },
    burntL: sim.burntL,
  };
}

const point = (fix: DayFix): LatLon => ({ lat: fix.body.latitude, lon: fix.body.longitude });

/** Seconds the ignition was on within [fromMs, toMs). */
export function ignitionSecondsBetween(truth: DayTruth, fromMs: number, toMs: number): number {
  let total = 0;
  for (const [on, off] of truth.ignitionOn) total += Math.max(0, Math.min(off, toMs) - Math.max(on, fromMs));
  return total / SECOND;
}

/**
 * How far the median of the last five fuel readings up to `index` (of `truth.valid`) can be from the
 * fuel really in the tank at that fix: the noise, plus how much the level moved over those readings.
 */
export function smoothedFuelBound(truth: DayTruth, index: number): number {
  const window = truth.valid.slice(Math.max(0, index - 4), index + 1).map((v) => v.fix.trueFuelL);
  const now = truth.valid[index]!.fix.trueFuelL;
  return FUEL_NOISE_L + 0.5 * 10 ** -FUEL_DECIMALS + Math.max(...window.map((l) => Math.abs(l - now)));
}
