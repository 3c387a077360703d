/**
 * One delivery vehicle's days, as its tracker reports them: a fix every 10 seconds, day and night.
 * Shared by bench/statistics.ts and bench/replay.ts. Deterministic for a given seed.
 *
 * The vehicle sleeps at its depot with the ignition off. On working days (not Sundays) it leaves
 * between 06:30 and 08:30 (UTC, the bench account's zone), warms up for a minute or two and drives
 * to customers 2-20 km from the depot: city stretches at 30-60 km/h, arterial roads at 70-105 km/h
 * (so it sometimes exceeds the 90 km/h default limit), stops at traffic lights, slows down on
 * arrival. At each customer it idles a little, then parks with the ignition off for 10-75 minutes;
 * after 17:00 it heads home. Below 25 litres it refuels (a 3-minute filling to nearly full). On
 * about one night in ten, 15-20 litres are siphoned off in 4 minutes. Readings are noisy like a
 * real tracker's: the position scatters about ±10 m while parked and ±3 m while moving, the fuel
 * sensor ±0.5 L, the parked speed sometimes shows 1-3 km/h, and 1% of fixes have no valid position.
 */
import type { LocationInput } from '../src/positioning/location-schema.js';
import { random } from './common.js';

/** A fix without its subscriber: the same day can be posted for several vehicles. */
export type VehicleFix = Omit<LocationInput, 'subscriberID'> & { locationDate: string };

export const STEP_MS = 10_000;
export const DAY_MS = 86_400_000;
export const FIXES_PER_DAY = DAY_MS / STEP_MS;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DEPOT = { lat: 55.6512, lon: 37.4163 };
const TANK_L = 80;
const DRIVING_L_PER_KM = 0.11;
const IDLE_L_PER_STEP = (1.5 * STEP_MS) / HOUR;

type Mode = 'parked' | 'idle' | 'driving' | 'light';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Metres between two points (equirectangular: exact enough for a simulation within 20 km). */
function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const x = toRad(b.lon - a.lon) * Math.cos(toRad((a.lat + b.lat) / 2));
  const y = toRad(b.lat - a.lat);
  return Math.hypot(x, y) * 6_371_000;
}

function bearing(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const x = toRad(b.lon - a.lon) * Math.cos(toRad((a.lat + b.lat) / 2));
  const y = toRad(b.lat - a.lat);
  return ((Math.atan2(x, y) * 180) / Math.PI + 360) % 360;
}

/**
 * The fixes of `days` days from `startMs` (a UTC midnight), in time order, one every 10 s:
 * `days × 8640` of them. A generator, so a month need not be held in memory at once.
 */
