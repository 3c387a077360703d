/**
 * The fleet of bench/growth.ts and how it is loaded. Each vehicle works like bench/vehicle.ts's
 * delivery van, as its tracker reports it: it leaves the depot between 06:30 and 08:30 on
 * working days, drives to 4-8 customers 2-15 km apart (city stretches at 30-60 km/h, arterial
 * roads at 70-105 km/h, so now and then over the limit; red lights), parks 10-75 minutes at each,
 * refuels below 25 litres, and is home after 17:00. A fix every 10 s with the ignition on, every
 * 15 minutes while parked; 1% without a valid position. Written for speed (30 M fixes are made in
 * a run): parked time is skipped in 15-minute steps rather than simulated every 10 s.
 *
 * The few measured vehicles get a whole month first; the rest of the fleet then drives day after
 * day until the store holds the size asked for. So every read the bench measures (a measured
 * vehicle's day, its month) returns the same rows at every size, while the table around them grows.
 */
import type { BenchServer } from './common.js';
import { random } from './common.js';
import type { Fix } from '../src/positioning/fix.js';
import type { LocationInput } from '../src/positioning/location-schema.js';
import { PipelineRunner } from '../src/positioning/pipeline/pipeline-runner.js';
import { PipelineStore } from '../src/positioning/pipeline/pipeline-store.js';
import { trackSettingsOf } from '../src/positioning/pipeline/pipeline-types.js';
import { AddressResolver } from '../src/positioning/address-resolver.js';
import type { Database } from '../src/store/database.js';

const STEP_MS = 10_000;
const PARKED_EVERY_MS = 15 * 60_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const DEPOT = { lat: 55.6512, lon: 37.4163 };
const M_PER_DEG_LAT = 111_320;
/** Days the rest of the fleet may drive (beyond a month, for sizes past 30 M). */
export const FLEET_DAYS = 120;

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** A duration or instant on the tracker's 10-second beat. */
const onBeat = (ms: number) => Math.round(ms / STEP_MS) * STEP_MS;

/** One vehicle's fixes, in time order, from `startMs` (a UTC midnight) for `days` days. */
function* workingDays(subscriberId: number, startMs: number, days: number, seed: number): Generator<Fix> {
  const rand = random(seed);
  const between = (low: number, high: number) => low + rand() * (high - low);
  let lat = DEPOT.lat;
  let lon = DEPOT.lon;
  let fuel = between(40, 80);
  let heading = 0;
  const fix = (t: number, speed: number, ignition: boolean): Fix => ({
    subscriberId,
    locationDateMs: t,
    isValid: rand() >= 0.01,
    latitude: round(lat + (rand() - 0.5) * (speed > 0 ? 0.00003 : 0.00018), 6),
    longitude: round(lon + (rand() - 0.5) * (speed > 0 ? 0.00005 : 0.0003), 6),
    angle: Math.round(heading) % 360,
    velocityKmh: round(speed, 1),
    fuelLevel: round(fuel + between(-0.5, 0.5), 1),
    ignition,
    externalPower: true,
    odometer: null,
    engineHours: null,
    sensors: null,
  });
  /** Parked until `untilMs`: a fix every 15 minutes on the quarter hour. */
  function* park(fromMs: number, untilMs: number): Generator<Fix> {
    for (let t = Math.ceil(fromMs / PARKED_EVERY_MS) * PARKED_EVERY_MS; t < untilMs; t += PARKED_EVERY_MS) yield fix(t, 0, false);
  }
  /** From here to `target`, 10 s at a time; returns when it arrives (or gives up after 2 h). */
  function* drive(fromMs: number, target: { lat: number; lon: number }): Generator<Fix, number> {
    let t = fromMs;
    let speed = 0;
    let cruise = between(30, 60);
    let offset = 0;
    for (; t < fromMs + 2 * HOUR; t += STEP_MS) {
      const dy = (target.lat - lat) * M_PER_DEG_LAT;
      const dx = (target.lon - lon) * M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
      const left = Math.hypot(dx, dy);
      if (left < 150) break;
      if (rand() < 0.01 && left > 500) {
        for (let stopped = 0; stopped < between(3, 9); stopped++, t += STEP_MS) yield fix(t, 0, true);
        speed = 0;
      }
      if (rand() < 0.02) cruise = rand() < 0.7 ? between(30, 60) : between(70, 105);
      const wanted = left < 500 ? 25 : cruise;
      speed = Math.max(0, speed + Math.max(-15, Math.min(12, wanted - speed)) + between(-3, 3));
      offset = Math.max(-50, Math.min(50, offset + between(-10, 10)));
      heading = ((Math.atan2(dx, dy) * 180) / Math.PI + offset + 360) % 360;
      const stepM = Math.min((speed / 3.6) * (STEP_MS / 1000), left);
      lat += (stepM * Math.cos((heading * Math.PI) / 180)) / M_PER_DEG_LAT;
      lon += (stepM * Math.sin((heading * Math.PI) / 180)) / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180));
      fuel = Math.max(0, fuel - (stepM / 1000) * 0.11 - 0.0021);
      yield fix(t, speed, true);
    }
    return t;
  }
  let t = startMs;
  for (let day = 0; day < days; day++) {
    const midnight = startMs + day * DAY;
    if (new Date(midnight).getUTCDay() === 0) continue; // Sundays off: parked at the depot
    const departure = midnight + onBeat(between(6.5, 8.5) * HOUR);
    yield* park(t, departure);
    t = departure;
    const customers = Math.floor(between(4, 9));
    for (let stop = 0; stop <= customers && t < midnight + 19 * HOUR; stop++) {
      const home = stop === customers || t > midnight + 17 * HOUR;
      const distance = between(2_000, 15_000);
      const direction = between(0, 2 * Math.PI);
      const target = home
        ? DEPOT
        : { lat: DEPOT.lat + (distance * Math.cos(direction)) / M_PER_DEG_LAT, lon: DEPOT.lon + (distance * Math.sin(direction)) / (M_PER_DEG_LAT * Math.cos((DEPOT.lat * Math.PI) / 180)) };
      t = yield* drive(t, target);
      const stay = onBeat(fuel < 25 ? between(8, 15) * MINUTE : between(10, 75) * MINUTE);
      if (fuel < 25) fuel = 80 - between(0, 5);
      yield* park(t, t + stay);
      t += stay;
      if (home) break;
    }
  }
  yield* park(t, startMs + days * DAY);
}

