/**
 * Points closer to an edge than this (degrees, about 0.1 mm) are on the boundary, and so inside
 * (CONTRACT §3). Decimal coordinates of a point "on" a slanted edge are rarely exactly on it in
 * binary floating point; without a tolerance the answer would be a coin toss of rounding.
 */
export const BOUNDARY_TOLERANCE_DEGREES = 1e-9;
const EPS = BOUNDARY_TOLERANCE_DEGREES;
const EPS2 = EPS * EPS;
/** A cell is near an edge when an edge comes this close: more than the tolerance, far more than rounding. */
const MARGIN = 2 * EPS;

const CELLS_PER_EDGE = 2;
const MAX_CELLS_PER_SIDE = 2048;
/** The most the edge lists may hold per edge; rings of long crossing edges get a coarser grid. */
const MAX_ENTRIES_PER_EDGE = 16;

/** What `classifyBox` says of a box: no point inside, every point inside, or it depends on the point. */
export const OUTSIDE = 0;
export const INSIDE = 1;
export const NEAR_EDGE = 2;

/** `[longitude, latitude]`: x is longitude, y is latitude. */
export type LonLat = readonly [number, number];

/**
 * A zone outline: a closed ring in the plane of longitude (x) and latitude (y), tested with the
 * even-odd rule; a point on (or within the tolerance of) an edge or vertex is inside.
 *
 * A grid over the ring's box makes a test cheap. Cells no edge comes near are known to be inside
 * or outside: most points are answered by one array read. Cells near the outline list the edges
 * that pass them (the edge index): a point there is on the boundary if one of its cell's edges is
 * within the tolerance, and otherwise takes the state of the nearest clear cell left or right of
 * it, flipped once per edge that crosses the way there. Only the edges of a few cells are looked at.
 */
export class PolygonRing {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly edgeCount: number;
  /** x0, y0, x1, y1, …, with the first vertex repeated at the end: edge i runs from vertex i to i + 1. */
  private readonly coords: Float64Array;
  private readonly cols: number;
  private readonly rows: number;
  private readonly scaleX: number;
  private readonly scaleY: number;
  private readonly cellState: Uint8Array;
  /** The edges near cell k are `cellEdges[cellStart[k]..cellStart[k + 1])`. */
  private readonly cellStart: Int32Array;
  /** Edge numbers fit 16 bits for any ring a zone may have (MAX_BOUNDS_POINTS): half the memory. */
  private readonly cellEdges: Uint16Array | Int32Array;

  /** `points` without a closing point (one equal to the first is ignored if present); at least one point. */
  constructor(points: readonly LonLat[]) {
    let n = points.length;
    if (n > 1 && points[0]![0] === points[n - 1]![0] && points[0]![1] === points[n - 1]![1]) n--;
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

    const width = this.maxX - this.minX;
    const height = this.maxY - this.minY;
    let target = CELLS_PER_EDGE * Math.max(n, 4);
    let entries: number;
    do {
      this.cols = Math.min(MAX_CELLS_PER_SIDE, Math.max(1, Math.round(Math.sqrt((target * width) / height))));
      this.rows = Math.min(MAX_CELLS_PER_SIDE, Math.max(1, Math.round(target / this.cols)));
      this.scaleX = this.cols / width;
      this.scaleY = this.rows / height;
      entries = 0;
      for (let i = 0; i < n; i++) this.visitCellsNear(i, () => entries++);
      target = Math.floor(target / 4);
    } while (entries > MAX_ENTRIES_PER_EDGE * n && this.cols * this.rows > 16);

    const cells = this.cols * this.rows;
    this.cellStart = new Int32Array(cells + 1);
    for (let i = 0; i < n; i++) this.visitCellsNear(i, (cell) => this.cellStart[cell + 1]!++);
    for (let k = 0; k < cells; k++) this.cellStart[k + 1]! += this.cellStart[k]!;
    this.cellEdges = n <= 0xffff ? new Uint16Array(entries) : new Int32Array(entries);
    const fill = this.cellStart.slice(0, cells);
    for (let i = 0; i < n; i++) this.visitCellsNear(i, (cell) => (this.cellEdges[fill[cell]!++] = i));
    this.cellState = new Uint8Array(cells);
    this.classifyCells();
  }

