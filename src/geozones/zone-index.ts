import Flatbush from 'flatbush';
import type { PolygonRing } from './polygon-ring.js';
import { ZoneCells } from './zone-cells.js';

/** What a lookup answers for each zone (interface 2.6). */
export interface ZoneReference {
  readonly zoneID: number;
  readonly name: string;
  readonly zoneGroupID: number | null;
}

export interface IndexedZone {
  readonly ref: ZoneReference;
  readonly ring: PolygonRing;
}

/** Small nodes suit point queries: fewer boxes to compare per node visited. */
const NODE_SIZE = 8;

/**
 * An immutable spatial index of one account's enabled zones, built once per zone version of the
 * account; a lookup is synchronous.
 *
 * An R-tree (flatbush, packed along a Hilbert curve) over the zones' boxes finds the candidates
 * and each candidate's ring decides exactly. In front of it, a cell directory answers most points
 * from one cell's short list (zones covering the cell need no test at all); points in cells
 * crowded with zones, and at the rim of the extent, walk the tree.
 *
 * The tree is walked here rather than through `Flatbush.search`, which allocates a queue, a result
 * array and a filter closure per call: lookups run once per GPS fix, and the walk over the packed
 * arrays allocates nothing but the answer.
 */
export class ZoneIndex {
  static readonly empty = new ZoneIndex([], null);

  private readonly boxes: Float64Array;
  private readonly indices: Uint16Array | Uint32Array;
  private readonly levelBounds: number[];
  private readonly rings: readonly PolygonRing[];
  private readonly refs: readonly ZoneReference[];
  private readonly cells: ZoneCells | null;
  /** Scratch space of the walk, reused: lookups are synchronous, so two never overlap. */
  private readonly stack: Int32Array;
  private readonly hits: number[] = [];

  private constructor(
    private readonly zones: readonly IndexedZone[],
    private readonly tree: Flatbush | null,
  ) {
    this.boxes = (tree?._boxes as Float64Array | undefined) ?? new Float64Array(0);
    this.indices = tree?._indices ?? new Uint32Array(0);
    this.levelBounds = tree?._levelBounds ?? [];
    this.rings = zones.map((zone) => zone.ring);
    this.refs = zones.map((zone) => zone.ref);
    this.cells = tree === null ? null : ZoneCells.build(this.rings);
    // A depth-first walk holds at most NODE_SIZE - 1 siblings per level, plus the node it is in.
    this.stack = new Int32Array(2 * (NODE_SIZE * (this.levelBounds.length + 1) + 1));
  }

  static build(zones: readonly IndexedZone[]): ZoneIndex {
    if (zones.length === 0) return ZoneIndex.empty;
    // Items are numbered in zoneID order, so sorting the hits by item sorts them by zoneID.
    const sorted = [...zones].sort((a, b) => a.ref.zoneID - b.ref.zoneID);
    const tree = new Flatbush(sorted.length, NODE_SIZE, Float64Array);
    for (const { ring } of sorted) tree.add(ring.minX, ring.minY, ring.maxX, ring.maxY);
    tree.finish();
    return new ZoneIndex(sorted, tree);
  }

  get size(): number {
    return this.zones.length;
  }

  /**
   * The zones containing the point (boundary included), ordered by zoneID ascending (CONTRACT §3).
   * Longitudes 180 and -180 are one meridian: a point on it is on the seam of both halves of a
   * zone that was split there (RFC 7946 §3.1.9), so it is looked up at both.
   */
  findZonesContaining(latitude: number, longitude: number): ZoneReference[] {
    if (this.tree === null) return [];
    const hits = this.hits;
    hits.length = 0;
    this.collect(longitude, latitude, hits);
    if (longitude === 180 || longitude === -180) {
      this.collect(-longitude, latitude, hits);
      dropDuplicates(hits);
    }
    sortSmall(hits);
    const found = new Array<ZoneReference>(hits.length);
    for (let k = 0; k < hits.length; k++) found[k] = this.refs[hits[k]!]!;
    return found;
  }

  /** Bytes held by the tree and the rings' typed arrays (the objects around them are not counted). */
  get byteSize(): number {
    let bytes = (this.tree?.data.byteLength ?? 0) + (this.cells?.byteSize ?? 0);
    for (const zone of this.zones) bytes += zone.ring.byteSize;
    return bytes;
  }

  private collect(x: number, y: number, hits: number[]): void {
    if (!this.cells!.collect(x, y, this.rings, hits)) this.walkTree(x, y, hits);
  }

  /** Depth-first over the packed tree: nodes whose box holds the point, down to the zones whose ring does. */
  private walkTree(x: number, y: number, hits: number[]): void {
    const { boxes, indices, levelBounds, stack, zones } = this;
    const leafEnd = zones.length * 4;
    let top = 0;
    stack[top++] = boxes.length - 4;
    stack[top++] = levelBounds.length - 1;
    while (top > 0) {
      const level = stack[--top]!;
      const node = stack[--top]!;
      const end = Math.min(node + NODE_SIZE * 4, levelBounds[level]!);
      const isLeafLevel = node < leafEnd;
      for (let pos = node; pos < end; pos += 4) {
        if (x < boxes[pos]! || y < boxes[pos + 1]! || x > boxes[pos + 2]! || y > boxes[pos + 3]!) continue;
        const index = indices[pos >> 2]!;
        if (!isLeafLevel) {
          stack[top++] = index;
          stack[top++] = level - 1;
        } else if (zones[index]!.ring.contains(x, y)) {
          hits.push(index);
        }
      }
    }
  }
}

/** Insertion sort: answers hold a few zones, for which it beats a comparator sort. */
function sortSmall(values: number[]): void {
  for (let i = 1; i < values.length; i++) {
    const value = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > value) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = value;
  }
}

function dropDuplicates(values: number[]): void {
  const unique = [...new Set(values)];
  values.length = 0;
  values.push(...unique);
}
