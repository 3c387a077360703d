import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BOUNDARY_TOLERANCE_DEGREES, PolygonRing } from '../../src/geozones/polygon-ring.js';
import { ZoneIndex, type IndexedZone } from '../../src/geozones/zone-index.js';
import { containsByReference, square, type Ring } from './geozone-fixtures.js';

interface RandomZone {
  zoneID: number;
  ring: Ring;
}

function indexOf(zones: RandomZone[]): ZoneIndex {
  const indexed: IndexedZone[] = zones.map(({ zoneID, ring }) => ({ ref: { zoneID, name: `z${zoneID}`, zoneGroupID: null }, ring: new PolygonRing(ring) }));
  return ZoneIndex.build(indexed);
}

/** The brute force the index must equal: every zone, every edge, by the independent reference; ids ascending. */
function bruteForce(zones: RandomZone[], latitude: number, longitude: number): number[] {
  return zones
    .filter(({ ring }) => containsByReference(ring, longitude, latitude, BOUNDARY_TOLERANCE_DEGREES))
    .map(({ zoneID }) => zoneID)
    .sort((a, b) => a - b);
}

/** Star-shaped rings (often concave) of 3 to 300 vertices around a random centre in the given box. */
const starZone = (minLon: number, maxLon: number, minLat: number, maxLat: number) => fc
  .record({
    lon: fc.double({ min: minLon, max: maxLon, noNaN: true }),
    lat: fc.double({ min: minLat, max: maxLat, noNaN: true }),
    radius: fc.double({ min: 0.01, max: 5, noNaN: true }),
    radii: fc.array(fc.double({ min: 0.2, max: 1, noNaN: true }), { minLength: 3, maxLength: 300, size: 'max' }),
  })
  .map(({ lon, lat, radius, radii }) =>
    radii.map((r, i) => {
      const angle = (2 * Math.PI * i) / radii.length;
      return [lon + radius * r * Math.cos(angle), lat + radius * r * Math.sin(angle)] as [number, number];
    }),
  );

/** Arbitrary (often self-crossing) rings of small binary fractions, so vertices and midpoints are exact. */
const tangledZone = fc.array(
  fc.tuple(fc.integer({ min: -80, max: 80 }), fc.integer({ min: -80, max: 80 })).map(([x, y]) => [x / 4, y / 4] as [number, number]),
  { minLength: 3, maxLength: 120, size: 'max' },
);

describe('zone index', () => {
  it('answers nothing when empty', () => {
    assert.deepEqual(ZoneIndex.empty.findZonesContaining(0, 0), []);
    assert.deepEqual(ZoneIndex.build([]).findZonesContaining(10, 10), []);
  });

  it('orders overlapping zones by zoneID whatever the order they were given in', () => {
    const index = indexOf([
      { zoneID: 30, ring: square(0, 0, 10) },
      { zoneID: 5, ring: square(1, 1, 2) },
      { zoneID: 17, ring: square(0, 0, 5) },
    ]);
    assert.deepEqual(index.findZonesContaining(2, 2).map((z) => z.zoneID), [5, 17, 30]);
    assert.deepEqual(index.findZonesContaining(7, 7).map((z) => z.zoneID), [30]);
    assert.deepEqual(index.findZonesContaining(2, 2)[0], { zoneID: 5, name: 'z5', zoneGroupID: null });
  });

  it('equals a brute-force scan on random zones and points (property)', () => {
    fc.assert(
      fc.property(
        // Zones anywhere, zones crowded into one small region (so that they overlap), tangled zones.
        fc.array(fc.oneof(starZone(-175, 175, -85, 85), starZone(0, 3, 0, 3), tangledZone), { minLength: 1, maxLength: 60, size: 'max' }),
        fc.array(fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })), { maxLength: 30 }),
        fc.nat(),
        (rings, randomPoints, pick) => {
          const zones = rings.map((ring, i) => ({ zoneID: (i * 7919) % 1009, ring })).filter((z, i, all) => all.findIndex((o) => o.zoneID === z.zoneID) === i);
          const index = indexOf(zones);
          // Points that matter: random ones, each zone's vertices and edge midpoints, and points near its centre.
          const points: [number, number][] = [...randomPoints];
          for (const { ring } of zones) {
            const k = pick % ring.length;
            const [x, y] = ring[k]!;
            const [nx, ny] = ring[(k + 1) % ring.length]!;
            points.push([y, x], [(y + ny) / 2, (x + nx) / 2], [(y + ring[0]![1]) / 2, (x + ring[0]![0]) / 2]);
          }
          return points.every(([lat, lon]) => {
            const found = index.findZonesContaining(lat, lon).map((z) => z.zoneID);
            return JSON.stringify(found) === JSON.stringify(bruteForce(zones, lat, lon));
          });
        },
      ),
      { numRuns: 100, seed: 4 },
    );
  });

  it('treats longitudes 180 and -180 as one meridian and leaves other meridians alone', () => {
    const index = indexOf([
      { zoneID: 1, ring: [[170, 0], [180, 0], [180, 10], [170, 10]] },
      { zoneID: 2, ring: [[-180, 0], [-170, 0], [-170, 10], [-180, 10]] },
      { zoneID: 3, ring: square(-10, 0, 10) },
    ]);
    assert.deepEqual(index.findZonesContaining(5, 180).map((z) => z.zoneID), [1, 2]);
    assert.deepEqual(index.findZonesContaining(5, -180).map((z) => z.zoneID), [1, 2]);
    assert.deepEqual(index.findZonesContaining(5, 179.999).map((z) => z.zoneID), [1]);
    assert.deepEqual(index.findZonesContaining(5, 0).map((z) => z.zoneID), [3]);
    assert.deepEqual(index.findZonesContaining(11, 180), []);
  });
});