  contains(x: number, y: number): boolean {
    if (x < this.minX || x > this.maxX || y < this.minY || y > this.maxY) return false;
    const col = this.colOf(x);
    const row = this.rowOf(y);
    const state = this.cellState[row * this.cols + col];
    if (state !== NEAR_EDGE) return state === INSIDE;
    return this.containsNearEdge(x, y, row, col);
  }

  /** The same answer as `contains`, walking every edge: the reference the grid is checked against. */
  containsScanningAllEdges(x: number, y: number): boolean {
    if (x < this.minX || x > this.maxX || y < this.minY || y > this.maxY) return false;
    const c = this.coords;
    let inside = false;
    for (let j = 0; j < 2 * this.edgeCount; j += 2) {
      if (isNearEdge(c, j, x, y)) return true;
      if (crossesRayRightOf(c, j, x, y)) inside = !inside;
    }
    return inside;
  }

  /**
   * OUTSIDE when no point of the box is inside, INSIDE when every point is, else NEAR_EDGE: read
   * from the cells the box covers (a box reaching past the ring's box is never wholly inside).
   */
  classifyBox(minX: number, minY: number, maxX: number, maxY: number): number {
    if (maxX < this.minX || minX > this.maxX || maxY < this.minY || minY > this.maxY) return OUTSIDE;
    const lastCol = this.colOf(maxX);
    const lastRow = this.rowOf(maxY);
    let seen = -1;
    for (let row = this.rowOf(minY); row <= lastRow; row++) {
      for (let col = this.colOf(minX); col <= lastCol; col++) {
        const state = this.cellState[row * this.cols + col]!;
        if (state === NEAR_EDGE || (seen !== -1 && state !== seen)) return NEAR_EDGE;
        seen = state;
      }
    }
    if (seen === OUTSIDE) return OUTSIDE;
    const within = minX >= this.minX && maxX <= this.maxX && minY >= this.minY && maxY <= this.maxY;
    return within ? INSIDE : NEAR_EDGE;
  }

  /** Bytes held by this ring's typed arrays. */
  get byteSize(): number {
    return this.coords.byteLength + this.cellState.byteLength + this.cellStart.byteLength + this.cellEdges.byteLength;
  }

  private containsNearEdge(x: number, y: number, row: number, col: number): boolean {
    const { coords: c, cellStart, cellEdges, cellState, cols } = this;
    const base = row * cols;
    for (let k = cellStart[base + col]!; k < cellStart[base + col + 1]!; k++) {
      if (isNearEdge(c, cellEdges[k]! << 1, x, y)) return true;
    }
    // Towards the nearer clear cell of the row (or the nearer end of the ring's box, outside), counting
    // each edge crossing on the way in the one cell it lies in.
    let right = col;
    while (right < cols && cellState[base + right] === NEAR_EDGE) right++;
    let left = col;
    while (left >= 0 && cellState[base + left] === NEAR_EDGE) left--;
    const rightwards = right - col <= col - left;
    const from = rightwards ? col : left + 1;
    const to = rightwards ? right - 1 : col;
    let inside = rightwards ? right < cols && cellState[base + right] === INSIDE : left >= 0 && cellState[base + left] === INSIDE;
    for (let cc = from; cc <= to; cc++) {
      for (let k = cellStart[base + cc]!; k < cellStart[base + cc + 1]!; k++) {
        const j = cellEdges[k]! << 1;
        if (spans(c, j, y) && isRightOfPoint(c, j, x, y) === rightwards && this.colOf(crossingX(c, j, y)) === cc) inside = !inside;
      }
    }
    return inside;
  }