/** A vehicle's fixes as its tracker sends them, taken a batch at a time. */
export class Vehicle {
  private readonly days: Generator<Fix>;
  done = false;

  constructor(
    readonly subscriberId: number,
    startMs: number,
    days: number,
    seed: number,
  ) {
    this.days = workingDays(subscriberId, startMs, days, seed);
  }

  /** Up to `count` next fixes (fewer at the end of its days). */
  take(count: number): Fix[] {
    const fixes: Fix[] = [];
    while (fixes.length < count) {
      const next = this.days.next();
      if (next.done) {
        this.done = true;
        break;
      }
      fixes.push(next.value);
    }
    return fixes;
  }
}

/** A fix as an integrator posts it (the ingestion probe). */
export function toInput(fix: Fix): LocationInput {
  return {
    subscriberID: fix.subscriberId,
    locationDate: new Date(fix.locationDateMs).toISOString(),
    isValid: fix.isValid,
    latitude: fix.latitude,
    longitude: fix.longitude,
    angle: fix.angle,
    velocity: fix.velocityKmh,
    fuelLevel: fix.fuelLevel ?? undefined,
    ignition: fix.ignition ?? undefined,
    externalPower: fix.externalPower ?? undefined,
  };
}

/**
 * Loads fixes straight into the store through the pipeline (tracks, vehicle events, statistics
 * and checkpoints derived as ingestion derives them), in transactions of about 10,000 fixes,
 * without HTTP: what the bench measures is the reads and ingestion at each size, not the load.
 */
export class FleetLoader {
  readonly measured: Vehicle[];
  readonly rest: Vehicle[];
  private readonly runner: PipelineRunner;
  private group = 0;
  private probed = 0;
  stored = 0;

  constructor(
    private readonly database: Database,
    private readonly server: BenchServer,
    monthStartMs: number,
    monthDays: number,
    measuredCount: number,
  ) {
    const ids = server.employeeIds;
    this.measured = ids.slice(0, measuredCount).map((id, i) => new Vehicle(id, monthStartMs, monthDays, 7_000 + i));
    this.rest = ids.slice(measuredCount).map((id, i) => new Vehicle(id, monthStartMs, FLEET_DAYS, 9_000 + i));
    this.runner = new PipelineRunner({ store: new PipelineStore(database), addresses: new AddressResolver(server.services.geozones) });
  }

  /** The measured vehicles' whole month. */
  async loadMeasured(): Promise<void> {
    while (this.measured.some((v) => !v.done)) await this.store(this.measured.flatMap((v) => v.take(2000)));
  }

  /** The rest of the fleet, 20 vehicles × 500 fixes a transaction, in turn, until `total` fixes are stored. */
  async loadRestUntil(total: number, onProgress: (stored: number) => void): Promise<void> {
    const groups = Math.ceil(this.rest.length / 20);
    while (this.stored < total) {
      const vehicles = this.rest.slice(this.group * 20, this.group * 20 + 20);
      this.group = (this.group + 1) % groups;
      const fixes = vehicles.flatMap((v) => v.take(500));
      if (fixes.length === 0 && this.rest.every((v) => v.done)) throw new Error(`the fleet ran out of days at ${this.stored} fixes`);
      const before = Math.floor(this.stored / 1_000_000);
      await this.store(fixes);
      if (Math.floor(this.stored / 1_000_000) > before) onProgress(this.stored);
    }
  }

  /** The next fixes of the rest of the fleet, for the ingestion probe (posted over HTTP): `count` of them, in batches of `batch`. */
  nextBatches(count: number, batch: number): Fix[][] {
    const batches: Fix[][] = [];
    const perVehicle = batch / 50;
    while (batches.length * batch < count) {
      const vehicles = Array.from({ length: 50 }, (_, i) => this.rest[(this.probed + i) % this.rest.length]!);
      this.probed += 50;
      batches.push(vehicles.flatMap((v) => v.take(perVehicle)));
    }
    return batches;
  }

  private async store(fixes: Fix[]): Promise<void> {
    if (fixes.length === 0) return;
    const { account } = this.server;
    const receivedAt = Math.max(...fixes.map((f) => f.locationDateMs));
    await this.database.transaction(async (tx) => {
      const targets = await this.server.services.employees.ingestTargetsOf(tx, account.id, [...new Set(fixes.map((f) => f.subscriberId))]);
      const vehicleSettings = new Map([...targets].map(([id, target]) => [id, target.vehicleSettings]));
      await this.runner.ingest(tx, { accountId: account.id, timeZone: account.timeZone, receivedAt, trackSettings: trackSettingsOf(account.settings.track), vehicleSettings }, fixes);
    });
    this.stored += fixes.length;
  }
}