export function* vehicleDays(startMs: number, days: number, seed = 20261001): Generator<VehicleFix> {
  const rand = random(seed);
  const between = (low: number, high: number) => low + rand() * (high - low);

  let lat = DEPOT.lat;
  let lon = DEPOT.lon;
  let heading = between(0, 360);
  let speed = 0;
  let cruise = 40;
  let offset = 0;
  let fuel = 60;
  let mode: Mode = 'parked';
  let until = 0;
  let parkAfterIdle = false;
  let destination: { lat: number; lon: number } | null = null;
  let tripStartMs = 0;
  let fuelChange: { perStep: number; untilMs: number } | null = null;

  /** The next departure from the depot: the next working day (not Sunday), 06:30-08:30. */
  const nextDeparture = (afterMs: number) => {
    let day = Math.floor(afterMs / DAY_MS) * DAY_MS;
    let departure = day + between(6.5, 8.5) * HOUR;
    while (departure <= afterMs || new Date(day).getUTCDay() === 0) {
      day += DAY_MS;
      departure = day + between(6.5, 8.5) * HOUR;
    }
    return departure;
  };
  /** The night's siphoning, on about one night in ten: 15-20 litres in 4 minutes, at 01:00-04:00. */
  let drainAt = Number.POSITIVE_INFINITY;
  const planNight = (departureMs: number) => {
    const night = Math.floor(departureMs / DAY_MS) * DAY_MS;
    drainAt = rand() < 0.1 ? night + between(1, 4) * HOUR : Number.POSITIVE_INFINITY;
  };
  until = nextDeparture(startMs - 1);
  planNight(until);

  const evening = (t: number) => (t % DAY_MS) / HOUR >= 17 || (t % DAY_MS) / HOUR < 5;

  /** Parks where it stands: refuels when low, sleeps at the depot after 17:00, else visits a customer. */
  const park = (t: number) => {
    mode = 'parked';
    const atDepot = metres({ lat, lon }, DEPOT) < 300;
    if (fuel < 25) {
      const target = TANK_L - between(0, 5);
      fuelChange = { perStep: (target - fuel) / 18, untilMs: t + 3 * MINUTE };
      until = t + between(8, 15) * MINUTE;
    } else if (atDepot && evening(t)) {
      until = nextDeparture(t);
      planNight(until);
    } else {
      until = t + between(10, 75) * MINUTE;
    }
  };

  for (let t = startMs; t < startMs + days * DAY_MS; t += STEP_MS) {
    const previousSpeed = speed;
    switch (mode) {
      case 'parked':
        speed = 0;
        if (t >= drainAt && !fuelChange) {
          fuelChange = { perStep: -between(15, 20) / 24, untilMs: t + 4 * MINUTE };
          drainAt = Number.POSITIVE_INFINITY;
        }
        if (t >= until) {
          mode = 'idle';
          until = t + between(1, 3) * MINUTE;
          parkAfterIdle = false;
          // To a customer; in the evening (or if a late trip ran past midnight), home to the depot.
          if (evening(t)) destination = DEPOT;
          else {
            const distance = between(2_000, 20_000);
            const direction = toRad(between(0, 360));
            destination = {
              lat: DEPOT.lat + (distance * Math.cos(direction)) / 111_320,
              lon: DEPOT.lon + (distance * Math.sin(direction)) / (111_320 * Math.cos(toRad(DEPOT.lat))),
            };
          }
        }
        break;
      case 'idle':
        speed = 0;
        fuel -= IDLE_L_PER_STEP;
        if (t >= until) {
          if (parkAfterIdle) park(t);
          else {
            mode = 'driving';
            tripStartMs = t;
            cruise = between(30, 60);
          }
        }
        break;
      case 'light':
        speed = 0;
        fuel -= IDLE_L_PER_STEP;
        if (t >= until) mode = 'driving';
        break;
      case 'driving': {
        const target = destination!;
        const left = metres({ lat, lon }, target);
        if (left < 150 || t - tripStartMs > 2.5 * HOUR) {
          speed = 0;
          mode = 'idle';
          until = t + between(0.3, 2) * MINUTE;
          parkAfterIdle = true;
          break;
        }
        if (rand() < 0.01 && left > 500) {
          // A red light: 30-90 s with the engine running.
          speed = 0;
          mode = 'light';
          until = t + between(30, 90) * 1000;
          break;
        }
        if (rand() < 0.02) cruise = rand() < 0.7 ? between(30, 60) : between(70, 105);
        const wanted = left < 500 ? 25 : cruise;
        speed = Math.max(0, speed + Math.max(-15, Math.min(12, wanted - speed)) + between(-3, 3));
        offset = Math.max(-50, Math.min(50, offset + between(-10, 10)));
        heading = (bearing({ lat, lon }, target) + offset + 360) % 360;
        const stepM = Math.min(((speed + previousSpeed) / 2 / 3.6) * (STEP_MS / 1000), left);
        lat += (stepM * Math.cos(toRad(heading))) / 111_320;
        lon += (stepM * Math.sin(toRad(heading))) / (111_320 * Math.cos(toRad(lat)));
        fuel -= (stepM / 1000) * DRIVING_L_PER_KM + IDLE_L_PER_STEP / 2;
        break;
      }
    }
    if (fuelChange) {
      fuel += fuelChange.perStep;
      if (t + STEP_MS > fuelChange.untilMs) fuelChange = null;
    }
    fuel = Math.max(0, Math.min(TANK_L, fuel));

    const moving = mode === 'driving';
    const scatter = moving ? 0.00003 : 0.00018;
    yield {
      locationDate: new Date(t).toISOString().replace('.000Z', 'Z'),
      isValid: rand() >= 0.01,
      latitude: round(lat + (rand() - 0.5) * scatter, 6),
      longitude: round(lon + (rand() - 0.5) * scatter * 1.7, 6),
      angle: Math.round(heading) % 360,
      velocity: moving ? round(Math.max(0, speed + between(-1, 1)), 1) : rand() < 0.1 ? round(between(1, 3), 1) : 0,
      fuelLevel: round(Math.max(0, fuel + between(-0.5, 0.5)), 1),
      ignition: mode !== 'parked',
    };
  }
}
