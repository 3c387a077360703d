import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BOUNDARY_TOLERANCE_DEGREES, PolygonRing } from '../../src/geozones/polygon-ring.js';
import { containsByReference, countryOutlines, square, type Ring } from './geozone-fixtures.js';

/** A grid of points over the ring's box, and up to `boundarySamples` vertices and midpoints of edges. */
function probes(ring: Ring, gridSide: number, boundarySamples = 400): [number, number][] {
  const xs = ring.map(([x]) => x);
  const ys = ring.map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const points: [number, number][] = [];
  for (let i = 0; i <= gridSide; i++) {
    for (let j = 0; j <= gridSide; j++) points.push([minX + ((maxX - minX) * i) / gridSide, minY + ((maxY - minY) * j) / gridSide]);
  }
  const step = Math.max(1, Math.floor(ring.length / boundarySamples));
  for (let i = 0; i < ring.length; i += step) {
    const [x, y] = ring[i]!;
    const [nx, ny] = ring[(i + 1) % ring.length]!;
    points.push([x, y], [(x + nx) / 2, (y + ny) / 2]);
  }
  return points;
}

describe('polygon rings', () => {
  it('counts the boundary of a square as inside, within the tolerance', () => {
    const ring = new PolygonRing(square(0, 0, 1));
    for (const [x, y] of [[0.5, 0.5], [0, 0], [1, 1], [0, 1], [1, 0], [0.5, 0], [1, 0.25], [0.75, 1], [0, 0.5]]) {
      assert.equal(ring.contains(x!, y!), true, `${x},${y}`);
    }
    const t = BOUNDARY_TOLERANCE_DEGREES;
    assert.equal(ring.contains(1 + t / 2, 0.5), true);
    assert.equal(ring.contains(-t / 2, -t / 2), true);
    for (const [x, y] of [[1 + 3 * t, 0.5], [0.5, -3 * t], [2, 2], [-0.5, 0.5], [0.5, 1.5]]) {
      assert.equal(ring.contains(x!, y!), false, `${x},${y}`);
    }
  });

  it('ignores a closing point and uses the even-odd rule on a self-crossing ring', () => {
    const closed = new PolygonRing([...square(0, 0, 2), [0, 0]]);
    assert.equal(closed.edgeCount, 4);
    // A bow tie: two triangles touching at (1, 1).
    const bowTie = new PolygonRing([[0, 0], [2, 2], [2, 0], [0, 2]]);
    assert.equal(bowTie.contains(0.2, 1), true);
    assert.equal(bowTie.contains(1.8, 1), true);
    assert.equal(bowTie.contains(1, 1), true, 'the crossing point lies on both edges');
    assert.equal(bowTie.contains(1, 0.2), false);
    assert.equal(bowTie.contains(1, 1.8), false);
    // A pentagram: the even-odd rule leaves its centre outside.
    const star = new PolygonRing([0, 2, 4, 1, 3].map((k) => [Math.cos((k * 2 * Math.PI) / 5), Math.sin((k * 2 * Math.PI) / 5)] as [number, number]));
    assert.equal(star.contains(0, 0), false);
    assert.equal(star.contains(0.6, 0), true);
  });

  it('answers exactly as a walk over every edge when its cell grid and edge lists are used (real outlines, 4 to 15,000 vertices)', () => {
    let rings = 0;
    let checked = 0;
    for (const [country, outline] of countryOutlines()) {
      const ring = new PolygonRing(outline);
      for (const [x, y] of probes(outline, 20, 150)) {
        assert.equal(ring.contains(x, y), ring.containsScanningAllEdges(x, y), `${country} at ${x},${y}`);
        checked++;
      }
      rings++;
    }
    assert.ok(rings > 200 && checked > 100_000, `${rings} rings, ${checked} points`);
  });

  it('agrees with an independent reference on real outlines, at grid points, vertices and edge midpoints', () => {
    const outlines = countryOutlines();
    for (const country of ['Norway', 'Chile', 'Italy', 'Switzerland', 'Fiji', 'Antarctica']) {
      const outline = outlines.get(country)!;
      const ring = new PolygonRing(outline);
      for (const [x, y] of probes(outline, 30)) {
        assert.equal(ring.contains(x, y), containsByReference(outline, x, y, BOUNDARY_TOLERANCE_DEGREES), `${country} at ${x},${y}`);
      }
    }
  });

  it('stays correct when every edge is tall (a zigzag whose edge lists would be too big on a fine grid)', () => {
    const zigzag: Ring = [];
    for (let i = 0; i < 200; i++) zigzag.push([i / 10, i % 2 === 0 ? 0 : 10]);
    zigzag.push([19.9, -1], [0, -1]);
    const ring = new PolygonRing(zigzag);
    for (const [x, y] of probes(zigzag, 50)) {
      assert.equal(ring.contains(x, y), containsByReference(zigzag, x, y, BOUNDARY_TOLERANCE_DEGREES), `${x},${y}`);
    }
  });

  it('matches the reference on random rings and points (property)', () => {
    const coordinate = fc.integer({ min: -1000, max: 1000 }).map((v) => v / 8);
    const vertex = fc.tuple(coordinate, coordinate);
    fc.assert(
      fc.property(fc.array(vertex, { minLength: 3, maxLength: 150, size: 'max' }), fc.array(vertex, { minLength: 1, maxLength: 40 }), (outline, points) => {
        const ring = new PolygonRing(outline);
        // Vertices and edge midpoints lie on the boundary; random points mostly do not.
        const all = [...points, ...outline, ...outline.map(([x, y], i) => [(x + outline[(i + 1) % outline.length]![0]) / 2, (y + outline[(i + 1) % outline.length]![1]) / 2] as [number, number])];
        for (const [x, y] of all) {
          if (ring.contains(x, y) !== containsByReference(outline, x, y, BOUNDARY_TOLERANCE_DEGREES)) return false;
        }
        return true;
      }),
      { numRuns: 300, seed: 20260520 },
    );
  });
});
