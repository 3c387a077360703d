/**
 * Points closer to an edge than this (degrees, about 0.1 mm) are on the boundary, and so inside
 * (CONTRACT §3). Decimal coordinates of a point "on" a slanted edge are rarely exactly on it in
 * binary floating point; without a tolerance the answer would be a coin toss of rounding.
 */
export const BOUNDARY_TOLERANCE_DEGREES = 1e-9;
const EPS = BOUNDARY_TOLERANCE_DEGREES;
const EPS2 = EPS * EPS;

/** Rings with more edges than this get an edge index, so a test does not walk every edge. */
export const EDGE_INDEX_THRESHOLD = 64;
/** Target edges per latitude band; and the most an edge index may cost, in entries per edge. */
const EDGES_PER_BAND = 4;
const MAX_ENTRIES_PER_EDGE = 8;

/** `[longitude, latitude]`: x is longitude, y is latitude. */
export type LonLat = readonly [number, number];

/**
 * A zone outline: a closed ring in the plane of longitude (x) and latitude (y), tested with the
 * even-odd rule; a point on (or within the tolerance of) an edge or vertex is inside.
 * Rings with many edges index them by latitude bands: the edges whose latitude range meets a band
 * are listed under it, so a test looks only at the edges of the point's band.
 */
export class PolygonRing {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly edgeCount: number;
  /** x0, y0, x1, y1, …, with the first vertex repeated at the end: edge i runs from vertex i to i + 1. */
  private readonly coords: Float64Array;
  private readonly bands: LatitudeBands | null;

  /** `points` without a closing point (one equal to the first is ignored if present); at least one point. */
  constructor(points: readonly LonLat[], edgeIndexThreshold = EDGE_INDEX_THRESHOLD) {
    let n = points.length;
    if (n > 1 && samePoint(points[0]!, points[n - 1]!)) n--;
    if (n === 0) throw new Error('a ring needs at least one point');
    const coords = new Float64Array(2 * (n + 1));
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i <= n; i++) {
      const [x, y] = points[i % n]!;
      coords[2 * i] = x;
      coords[2 * i + 1] = y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    this.coords = coords;
    this.edgeCount = n;
    // The box grows by the tolerance so that points just outside a boundary edge still reach the test.
    this.minX = minX - EPS;
    this.minY = minY - EPS;
    this.maxX = maxX + EPS;
    this.maxY = maxY + EPS;
    this.bands = n > edgeIndexThreshold ? LatitudeBands.build(coords, n, this.minY, this.maxY) : null;
  }

  contains(x: number, y: number): boolean {
    if (x < this.minX || x > this.maxX || y < this.minY || y > this.maxY) return false;
    const bands = this.bands;
    if (bands === null) return this.containsScanningAllEdges(x, y);
    const band = bands.bandOf(y);
    return testEdges(this.coords, bands.edges, bands.start[band]!, bands.start[band + 1]!, x, y);
  }

  /** The same answer as `contains`, walking every edge: the reference the edge index is checked against. */
  containsScanningAllEdges(x: number, y: number): boolean {
    if (x < this.minX || x > this.maxX || y < this.minY || y > this.maxY) return false;
    return testEdges(this.coords, null, 0, this.edgeCount, x, y);
  }

  /** Bytes held by this ring's typed arrays. */
  get byteSize(): number {
    return this.coords.byteLength + (this.bands?.byteSize ?? 0);
  }
}

/**
 * The even-odd test over the edges `edges[from..to)` (or edges from..to when `edges` is null).
 * A ray from the point towards +x counts the edges it crosses, each edge taken half-open in y so
 * that a vertex on the ray counts once; any edge within the tolerance ends the test as inside.
 */
