import assert from 'node:assert/strict';
import type { Client } from '../helpers/server.js';

export const MOBILE = '/v6/api/mobilePositioningManagement';
export const GPS = '/v6/api/globalPositioningManagement';
export const GROUPS = '/v6/api/subscriberManagement/subscriberGroups';
export const REQUESTS = '/v6/api/subscriberManagement/subscriberRequests';
export const CUSTOM_FIELDS = '/v6/api/customFieldsManagement/customFields';
export const FORMS = '/v6/api/formManagement/forms';
export const MAP_OBJECTS = '/v6/api/mapObjectManagement/mapObjects';
export const ZONES = '/v6/api/zoneManagement/zones';

/**
 * The query string axios builds from `params` (its default serializer): arrays as `key[]=v`
 * repeated, `+` and `:` in values escaped as `%2B` and `%3A`, then `:` put back (axios keeps
 * `:`, `$`, `,` readable).
 */
export function axiosQuery(params: Record<string, unknown>): string {
  const encode = (v: string) => encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%24/g, '$').replace(/%2C/gi, ',');
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) parts.push(`${encode(key)}[]=${encode(String(item))}`);
    else parts.push(`${encode(key)}=${encode(String(value))}`);
  }
  return parts.join('&');
}

/**
 * The HR client's paging loop, request for request: `count` a page, the last id of each page as
 * `lastIdParam` of the next, until a page shorter than `count`.
 */
export async function pageThrough(
  api: Client,
  path: string,
  params: Record<string, unknown>,
  lastIdParam: string,
  idField: string,
  count: number,
): Promise<{ items: any[]; pages: number[] }> {
  const items: any[] = [];
  const pages: number[] = [];
  let lastId: number | null = null;
  for (let i = 0; i < 100; i++) {
    const query: Record<string, unknown> = { ...params, count };
    if (lastId !== null) query[lastIdParam] = lastId;
    const r = await api.get(`${path}?${axiosQuery(query)}`);
    assert.equal(r.status, 200, `${path} page ${i}: ${r.text.slice(0, 300)}`);
    assert.ok(Array.isArray(r.body), 'a plain JSON array');
    items.push(...r.body);
    pages.push(r.body.length);
    if (r.body.length < count) return { items, pages };
    lastId = r.body.at(-1)[idField];
  }
  throw new Error('the paging loop did not end');
}

/**
 * Trips of one employee: `trips` drives of `fixesPerTrip` fixes 30 s apart, about 300 m each
 * (36 km/h), the first starting at `startMs`, each followed by 20 minutes of silence (the
 * track ends after 10). Oldest first.
 */
export function trips(subscriberID: number, startMs: number, count: number, fixesPerTrip: number, latitude = 55.75): Record<string, unknown>[] {
  const fixes: Record<string, unknown>[] = [];
  let t = startMs;
  for (let trip = 0; trip < count; trip++) {
    for (let i = 0; i < fixesPerTrip; i++) {
      fixes.push({
        subscriberID,
        locationDate: new Date(t).toISOString(),
        latitude: latitude + trip * 0.001,
        longitude: 37.6 + i * 0.0048,
        velocity: 36,
        angle: 90,
      });
      t += 30_000;
    }
    t += 20 * 60_000;
  }
  return fixes;
}

/** Sends fixes through the ingestion route in batches. */
export async function ingest(api: Client, fixes: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < fixes.length; i += 5000) {
    const r = await api.post(`${GPS}/locations`, fixes.slice(i, i + 5000));
    assert.equal(r.status, 201, r.text.slice(0, 300));
  }
}

/** Creates a custom-field template with these fields (`[externalID, type]`, named by their id) and returns its id. */
export async function createTemplate(api: Client, fields: [string, string][] = [], name = 'Template'): Promise<number> {
  const r = await api.post(CUSTOM_FIELDS, { name, customFieldFormItems: fields.map(([externalID, type]) => ({ externalID, name: externalID, type })) });
  assert.equal(r.status, 201, r.text);
  return r.body.customFieldsFormTemplateID;
}

/** Creates an employee group and returns its id. */
export async function createSubscriberGroup(api: Client, name = 'Group'): Promise<number> {
  const r = await api.post(GROUPS, { name });
  assert.equal(r.status, 201, r.text);
  return r.body.subscriberGroupID;
}
