import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { feature } from 'topojson-client';
import type { Client } from '../helpers/server.js';

export const ZONES = '/v6/api/zoneManagement/zones';
export const GROUPS = '/v6/api/zoneManagement/zoneGroups';
export const MAP_OBJECTS = '/v6/api/mapObjectManagement/mapObjects';
export const LOOKUP = `${ZONES}/mapObjectCoordinates`;

/** `[longitude, latitude]` pairs as the wire's bounds. */
export function bounds(ring: readonly (readonly [number, number])[]): { longitude: number; latitude: number }[] {
  return ring.map(([longitude, latitude]) => ({ longitude, latitude }));
}

/** An axis-aligned square, lower-left corner and side in degrees. */
export function square(lon: number, lat: number, side: number): [number, number][] {
  return [
    [lon, lat],
    [lon + side, lat],
    [lon + side, lat + side],
    [lon, lat + side],
  ];
}

export async function createZone(api: Client, name: string, ring: readonly (readonly [number, number])[], extra: Record<string, unknown> = {}): Promise<number> {
  const r = await api.post(ZONES, { name, bounds: bounds(ring), ...extra });
  assert.equal(r.status, 201, `creating zone ${name}: ${r.text}`);
  return r.body.zoneID as number;
}

/** A zone as the API answers it when only its name was given: the defaults of CONTRACT §3. */
export function zoneWithDefaults(zoneID: number, name: string) {
  return {
    zoneID,
    name,
    color: 0,
    enabled: true,
    zoneGroupID: null,
    comment: '',
    bounds: [],
    customFieldsFormTemplateID: null,
    customFieldFormItems: [],
  };
}

export async function createGroup(api: Client, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await api.post(GROUPS, { name, ...extra });
  assert.equal(r.status, 201, `creating group ${name}: ${r.text}`);
  return r.body.zoneGroupID as number;
}

/** The ids of the zones route 11 answers for a point. */
export async function zonesAt(api: Client, latitude: number, longitude: number, extra = ''): Promise<number[]> {
  const r = await api.get(`${LOOKUP}?latitude=${latitude}&longitude=${longitude}${extra}`);
  assert.equal(r.status, 200, r.text);
  return r.body.zones.map((z: { zoneID: number }) => z.zoneID);
}

/** Asserts the error envelope of CONTRACT §1. */
export function assertError(r: { status: number; body: any; text: string }, status: number, code: number, context = ''): void {
  assert.equal(r.status, status, `${context}: ${r.text}`);
  assert.equal(r.body.status, status, context);
  assert.equal(r.body.code, code, `${context}: ${r.text}`);
  assert.equal(typeof r.body.description, 'string', context);
  assert.equal(typeof r.body.message, 'string', context);
}

export type Ring = [number, number][];

/**
 * The outer rings of Natural Earth's 1:10m country outlines (world-atlas): real shapes with
 * thousands of vertices. A country's ring is its polygon with the most vertices.
 */
export function countryOutlines(): Map<string, Ring> {
  const topology = JSON.parse(readFileSync(new URL('../../node_modules/world-atlas/countries-10m.json', import.meta.url), 'utf8'));
  const countries = feature(topology, topology.objects.countries) as unknown as {
    features: { properties: { name: string }; geometry: { type: string; coordinates: any } | null }[];
  };
  const outlines = new Map<string, Ring>();
  for (const { properties, geometry } of countries.features) {
    if (!geometry) continue;
    const polygons: Ring[][] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    const outer = polygons.map((p) => p[0]!).sort((a, b) => b.length - a.length)[0];
    if (outer) outlines.set(properties.name, outer);
  }
  return outlines;
}

/**
 * The reference the index is checked against, written independently of it: even-odd ray
 * crossing over every edge of every zone, where a point within `tolerance` of an edge (by
 * true point-to-segment distance) is on the boundary and so inside.
 */
export function containsByReference(ring: readonly (readonly [number, number])[], x: number, y: number, tolerance: number): boolean {
  const n = ring.length;
  let inside = false;
  for (let i = 0; i < n; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % n]!;
    if (distanceToSegment(x, y, x1, y1, x2, y2) <= tolerance) return true;
    if (y1 > y !== y2 > y) {
      const crossingX = x1 + ((y - y1) * (x2 - x1)) / (y2 - y1);
      if (x < crossingX) inside = !inside;
    }
  }
  return inside;
}

function distanceToSegment(px: number, py: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / length2));
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}
