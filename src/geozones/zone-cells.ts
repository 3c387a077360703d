import { INSIDE, OUTSIDE, type PolygonRing } from './polygon-ring.js';

/** Cells per zone over the extent of all zones: fine enough that most cells lie wholly inside or outside a zone. */
const CELLS_PER_ZONE = 32;
const MAX_CELLS_PER_SIDE = 4096;
/** A cell crowded with more zones than this keeps no list: its points walk the R-tree instead. */
const MAX_LISTED = 32;
/** Cells are classified as boxes grown by this much, far beyond the rounding of the cell arithmetic. */
const PAD = 1e-9;

/**
 * A directory of cells over the extent of an account's zones. Each cell lists the zones that
 * cover it entirely (a point there is in them, nothing to test) and those whose outline passes
 * through it (a point there is tested against the ring). Zones that miss the cell are not listed.
 * A lookup reads one cell and a few list entries, where walking the R-tree and testing every
 * candidate ring would touch memory all over a large index.
 */
/** The cells' layout: `cols` × `rows` cells from (minX, minY), `scaleX` and `scaleY` cells per degree. */
interface CellGrid {
  minX: number;
  minY: number;
  scaleX: number;
  scaleY: number;
  cols: number;
  rows: number;
}

export class ZoneCells {
  // The grid's numbers as fields of their own: a lookup reads them without a second hop.
  private readonly minX: number;
  private readonly minY: number;
  private readonly scaleX: number;
  private readonly scaleY: number;
  private readonly cols: number;
  private readonly rows: number;

  private constructor(
    grid: CellGrid,
    /** Entries of cell k: `entries[start[k]..start[k + 1])`, each `zone * 2 + (1 if it covers the cell)`; -1 start: crowded. */
    private readonly start: Int32Array,
    private readonly entries: Int32Array,
  ) {
    this.minX = grid.minX;
    this.minY = grid.minY;
    this.scaleX = grid.scaleX;
    this.scaleY = grid.scaleY;
    this.cols = grid.cols;
    this.rows = grid.rows;
  }

  static build(rings: readonly PolygonRing[]): ZoneCells {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const ring of rings) {
      minX = Math.min(minX, ring.minX);
      minY = Math.min(minY, ring.minY);
      maxX = Math.max(maxX, ring.maxX);
      maxY = Math.max(maxY, ring.maxY);
    }
    const width = maxX - minX;
    const height = maxY - minY;
    const target = CELLS_PER_ZONE * rings.length;
    const cols = Math.min(MAX_CELLS_PER_SIDE, Math.max(1, Math.round(Math.sqrt((target * width) / height))));
    const rows = Math.min(MAX_CELLS_PER_SIDE, Math.max(1, Math.round(target / cols)));
    const grid: CellGrid = { minX, minY, scaleX: cols / width, scaleY: rows / height, cols, rows };
    const colOf = (x: number) => clamp(Math.floor((x - minX) * grid.scaleX), cols - 1);
    const rowOf = (y: number) => clamp(Math.floor((y - minY) * grid.scaleY), rows - 1);

    const cellOf: number[] = [];
    const entryOf: number[] = [];
    const counts = new Int32Array(cols * rows);
    rings.forEach((ring, zone) => {
      const lastRow = rowOf(ring.maxY);
      const lastCol = colOf(ring.maxX);
      for (let row = rowOf(ring.minY); row <= lastRow; row++) {
        const y0 = minY + row / grid.scaleY - PAD;
        const y1 = minY + (row + 1) / grid.scaleY + PAD;
        for (let col = colOf(ring.minX); col <= lastCol; col++) {
          const state = ring.classifyBox(minX + col / grid.scaleX - PAD, y0, minX + (col + 1) / grid.scaleX + PAD, y1);
          if (state === OUTSIDE) continue;
          const cell = row * cols + col;
          counts[cell]!++;
          cellOf.push(cell);
          entryOf.push(zone * 2 + (state === INSIDE ? 1 : 0));
        }
      }
    });
    const start = new Int32Array(cols * rows + 1);
    for (let cell = 0; cell < cols * rows; cell++) start[cell + 1] = start[cell]! + (counts[cell]! > MAX_LISTED ? 0 : counts[cell]!);
    const entries = new Int32Array(start[cols * rows]!);
    const fill = start.slice(0, cols * rows);
    for (let k = 0; k < cellOf.length; k++) {
      const cell = cellOf[k]!;
      if (counts[cell]! <= MAX_LISTED) entries[fill[cell]!++] = entryOf[k]!;
    }
    // Crowded cells are marked after the offsets are final: their lists are empty and their start is -1.
    for (let cell = 0; cell < cols * rows; cell++) if (counts[cell]! > MAX_LISTED) start[cell] = -1 - start[cell]!;
    return new ZoneCells(grid, start, entries);
  }

  /**
   * Adds to `hits` the zones containing the point, by the cell it falls in. False when that cell
   * is crowded and the caller must find them another way.
   */
  collect(x: number, y: number, rings: readonly PolygonRing[], hits: number[]): boolean {
    const col = Math.floor((x - this.minX) * this.scaleX);
    const row = Math.floor((y - this.minY) * this.scaleY);
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) {
      // Outside the extent no zone can hold the point, except at its very rim, left to the tree.
      return col < -1 || row < -1 || col > this.cols || row > this.rows;
    }
    const cell = row * this.cols + col;
    const from = this.start[cell]!;
    if (from < 0) return false;
    const next = this.start[cell + 1]!;
    const to = next < 0 ? -1 - next : next;
    for (let k = from; k < to; k++) {
      const entry = this.entries[k]!;
      const zone = entry >> 1;
      if ((entry & 1) === 1 || rings[zone]!.contains(x, y)) hits.push(zone);
    }
    return true;
  }

  get byteSize(): number {
    return this.start.byteLength + this.entries.byteLength;
  }
}

function clamp(value: number, last: number): number {
  return value < 0 ? 0 : value > last ? last : value;
}