  /**
   * Clear cells take the state of the row's centre line: walking each row from the right, where
   * the ring's box ends (outside), the state flips once per edge crossing that line in a cell.
   */
  private classifyCells(): void {
    const { coords: c, cellStart, cellEdges, cellState } = this;
    for (let k = 0; k < cellState.length; k++) if (cellStart[k + 1]! > cellStart[k]!) cellState[k] = NEAR_EDGE;
    for (let row = 0; row < this.rows; row++) {
      const y = this.minY + (row + 0.5) / this.scaleY;
      const base = row * this.cols;
      let inside = false;
      for (let col = this.cols - 1; col >= 0; col--) {
        const cell = base + col;
        if (cellState[cell] !== NEAR_EDGE) {
          cellState[cell] = inside ? INSIDE : OUTSIDE;
          continue;
        }
        for (let k = cellStart[cell]!; k < cellStart[cell + 1]!; k++) {
          const j = cellEdges[k]! << 1;
          if (spans(c, j, y) && this.colOf(crossingX(c, j, y)) === col) inside = !inside;
        }
      }
    }
  }

  /** Calls `visit` with every cell edge i comes within the margin of: row by row, the stretch of the edge in that row. */
  private visitCellsNear(i: number, visit: (cell: number) => void): void {
    const c = this.coords;
    const x1 = c[2 * i]!;
    const y1 = c[2 * i + 1]!;
    const x2 = c[2 * i + 2]!;
    const y2 = c[2 * i + 3]!;
    const lastRow = this.rowOf(Math.max(y1, y2) + MARGIN);
    for (let row = this.rowOf(Math.min(y1, y2) - MARGIN); row <= lastRow; row++) {
      let xa = x1;
      let xb = x2;
      if (y1 !== y2) {
        const low = this.minY + row / this.scaleY - MARGIN;
        const high = this.minY + (row + 1) / this.scaleY + MARGIN;
        xa = x1 + clamp01((low - y1) / (y2 - y1)) * (x2 - x1);
        xb = x1 + clamp01((high - y1) / (y2 - y1)) * (x2 - x1);
      }
      const lastCol = this.colOf(Math.max(xa, xb) + MARGIN);
      for (let col = this.colOf(Math.min(xa, xb) - MARGIN); col <= lastCol; col++) visit(row * this.cols + col);
    }
  }

  private colOf(x: number): number {
    const col = Math.floor((x - this.minX) * this.scaleX);
    return col < 0 ? 0 : col >= this.cols ? this.cols - 1 : col;
  }

  private rowOf(y: number): number {
    const row = Math.floor((y - this.minY) * this.scaleY);
    return row < 0 ? 0 : row >= this.rows ? this.rows - 1 : row;
  }
}

/** Within the tolerance of the edge starting at c[j]: near its line and within its box grown by the tolerance. */
function isNearEdge(c: Float64Array, j: number, x: number, y: number): boolean {
  const x1 = c[j]!;
  const y1 = c[j + 1]!;
  const x2 = c[j + 2]!;
  const y2 = c[j + 3]!;
  if (y < (y1 < y2 ? y1 : y2) - EPS || y > (y1 < y2 ? y2 : y1) + EPS) return false;
  if (x < (x1 < x2 ? x1 : x2) - EPS || x > (x1 < x2 ? x2 : x1) + EPS) return false;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const cross = dx * (y - y1) - dy * (x - x1);
  return cross * cross <= EPS2 * (dx * dx + dy * dy);
}

/** The edge spans height y half-open (one end above y, the other not), so a vertex on the ray counts once. */
function spans(c: Float64Array, j: number, y: number): boolean {
  return (c[j + 1]! > y) !== (c[j + 3]! > y);
}

/** The ray from (x, y) towards +x crosses the edge: it spans y and passes right of the point. */
function crossesRayRightOf(c: Float64Array, j: number, x: number, y: number): boolean {
  return spans(c, j, y) && isRightOfPoint(c, j, x, y);
}

/** For an edge that spans height y: whether it passes right of (x, y), by the sign of the cross product. */
function isRightOfPoint(c: Float64Array, j: number, x: number, y: number): boolean {
  const dx = c[j + 2]! - c[j]!;
  const dy = c[j + 3]! - c[j + 1]!;
  return (dx * (y - c[j + 1]!) - dy * (x - c[j]!) > 0) === (dy > 0);
}

/** Where an edge that spans height y crosses it. */
function crossingX(c: Float64Array, j: number, y: number): number {
  return c[j]! + ((y - c[j + 1]!) * (c[j + 2]! - c[j]!)) / (c[j + 3]! - c[j + 1]!);
}

function clamp01(t: number): number {
  return t < 0 ? 0 : t > 1 ? 1 : t;
}
