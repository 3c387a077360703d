// Generated days of driving (day-generator.ts) pushed through the real HTTP API, and tracks, vehicle
// events and statistics (routes 3-7 of interface 4.1) checked against the truth the generator knows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coordinatesText, haversineMetres } from '../../src/geo/geo.js';
import { createEmployee, LOCATIONS, startServer, type Client, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import {
  DAY_VEHICLE,
  DRAIN_SECONDS,
  DRIVING_EVERY_S,
  GAP_SECONDS,
  generateDay,
  HOUR,
  ignitionSecondsBetween,
  MOVE_SPEED_KMH,
  PARKED_EVERY_S,
  SECOND,
  smoothedFuelBound,
  STOP_SECONDS,
  type DayFix,
  type DayTruth,
  type GeneratedDay,
} from './day-generator.js';
import { seededRandom } from './pipeline/fixtures.js';

const BASE = '/v6/api/globalPositioningManagement';
const BATCH = 300;

/** How a case's account sees the day: its zone, the offset it writes, and the day as query parameters. */
interface Zone {
  name: string;
  suffix: string;
  /** dateFrom/dateTo (and startDate/finishDate) covering the generated day. */
  from: string;
  to: string;
}

const UTC: Zone = { name: 'UTC', suffix: '+00:00', from: '2026-05-20T00:00:00Z', to: '2026-05-20T23:59:59Z' };
// Written without an offset, so the account's zone applies (CONTRACT §1): its clock hours start at :30 UTC.
const KOLKATA: Zone = { name: 'Asia/Kolkata', suffix: '+05:30', from: '2026-05-20T00:00:00', to: '2026-05-20T23:59:59' };
const UTC_DAY_MS = Date.parse('2026-05-20T00:00:00Z');
const KOLKATA_DAY_MS = Date.parse('2026-05-20T00:00:00+05:30');

// Tolerances, each with its reason.
/** Track distances are whole metres (CONTRACT §2); the truth sums the same fixes with the same formula. */
const DISTANCE_TOLERANCE_M = 1;
/** Statistics are rounded to 3 decimals (km, hours); a little more for float sums. */
const ROUNDING = 0.0005 + 1e-6;
/** A filling's litres are the smoothed level after minus before: two smoothed levels, each ±0.5 L off the tank. */
const FILL_VALUE_TOLERANCE_L = 1;
/**
 * A change that begins between two readings shows in the next one, and the median of 5 readings
 * follows the level two readings later: a filling (drain) can be seen up to three readings late.
 */
const FUEL_EVENT_LAG_MS = 3 * PARKED_EVERY_S * SECOND;
/** A fuel event is placed at a parked fix: within the parking place's scatter (at most 30 m) and a few metres. */
const FUEL_EVENT_PLACE_M = 40;

const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

const toMs = (date: string, zone: Zone) => {
  assert.ok(date.endsWith(zone.suffix), `${date} is not written in ${zone.name} (${zone.suffix})`);
  return Date.parse(date);
};

const iso = (ms: number) => new Date(ms).toISOString();
const byStart = (tracks: any[]) => [...tracks].sort((a, b) => Date.parse(a.startDate) - Date.parse(b.startDate));

// ---------------------------------------------------------------------------------------------
// Delivery

function bodies(subscriberID: number, fixes: DayFix[]) {
  return fixes.map((f) => ({ subscriberID, ...f.body }));
}

async function post(api: Client, subscriberID: number, fixes: DayFix[]): Promise<void> {
  const response = await api.post(LOCATIONS, bodies(subscriberID, fixes));
  assert.equal(response.status, 201, response.text);
  assert.equal(response.body.accepted, fixes.length);
}

/** The tracker's way: in order, a few hundred fixes a batch, the held-back buffer after everything else. */
async function deliverInOrder(api: Client, subscriberID: number, day: GeneratedDay, { buffer = true, afterBatch = async () => {} } = {}): Promise<void> {
  const live = day.fixes.filter((f) => !f.withheld);
  for (let i = 0; i < live.length; i += BATCH) {
    await post(api, subscriberID, live.slice(i, i + BATCH));
    await afterBatch();
  }
  if (buffer) await deliverBuffer(api, subscriberID, day);
}

async function deliverBuffer(api: Client, subscriberID: number, day: GeneratedDay): Promise<void> {
  await post(api, subscriberID, day.fixes.filter((f) => f.withheld));
}

/**
 * The whole day in batches of random sizes sent in random order, each batch itself shuffled; with
 * `scatter`, the fixes are shuffled across the whole day before they are cut into batches.
 */
async function deliverShuffled(api: Client, subscriberID: number, day: GeneratedDay, seed: number, scatter: boolean): Promise<number> {
  const random = seededRandom(seed);
  const shuffle = <T>(items: T[]) => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  const fixes = scatter ? shuffle([...day.fixes]) : [...day.fixes];
  const batches: DayFix[][] = [];
  for (let i = 0; i < fixes.length; ) {
    const size = 50 + Math.floor(random() * 550);
    batches.push(shuffle(fixes.slice(i, i + size)));
    i += size;
  }
  for (const batch of shuffle(batches)) await post(api, subscriberID, batch);
  return batches.length;
}

// ---------------------------------------------------------------------------------------------
// Reading

const range = (zone: Zone, from = 'dateFrom', to = 'dateTo') => `${from}=${encodeURIComponent(zone.from)}&${to}=${encodeURIComponent(zone.to)}`;

async function get(api: Client, path: string) {
  const response = await api.get(path);
  assert.equal(response.status, 200, `${path}: ${response.text}`);
  return response.body;
}

async function tracksOf(api: Client, id: number, zone: Zone): Promise<any[]> {
  return get(api, `${BASE}/tracks?subscriberIDs=${id}&${range(zone)}`);
}

async function eventsOf(api: Client, id: number, zone: Zone): Promise<any[]> {
  const body = await get(api, `${BASE}/events?subscriberIDs=${id}&${range(zone, 'startDate', 'finishDate')}`);
  if (body.data.length === 0) return [];
  assert.deepEqual(body.data.map((g: any) => g.subscriberID), [id]);
  return body.data[0].events;
}

async function statisticsOf(api: Client, id: number, zone: Zone, interval: 1 | 2 | 3, page = ''): Promise<any[]> {
  const body = await get(api, `${BASE}/statistics?subscriberIDs=${id}&interval=${interval}&${range(zone)}${page}`);
  assert.deepEqual(body.data.map((g: any) => g.subscriberID), [id]);
  return body.data[0].statistics;
}

/** Everything routes 3-7 say about one vehicle's day, without the ids that differ between vehicles. */
async function snapshot(api: Client, id: number, zone: Zone, validFixes: number) {
  const tracks = byStart(await tracksOf(api, id, zone));
  const trackLocations = [];
  for (const t of tracks) {
    const points = await get(api, `${BASE}/tracks/${t.trackID}/locations`);
    trackLocations.push(points.map(({ locationID: _l, subscriberID: _s, ...rest }: any) => rest));
  }
  const perFix = [];
  for (let offset = 0; offset < validFixes; offset += 1000) perFix.push(...(await statisticsOf(api, id, zone, 3, `&count=1000&offset=${offset}`)));
  return {
    tracks: tracks.map(({ trackID: _t, subscriberID: _s, ...rest }) => rest),
    trackLocations,
    events: await eventsOf(api, id, zone),
    statistics1: await statisticsOf(api, id, zone, 1),
    statistics2: await statisticsOf(api, id, zone, 2),
    statistics3: perFix,
  };
}

// ---------------------------------------------------------------------------------------------
// Checks against the truth

/**
 * `resent`: some fixes were stored twice (a tracker resending a batch); they are locations of their
 * own (CONTRACT §2: ids are assigned on arrival), so a track's locations hold them twice.
 */
async function checkTracks(api: Client, id: number, truth: DayTruth, zone: Zone, { resent = false } = {}): Promise<void> {
  const listed = await tracksOf(api, id, zone);
  assert.deepEqual(listed.map((t) => t.trackID), [...listed.map((t) => t.trackID)].sort((a, b) => a - b), 'trackID ascending');
  // Ids are given as tracks are found, which with late fixes is not the order they were driven in.
  const tracks = byStart(listed);
  const summary = `tracks ${JSON.stringify(tracks.map((t) => [t.startDate, t.finishDate, t.distance]))}; trips ${JSON.stringify(truth.trips.map((t) => [iso(t.startMs), iso(t.finishMs), Math.round(t.distanceM)]))}`;
  assert.equal(tracks.length, truth.trips.length, `one track per trip, the dead zone splitting one, the yard move none: ${summary}`);
  assert.equal(new Set(tracks.map((t) => t.startDate)).size, tracks.length, 'no trip twice');
  // Paging (CONTRACT §1): offset skips, lastTrackID gives greater ids.
  const path = `${BASE}/tracks?subscriberIDs=${id}&${range(zone)}`;
  assert.deepEqual(await get(api, `${path}&count=2&offset=1`), listed.slice(1, 3), 'count and offset');
  assert.deepEqual(await get(api, `${path}&lastTrackID=${listed[2].trackID}`), listed.slice(3), 'lastTrackID');
  assert.equal(new Set(tracks.map((t) => t.trackID)).size, tracks.length, 'no trackID twice');

  for (const [i, trip] of truth.trips.entries()) {
    const track = tracks[i];
    const what = `track ${i} (${trip.name})`;
    assert.equal(track.subscriberID, id);
    // It runs from the fix where the vehicle stood before it moved to the one where it came to rest
    // (or was last heard before the dead zone): CONTRACT §2 on the generated fixes.
    assert.equal(iso(toMs(track.startDate, zone)), iso(trip.startMs), `${what} start`);
    assert.equal(iso(toMs(track.finishDate, zone)), iso(trip.finishMs), `${what} finish`);
    assert.equal(track.duration, Math.round((trip.finishMs - trip.startMs) / SECOND), `${what} duration`);
    near(track.distance, trip.distanceM, DISTANCE_TOLERANCE_M, `${what} distance`);
    assert.deepEqual([track.startLat, track.startLon, track.finishLat, track.finishLon], [trip.start.lat, trip.start.lon, trip.finish.lat, trip.finish.lon], `${what} ends`);
    assert.equal(track.startAddress, coordinatesText(trip.start.lat, trip.start.lon), 'no geocoder, no zones: coordinates');
    assert.equal(track.finishAddress, coordinatesText(trip.finish.lat, trip.finish.lon));

    assert.deepEqual(await get(api, `${BASE}/tracks/${track.trackID}`), track, `${what}: route 4 answers as route 3`);
    const all = await get(api, `${BASE}/tracks/${track.trackID}/locations`);
    const points = resent ? all.filter((p: any, k: number) => k === 0 || p.locationDate !== all[k - 1].locationDate) : all;
    assert.equal(points.length, trip.validFixes, `${what}: its valid fixes`);
    assert.ok(points.every((p: any) => p.isValid && p.subscriberID === id), `${what}: only valid fixes`);
    assert.equal(points[0].locationDate, track.startDate);
    assert.equal(points.at(-1).locationDate, track.finishDate);
    let sum = 0;
    for (let k = 1; k < points.length; k++) {
      assert.ok(Date.parse(points[k].locationDate) > Date.parse(points[k - 1].locationDate), `${what}: oldest first`);
      sum += haversineMetres(points[k - 1].latitude, points[k - 1].longitude, points[k].latitude, points[k].longitude);
    }
    near(track.distance, sum, DISTANCE_TOLERANCE_M, `${what}: distance is the sum over its locations`);
  }
}

const isFuel = (type: number) => type === 1 || type === 2;

/** Events of the day: every expected one and no other, no duplicates; speed and sensor events read straight off the fixes. */
async function checkEvents(api: Client, id: number, truth: DayTruth, zone: Zone): Promise<void> {
  const events = await eventsOf(api, id, zone);
  const summary = `got ${JSON.stringify(events.map((e) => [e.type, e.eventDate, e.value]))}; expected ${JSON.stringify(truth.events.map((e) => [e.type, iso(e.timeMs), e.value, e.what]))}`;
  const countByType = (types: number[]) => [1, 2, 3, 4, 5].map((type) => types.filter((t) => t === type).length);
  assert.deepEqual(countByType(events.map((e) => e.type)), countByType(truth.events.map((e) => e.type)), `events per type 1-5: ${summary}`);
  const keys = events.map((e) => `${e.type}@${e.eventDate}`);
  assert.equal(new Set(keys).size, keys.length, `no event twice: ${summary}`);
  const page = await get(api, `${BASE}/events?subscriberIDs=${id}&${range(zone, 'startDate', 'finishDate')}&count=3&offset=2`);
  assert.deepEqual(page.data[0].events, events.slice(2, 5), 'count and offset apply to the events');

  for (const type of [3, 4, 5]) {
    const got = events.filter((e) => e.type === type);
    const expected = truth.events.filter((e) => e.type === type);
    // The first fix of the excursion, exactly: its time and place, and the reading or the top speed.
    assert.deepEqual(
      got.map((e) => [iso(toMs(e.eventDate, zone)), e.value, e.latitude, e.longitude]),
      expected.map((e) => [iso(e.timeMs), e.value, e.latitude, e.longitude]),
      `type ${type} (${expected.map((e) => e.what).join(', ')})`,
    );
  }
}

/**
 * The filling and the drain: one event each, dated at the start of the change (CONTRACT §2): from
 * the last reading before the pump started (the level before the change) to FUEL_EVENT_LAG_MS after
 * it. The litres and the place carry the readings' noise.
 */
async function checkFuelEvents(api: Client, id: number, truth: DayTruth, zone: Zone): Promise<void> {
  const events = (await eventsOf(api, id, zone)).filter((e) => isFuel(e.type));
  const problems: string[] = [];
  for (const expected of truth.events.filter((e) => isFuel(e.type))) {
    const got = events.filter((e) => e.type === expected.type);
    assert.equal(got.length, 1, `one ${expected.what}: ${JSON.stringify(events)}`);
    const [event] = got;
    const at = toMs(event.eventDate, zone);
    const place = haversineMetres(event.latitude, event.longitude, expected.latitude, expected.longitude);
    const what = `${expected.what} dated ${event.eventDate} at ${place.toFixed(0)} m from where it happened; it started ${iso(expected.timeMs)}`;
    if (at < expected.timeMs - PARKED_EVERY_S * SECOND || at > expected.timeMs + FUEL_EVENT_LAG_MS) problems.push(`${what}: ${((at - expected.timeMs) / SECOND).toFixed(0)} s off`);
    else if (place > FUEL_EVENT_PLACE_M) problems.push(`${what}: too far`);
    near(event.value, expected.value, FILL_VALUE_TOLERANCE_L, `${expected.what} litres`);
  }
  assert.deepEqual(problems, [], 'fuel events dated at their start');
}

/** The engine time the pipeline cannot know: a silence with the ignition on beyond the gap threshold. */
function unheardEngineSeconds(truth: DayTruth, fromMs: number, toMs: number): number {
  const { fromMs: gapFrom, toMs: gapTo } = truth.coverageGap;
  if (gapTo <= fromMs || gapFrom >= toMs) return 0;
  const before = truth.valid.findLast((v) => v.fix.timeMs < gapFrom)!.fix.timeMs;
  const afterFix = truth.valid.find((v) => v.fix.timeMs >= gapTo)!.fix.timeMs;
  return Math.max(0, (afterFix - before) / SECOND - GAP_SECONDS);
}

async function checkDayStatistics(api: Client, id: number, truth: DayTruth, zone: Zone): Promise<any> {
  const records = await statisticsOf(api, id, zone, 1);
  assert.equal(records.length, 1, 'interval 1: one record');
  const [record] = records;
  const first = 0;
  const last = truth.valid.length - 1;
  const lastFix = truth.valid[last]!.fix;
  assert.equal(iso(toMs(record.locationDate, zone)), iso(lastFix.timeMs), 'the record is at the last fix of the period');
  // Interval 1 counts mileage from tracks (interface 4.1): the trips, not the parked jitter.
  near(record.mileage, truth.trackMileageM / 1000, ROUNDING + (truth.trips.length * DISTANCE_TOLERANCE_M) / 1000, 'mileage from tracks');
  near(record.totalVehicleDistance, DAY_VEHICLE.initialOdometer + record.mileage, ROUNDING, 'initial odometer + mileage');
  near(record.totalVehicleDistance, DAY_VEHICLE.initialOdometer + truth.trackMileageM / 1000, 2 * ROUNDING, 'total distance');
  checkEngine(record.engineMotohours, truth, truth.dayStartMs, lastFix.timeMs, 0, 'engine hours of the day');
  near(record.endFuelLevel, lastFix.trueFuelL, smoothedFuelBound(truth, last), 'fuel at the end of the day');
  // First fuel − last fuel + fillings (interface 4.1 rule 1) − drains = what the engine burnt: a drain is not consumption.
  const expected = truth.valid[first]!.fix.trueFuelL - lastFix.trueFuelL + truth.fill.litres - truth.drain.litres;
  near(expected, truth.burntL, 1e-6, 'generator: the fuel adds up');
  near(record.fuelConsumption, expected, smoothedFuelBound(truth, first) + smoothedFuelBound(truth, last) + 2 * FILL_VALUE_TOLERANCE_L, 'fuel consumption of the day');
  return record;
}

/**
 * Engine hours from the start of the day (or an hour) to a moment. The pipeline adds the time from
 * each fix with the ignition on to the next, so it agrees with the ignition's own on/off times, but
 * for `boundaryS` of intervals cut by the window's edges and for the part of the dead zone it
 * cannot vouch for (CONTRACT §2 counts time with the ignition on; nothing was heard then).
 */
function checkEngine(hours: number, truth: DayTruth, fromMs: number, toMs: number, boundaryS: number, what: string): void {
  const onS = ignitionSecondsBetween(truth, fromMs, toMs);
  const unheardS = unheardEngineSeconds(truth, fromMs, toMs);
  assert.ok(
    hours >= (onS - unheardS - boundaryS) / 3600 - ROUNDING && hours <= (onS + boundaryS) / 3600 + ROUNDING,
    `${what}: ${hours} h, the ignition was on ${(onS / 3600).toFixed(4)} h (${unheardS} s unheard, ${boundaryS} s at the edges)`,
  );
}

/** Valid fixes by clock hour of the account's zone (the generated day starts at local midnight). */
function validByHour(truth: DayTruth) {
  const hours = new Map<number, number[]>();
  truth.valid.forEach((v, index) => {
    const hour = Math.floor((v.fix.timeMs - truth.dayStartMs) / HOUR);
    hours.set(hour, [...(hours.get(hour) ?? []), index]);
  });
  return hours;
}

async function checkHourlyStatistics(api: Client, id: number, truth: DayTruth, zone: Zone): Promise<void> {
  const records = await statisticsOf(api, id, zone, 2);
  const hours = [...validByHour(truth).entries()];
  assert.equal(records.length, hours.length, `interval 2: one record per clock hour with data: ${records.map((r) => r.locationDate).join(', ')}`);
  hours.forEach(([hour, indexes], n) => {
    const record = records[n];
    const what = `hour ${hour} (${zone.name})`;
    const firstIndex = indexes[0]!;
    const lastIndex = indexes.at(-1)!;
    const first = truth.valid[firstIndex]!;
    const last = truth.valid[lastIndex]!;
    const before = truth.valid[firstIndex - 1];
    assert.equal(iso(toMs(record.locationDate, zone)), iso(last.fix.timeMs), `${what}: dated at its last fix`);
    // From locations (interface 4.1): every step between consecutive valid fixes that ends in the hour.
    near(record.mileage, (last.cumDistanceM - (before?.cumDistanceM ?? 0)) / 1000, ROUNDING, `${what} mileage`);
    near(record.totalVehicleDistance, DAY_VEHICLE.initialOdometer + last.cumDistanceM / 1000, ROUNDING, `${what} total distance`);
    // The step that crosses into the hour is counted in it; the one that leaves it is not.
    const hourStart = truth.dayStartMs + hour * HOUR;
    const next = truth.valid[lastIndex + 1];
    const edgeS = (before ? (first.fix.timeMs - before.fix.timeMs) / SECOND : 0) + (next ? (next.fix.timeMs - last.fix.timeMs) / SECOND : 0);
    checkEngine(record.engineMotohours, truth, hourStart, hourStart + HOUR, edgeS, `${what} engine hours`);
    near(record.endFuelLevel, last.fix.trueFuelL, smoothedFuelBound(truth, lastIndex), `${what} end fuel`);
    const filled = truth.fill.startMs >= hourStart && truth.fill.startMs < hourStart + HOUR;
    const drained = truth.drain.startMs >= hourStart && truth.drain.startMs < hourStart + HOUR;
    near(
      record.fuelConsumption,
      first.fix.trueFuelL - last.fix.trueFuelL + (filled ? truth.fill.litres : 0) - (drained ? truth.drain.litres : 0),
      smoothedFuelBound(truth, firstIndex) + smoothedFuelBound(truth, lastIndex) + (filled ? FILL_VALUE_TOLERANCE_L : 0) + (drained ? FILL_VALUE_TOLERANCE_L : 0),
      `${what} fuel consumption`,
    );
  });
}

async function checkPerFixStatistics(api: Client, id: number, truth: DayTruth, zone: Zone, dayRecord: any): Promise<void> {
  // A page across the night's drain and one across the drive home (the refuelling's and the drain's
  // own minutes are left out: during them the change is already counted whole while the level still moves).
  const drainIndex = truth.valid.findIndex((v) => v.fix.timeMs >= truth.drain.startMs);
  const homeTrip = truth.trips.at(-1)!;
  const homeIndex = truth.valid.findIndex((v) => v.fix.timeMs >= homeTrip.startMs);
  for (const [offset, count] of [[drainIndex - 10, 40], [homeIndex - 5, 280]] as const) {
    const records = await statisticsOf(api, id, zone, 3, `&count=${count}&offset=${offset}`);
    assert.equal(records.length, count, `interval 3 page at ${offset}`);
    records.forEach((record, k) => {
      const index = offset + k;
      const { fix, cumDistanceM } = truth.valid[index]!;
      const what = `interval 3 record ${index}`;
      assert.equal(iso(toMs(record.locationDate, zone)), iso(fix.timeMs), `${what}: one record per valid fix, in time order`);
      near(record.mileage, cumDistanceM / 1000, ROUNDING, `${what} mileage from locations`);
      near(record.totalVehicleDistance, DAY_VEHICLE.initialOdometer + cumDistanceM / 1000, ROUNDING, `${what} total distance`);
      checkEngine(record.engineMotohours, truth, truth.dayStartMs, fix.timeMs, 0, `${what} engine hours`);
      near(record.endFuelLevel, fix.trueFuelL, smoothedFuelBound(truth, index), `${what} fuel`);
      const filled = truth.fill.startMs <= fix.timeMs;
      const drained = truth.drain.startMs <= fix.timeMs;
      const draining = fix.timeMs >= truth.drain.startMs - FUEL_EVENT_LAG_MS && fix.timeMs < truth.drain.startMs + DRAIN_SECONDS * SECOND + FUEL_EVENT_LAG_MS;
      if (draining) return;
      near(
        record.fuelConsumption,
        truth.valid[0]!.fix.trueFuelL - fix.trueFuelL + (filled ? truth.fill.litres : 0) - (drained ? truth.drain.litres : 0),
        smoothedFuelBound(truth, 0) + smoothedFuelBound(truth, index) + (filled ? FILL_VALUE_TOLERANCE_L : 0) + (drained ? FILL_VALUE_TOLERANCE_L : 0),
        `${what} fuel consumption`,
      );
    });
  }
  const tail = await statisticsOf(api, id, zone, 3, `&count=1000&offset=${truth.valid.length - 1}`);
  assert.equal(tail.length, 1, 'one record per valid fix: the last one is the last record');
  const [lastRecord] = tail;
  // Interval 1's values that come from locations are the last per-fix record's; mileage differs (tracks vs locations).
  for (const field of ['locationDate', 'fuelConsumption', 'engineMotohours', 'endFuelLevel']) {
    assert.equal(lastRecord[field], dayRecord[field], `interval 3's last record and interval 1 agree on ${field}`);
  }
  near(lastRecord.mileage, truth.valid.at(-1)!.cumDistanceM / 1000, ROUNDING, 'the whole day from locations');
}

// ---------------------------------------------------------------------------------------------

describe('the day generator', () => {
  const day = generateDay({ seed: 11, dayStartMs: UTC_DAY_MS });
  const { truth, fixes } = day;

  it('is deterministic per seed and differs between seeds', () => {
    assert.deepEqual(generateDay({ seed: 11, dayStartMs: UTC_DAY_MS }), day);
    assert.notDeepEqual(generateDay({ seed: 12, dayStartMs: UTC_DAY_MS }).fixes, fixes);
  });

  it('makes the day the tests rely on', () => {
    const times = fixes.map((f) => f.timeMs);
    assert.ok(times.every((t, i) => i === 0 || t > times[i - 1]!), 'one fix per instant, in order');
    assert.ok(times[0]! === UTC_DAY_MS && times.at(-1)! < UTC_DAY_MS + 24 * HOUR, 'the fixes fill one day');
    const steps = times.slice(1).map((t, i) => (t - times[i]!) / SECOND);
    // Lost packets lengthen a step; nothing else is missing but the dead zone.
    assert.ok(steps.every((s) => s <= 4 * PARKED_EVERY_S || s > GAP_SECONDS) && steps.filter((s) => s > GAP_SECONDS).length === 1, 'one dead zone, otherwise a fix at least every two minutes');
    assert.ok(steps.filter((s) => s > PARKED_EVERY_S && s < GAP_SECONDS).length > 5, 'some packets lost');
    assert.ok(steps.filter((s) => s === DRIVING_EVERY_S).length > 600, 'every 10 s while the engine runs');

    const invalid = fixes.filter((f) => !f.body.isValid);
    assert.equal(invalid.length, 4, 'wild invalid fixes');
    assert.ok(invalid.some((f) => f.body.velocity > DAY_VEHICLE.speedLimit) && invalid.some((f) => f.body.sensors[0]!.value > 105), 'invalid fixes that would raise events if counted');

    assert.deepEqual(truth.trips.map((t) => t.endedBy), ['stop', 'stop', 'silence', 'stop', 'stop', 'stop'], 'five trips, one cut by the dead zone');
    for (const trip of truth.trips) {
      assert.ok(trip.distanceM >= 200 && trip.finishMs - trip.startMs >= 60 * SECOND, `${trip.name} is long enough to be a track`);
      // The truth's fixes are within a fix interval of the physical departure and arrival (two where a packet was lost).
      const interval = 2 * DRIVING_EVERY_S * SECOND;
      assert.ok(Math.abs(trip.startMs - trip.departureMs) <= interval, `${trip.name} start ${iso(trip.startMs)}, departed ${iso(trip.departureMs)}`);
      assert.ok(Math.abs(trip.finishMs - trip.arrivalMs) <= interval, `${trip.name} finish ${iso(trip.finishMs)}, arrived ${iso(trip.arrivalMs)}`);
      const inTrip = truth.valid.filter((v) => v.fix.timeMs > trip.startMs && v.fix.timeMs < trip.finishMs);
      let stoodSince: number | null = null;
      for (const { fix } of inTrip) {
        if (fix.body.velocity > MOVE_SPEED_KMH) stoodSince = null;
        else stoodSince ??= fix.timeMs;
        assert.ok(stoodSince === null || fix.timeMs - stoodSince < STOP_SECONDS * SECOND - 30 * SECOND, `${trip.name}: no stop of 5 minutes inside`);
      }
    }
    assert.ok(
      truth.trips.some((t) => truth.valid.some((v) => v.fix.timeMs > t.startMs && v.fix.timeMs < t.finishMs && v.fix.body.velocity < 1)),
      'traffic-light stops inside trips',
    );
    assert.ok(truth.yardMove.arrivalMs - truth.yardMove.departureMs < 40 * SECOND && truth.yardMove.metres < 200, 'the yard move is no track');

    const types = truth.events.map((e) => e.type).sort();
    assert.deepEqual(types, [1, 2, 3, 3, 3, 4, 4, 5], 'a filling, a drain, three sensor excursions, a short and a prolonged speeding');
    const buffer = fixes.filter((f) => f.withheld);
    assert.ok(buffer.length > 50 && buffer.every((f) => f.timeMs >= truth.lateBuffer.fromMs && f.timeMs < truth.lateBuffer.toMs), 'a held-back buffer');
    const shortSpeeding = truth.events.find((e) => e.type === 4 && !truth.events.some((p) => p.type === 5 && p.timeMs === e.timeMs))!;
    assert.ok(shortSpeeding.timeMs >= truth.lateBuffer.fromMs && shortSpeeding.timeMs < truth.lateBuffer.toMs, 'the short speeding is in the held-back buffer');

    // The fuel events and the dead zone stay clear of the (local) hour edges, so each belongs to one hour.
    for (const ms of [truth.fill.startMs, truth.drain.startMs, truth.coverageGap.fromMs, truth.coverageGap.toMs]) {
      const minute = ((ms - truth.dayStartMs) / 60_000) % 60;
      assert.ok(minute > 5 && minute < 55, `${iso(ms)} is not at an hour edge`);
    }
    const gapHour = (ms: number) => Math.floor((ms - truth.dayStartMs) / HOUR);
    assert.equal(gapHour(truth.coverageGap.fromMs), gapHour(truth.coverageGap.toMs), 'the dead zone is inside one hour');
  });
});

for (const dialect of dialects) {
  describe(`a generated day of driving through the HTTP API on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { now: Date.parse('2026-05-21T03:00:00Z') });
    });
    after(() => server.close());

    describe('a UTC account, the tracker sending in order and its late buffer after the day', () => {
      const day = generateDay({ seed: 11, dayStartMs: UTC_DAY_MS });
      const createCar = (name: string) => createEmployee(server.api, { name, vehicleSettings: DAY_VEHICLE });
      let car: number;
      let reference: Awaited<ReturnType<typeof snapshot>>;

      it('splits the trip whose fixes are held back until the buffer arrives, then mends it', async () => {
        car = await createCar('Truck 11');
        // A track in progress keeps its id as it grows (CONTRACT §2).
        const idByStart = new Map<string, number>();
        const seen = async () => {
          for (const t of await tracksOf(server.api, car, UTC)) {
            assert.equal(idByStart.get(t.startDate) ?? t.trackID, t.trackID, `the track from ${t.startDate} kept its id`);
            idByStart.set(t.startDate, t.trackID);
          }
        };
        await deliverInOrder(server.api, car, day, { buffer: false, afterBatch: seen });
        const partial = await tracksOf(server.api, car, UTC);
        assert.equal(partial.length, day.truth.trips.length + 1, 'twelve minutes without fixes end a track');
        const events = await eventsOf(server.api, car, UTC);
        assert.equal(events.filter((e) => e.type === 4).length, 1, 'the short speeding is in the buffer');
        await deliverBuffer(server.api, car, day);
        assert.equal((await tracksOf(server.api, car, UTC)).length, day.truth.trips.length);
        await seen();
      });

      it('gives the true tracks (routes 3, 4, 5)', () => checkTracks(server.api, car, day.truth, UTC));
      it('gives every true vehicle event and no other (route 6)', () => checkEvents(server.api, car, day.truth, UTC));
      it('dates the refuelling and the drain where and when they began (route 6)', () => checkFuelEvents(server.api, car, day.truth, UTC));
      it('gives the day statistics (route 7, interval 1)', () => checkDayStatistics(server.api, car, day.truth, UTC));
      it('gives hourly statistics (interval 2)', () => checkHourlyStatistics(server.api, car, day.truth, UTC));
      it('gives statistics per fix (interval 3), paged, ending at interval 1', async () => {
        const record = (await statisticsOf(server.api, car, UTC, 1))[0];
        await checkPerFixStatistics(server.api, car, day.truth, UTC, record);
      });

      // A period cut two minutes after the first trip ended, while the vehicle stands at A: the track
      // is over (it ended where the vehicle came to rest) and lies wholly on one side of the cut.
      const cutAfterFirstTrip = () => iso(day.truth.trips[0]!.finishMs + 2 * 60 * SECOND);
      const tracksInPeriod = async (from: string, to: string, inside: typeof day.truth.trips, earlier: typeof day.truth.trips) => {
        const [record] = await statisticsOf(server.api, car, { ...UTC, from, to }, 1);
        const metres = (trips: typeof day.truth.trips) => trips.reduce((sum, t) => sum + t.distanceM, 0);
        const tolerance = ROUNDING + (day.truth.trips.length * DISTANCE_TOLERANCE_M) / 1000;
        near(record.mileage, metres(inside) / 1000, tolerance, `mileage from ${from} to ${to}: the tracks in it`);
        near(record.totalVehicleDistance, DAY_VEHICLE.initialOdometer + (metres(earlier) + metres(inside)) / 1000, tolerance, `total distance at ${to}`);
      };
      it('counts only the tracks inside a period that ends while the vehicle stands after a trip (interval 1)', () =>
        tracksInPeriod(UTC.from, cutAfterFirstTrip(), day.truth.trips.slice(0, 1), []));
      it('counts only the tracks inside a period that starts while the vehicle stands after a trip (interval 1)', () =>
        tracksInPeriod(cutAfterFirstTrip(), UTC.to, day.truth.trips.slice(1), day.truth.trips.slice(0, 1)));

      for (const [seed, scatter] of [[101, false], [202, false], [303, true]] as const) {
        it(`gives identical results when the day arrives in shuffled late batches (seed ${seed}${scatter ? ', scattered' : ''})`, async () => {
          reference ??= await snapshot(server.api, car, UTC, day.truth.valid.length);
          const other = await createCar(`Truck ${seed}`);
          const batches = await deliverShuffled(server.api, other, day, seed, scatter);
          assert.ok(batches > 5);
          const got = await snapshot(server.api, other, UTC, day.truth.valid.length);
          assert.deepEqual(got.tracks, reference.tracks, 'tracks');
          assert.deepEqual(got.events, reference.events, 'events');
          assert.deepEqual(got.statistics1, reference.statistics1, 'interval 1');
          assert.deepEqual(got.statistics2, reference.statistics2, 'interval 2');
          assert.deepEqual(got.statistics3, reference.statistics3, 'interval 3');
          assert.deepEqual(got.trackLocations, reference.trackLocations, 'track locations');
          // Identical to in-order delivery, which the tests above hold to the truth; and nothing twice.
          await checkTracks(server.api, other, day.truth, UTC);
          await checkEvents(server.api, other, day.truth, UTC);
        });
      }

      it('creates no duplicate tracks or events when batches are sent again', async () => {
        reference ??= await snapshot(server.api, car, UTC, day.truth.valid.length);
        const live = day.fixes.filter((f) => !f.withheld);
        const refuelBatch = Math.floor(live.findIndex((f) => f.timeMs >= day.truth.fill.startMs) / BATCH) * BATCH;
        await post(server.api, car, live.slice(refuelBatch, refuelBatch + BATCH));
        await deliverBuffer(server.api, car, day);
        await post(server.api, car, live.slice(-BATCH));
        const got = await snapshot(server.api, car, UTC, day.truth.valid.length);
        assert.deepEqual(got.tracks, reference.tracks, 'tracks');
        assert.deepEqual(got.events, reference.events, 'events');
        assert.deepEqual(got.statistics1, reference.statistics1, 'interval 1');
        assert.deepEqual(got.statistics2, reference.statistics2, 'interval 2');
        await checkTracks(server.api, car, day.truth, UTC, { resent: true });
        await checkEvents(server.api, car, day.truth, UTC);
      });
    });

    describe('an account in Asia/Kolkata, hours counted on its clock, fixes in order', () => {
      const day = generateDay({ seed: 29, dayStartMs: KOLKATA_DAY_MS, depot: { lat: 22.5726, lon: 88.3639 } });
      let api: Client;
      let car: number;
      before(async () => {
        ({ api } = await server.newAccount('Asia/Kolkata'));
        car = await createEmployee(api, { name: 'Tata 407', vehicleSettings: DAY_VEHICLE });
        await deliverInOrder(api, car, day);
      });

      it('gives the true tracks', () => checkTracks(api, car, day.truth, KOLKATA));
      it('gives every true vehicle event and no other', () => checkEvents(api, car, day.truth, KOLKATA));
      it('dates the refuelling and the drain where and when they began', () => checkFuelEvents(api, car, day.truth, KOLKATA));
      it('gives the day statistics (interval 1)', () => checkDayStatistics(api, car, day.truth, KOLKATA));
      it('gives one record per clock hour of Asia/Kolkata (interval 2)', () => checkHourlyStatistics(api, car, day.truth, KOLKATA));
      it('gives statistics per fix (interval 3)', async () => {
        const [record] = await statisticsOf(api, car, KOLKATA, 1);
        await checkPerFixStatistics(api, car, day.truth, KOLKATA, record);
      });
    });
  });
}