function testEdges(c: Float64Array, edges: Int32Array | null, from: number, to: number, x: number, y: number): boolean {
  let inside = false;
  for (let k = from; k < to; k++) {
    const j = (edges === null ? k : edges[k]!) << 1;
    const x1 = c[j]!;
    const y1 = c[j + 1]!;
    const x2 = c[j + 2]!;
    const y2 = c[j + 3]!;
    const lowY = y1 < y2 ? y1 : y2;
    const highY = y1 < y2 ? y2 : y1;
    if (y < lowY - EPS || y > highY + EPS) continue;
    const dx = x2 - x1;
    const dy = y2 - y1;
    const cross = dx * (y - y1) - dy * (x - x1);
    // Within the tolerance of the edge's line and of its box: on the boundary.
    if (cross * cross <= EPS2 * (dx * dx + dy * dy)) {
      const lowX = x1 < x2 ? x1 : x2;
      const highX = x1 < x2 ? x2 : x1;
      if (x >= lowX - EPS && x <= highX + EPS) return true;
    }
    if ((y1 > y) !== (y2 > y) && (cross > 0) === (dy > 0)) inside = !inside;
  }
  return inside;
}

/**
 * Edges listed by latitude band (compressed rows: the edges of band b are
 * `edges[start[b]..start[b + 1])`). An edge is listed under every band its latitude range, grown by
 * the tolerance, meets; a point is looked up with the same formula, which is monotonic in y, so
 * every edge that can matter to a point is in the point's band.
 */
class LatitudeBands {
  private constructor(
    private readonly originY: number,
    private readonly scale: number,
    private readonly lastBand: number,
    readonly start: Int32Array,
    readonly edges: Int32Array,
  ) {}

  static build(c: Float64Array, n: number, minY: number, maxY: number): LatitudeBands | null {
    const height = maxY - minY;
    if (!(height > 0)) return null;
    for (let bandCount = Math.ceil(n / EDGES_PER_BAND); bandCount >= 2; bandCount = Math.floor(bandCount / 2)) {
      const bands = LatitudeBands.tryBuild(c, n, minY, height, bandCount);
      if (bands) return bands;
    }
    return null;
  }

  /** Null when the edges are so tall (zigzags across the whole ring) that the index would grow too big. */
  private static tryBuild(c: Float64Array, n: number, minY: number, height: number, bandCount: number): LatitudeBands | null {
    const scale = bandCount / height;
    const lastBand = bandCount - 1;
    const bandOf = (y: number) => clampBand(Math.floor((y - minY) * scale), lastBand);
    const counts = new Int32Array(bandCount + 1);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const [low, high] = edgeBandRange(c, i, bandOf);
      total += high - low + 1;
      if (total > n * MAX_ENTRIES_PER_EDGE) return null;
      for (let b = low; b <= high; b++) counts[b + 1]!++;
    }
    const start = new Int32Array(bandCount + 1);
    for (let b = 0; b < bandCount; b++) start[b + 1] = start[b]! + counts[b + 1]!;
    const fill = start.slice(0, bandCount);
    const edges = new Int32Array(total);
    for (let i = 0; i < n; i++) {
      const [low, high] = edgeBandRange(c, i, bandOf);
      for (let b = low; b <= high; b++) edges[fill[b]!++] = i;
    }
    return new LatitudeBands(minY, scale, lastBand, start, edges);
  }

  bandOf(y: number): number {
    return clampBand(Math.floor((y - this.originY) * this.scale), this.lastBand);
  }

  get byteSize(): number {
    return this.start.byteLength + this.edges.byteLength;
  }
}

function edgeBandRange(c: Float64Array, i: number, bandOf: (y: number) => number): [number, number] {
  const y1 = c[2 * i + 1]!;
  const y2 = c[2 * i + 3]!;
  return [bandOf((y1 < y2 ? y1 : y2) - EPS), bandOf((y1 < y2 ? y2 : y1) + EPS)];
}

function clampBand(band: number, lastBand: number): number {
  return band < 0 ? 0 : band > lastBand ? lastBand : band;
}

function samePoint(a: LonLat, b: LonLat): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
