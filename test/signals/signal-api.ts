// Helpers for the signal tests over the API: rules, fixes posted as a tracker would, and the
// signals the outbox holds for a rule.
import assert from 'node:assert/strict';
import { LOCATIONS, type Client, type TestServer } from '../helpers/server.js';

export const RULES = '/v6/api/eventManagement/events';
export const ZONES = '/v6/api/zoneManagement/zones';
export const TASKS = '/v6/api/taskManagement/tasks';
/** A receiver on loopback; the test servers allow private addresses (WEBHOOK_ALLOW_PRIVATE). */
export const HOOK = 'http://127.0.0.1:9/hook';
/** 2026-05-20 is a Wednesday. */
export const T0 = Date.parse('2026-05-20T06:00:00Z');
export const MINUTE = 60_000;
export const START = { lat: 55.75, lon: 37.6 };
const DEG_LON_PER_M = 1 / (111_320 * Math.cos((START.lat * Math.PI) / 180));
const DEG_LAT_PER_M = 1 / 110_574;

export type FixBody = Record<string, unknown> & { subscriberID: number; locationDate: string; latitude: number; longitude: number };

/** Metres east and north of START as a point. */
export const at = (eastM: number, northM = 0) => ({ lat: START.lat + northM * DEG_LAT_PER_M, lon: START.lon + eastM * DEG_LON_PER_M });

/**
 * A tracker's day, one fix every 10 s: `drive` east along START's parallel at a speed, `park`
 * where it is. `extra(i)` adds fields (readings) to the i-th fix of the segment.
 */
export class Trip {
  readonly fixes: FixBody[] = [];
  eastM = 0;

  constructor(
    readonly subscriberID: number,
    public timeMs: number,
    public northM = 0,
  ) {}

  drive(seconds: number, speedKmh: number, extra: (i: number) => object = () => ({})): this {
    for (let i = 0; i < seconds / 10; i++) {
      this.timeMs += 10_000;
      this.eastM += (speedKmh / 3.6) * 10;
      this.push(speedKmh, extra(i));
    }
    return this;
  }

  park(seconds: number, extra: (i: number) => object = () => ({})): this {
    for (let i = 0; i < seconds / 10; i++) {
      this.timeMs += 10_000;
      this.push(0, extra(i));
    }
    return this;
  }

  /** The fixes dated in [fromMs, toMs). */
  between(fromMs: number, toMs: number): FixBody[] {
    return this.fixes.filter((f) => Date.parse(f.locationDate) >= fromMs && Date.parse(f.locationDate) < toMs);
  }

  private push(velocity: number, extra: object): void {
    const where = at(this.eastM, this.northM);
    this.fixes.push({ subscriberID: this.subscriberID, locationDate: new Date(this.timeMs).toISOString(), latitude: where.lat, longitude: where.lon, velocity, ...extra });
  }
}

/** Posts fixes as a tracker online would: a minute's worth per request, in order. */
export async function postLive(api: Client, fixes: FixBody[], perRequest = 6): Promise<void> {
  for (let i = 0; i < fixes.length; i += perRequest) {
    const r = await api.post(LOCATIONS, fixes.slice(i, i + perRequest));
    assert.equal(r.status, 201, r.text);
  }
}

export async function createRule(api: Client, body: Record<string, unknown>): Promise<number> {
  const r = await api.post(RULES, { sendToApi: true, apiUrl: HOOK, ...body });
  assert.equal(r.status, 201, r.text);
  return r.body.eventID as number;
}

/** The webhook bodies in the outbox for this rule, oldest first. */
export async function signalsOf(server: TestServer, eventID: number): Promise<any[]> {
  const rows = await server.database.db
    .selectFrom('deliveries')
    .select(['payload', 'channel', 'target'])
    .where('event_rule_id', '=', eventID)
    .orderBy('id')
    .execute();
  for (const row of rows) assert.deepEqual([row.channel, row.target], ['webhook', HOOK]);
  return rows.map((r) => JSON.parse(r.payload));
}

/** Every signal body the account's outbox holds. */
export async function allSignals(server: TestServer): Promise<any[]> {
  const rows = await server.database.db.selectFrom('deliveries').select('payload').where('account_id', '=', server.account.id).orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.payload)).flat();
}

/** `2026-05-20T09:00:40+03:00` for an instant, in Moscow time (the test accounts' zone). */
export const moscow = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().replace(/\.000Z$/, '+03:00');

/** The fields every signal carries, from the fix that fired it. */
export function expectedBody(fix: FixBody, kind: number, eventID: number, externalId: string | null, fields: object = {}) {
  return {
    signalDate: moscow(Date.parse(fix.locationDate)),
    signalTypeID: kind,
    subscriberID: fix.subscriberID,
    subscriberExternalID: externalId,
    ...fields,
    eventID,
    latitude: fix.latitude,
    longitude: fix.longitude,
    velocity: fix.velocity,
  };
}

/** The body without its signalID, which is checked apart: a positive integer, unique in the outbox. */
export function withoutId(body: any): object {
  assert.ok(Number.isSafeInteger(body.signalID) && body.signalID > 0, `signalID ${body.signalID}`);
  const { signalID: _id, ...rest } = body;
  return rest;
}

export async function assertUniqueIds(server: TestServer): Promise<void> {
  const ids = (await allSignals(server)).map((b) => b.signalID).filter((id) => id !== undefined);
  assert.equal(new Set(ids).size, ids.length, 'signalIDs are unique');
}
