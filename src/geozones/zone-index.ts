import Flatbush from 'flatbush';
import type { PolygonRing } from './polygon-ring.js';

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

/**
 * An immutable spatial index of one account's enabled zones: an R-tree (flatbush) over the zones'
 * boxes finds the candidates, each candidate's ring decides exactly. Built once per zone version
 * of the account; a lookup is synchronous and allocates only its answer.
 */
export class ZoneIndex {
  static readonly empty = new ZoneIndex([], null);

  private constructor(
    private readonly zones: readonly IndexedZone[],
    private readonly tree: Flatbush | null,
  ) {}

  static build(zones: readonly IndexedZone[]): ZoneIndex {
    if (zones.length === 0) return ZoneIndex.empty;
    // Items are numbered in zoneID order, so sorting the hits by item sorts them by zoneID.
    const sorted = [...zones].sort((a, b) => a.ref.zoneID - b.ref.zoneID);
    const tree = new Flatbush(sorted.length);
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
    let hits = this.hitsAt(latitude, longitude);
    if (longitude === 180 || longitude === -180) hits = [...new Set([...hits, ...this.hitsAt(latitude, -longitude)])];
    if (hits.length > 1) hits.sort((a, b) => a - b);
    const found = new Array<ZoneReference>(hits.length);
    for (let k = 0; k < hits.length; k++) found[k] = this.zones[hits[k]!]!.ref;
    return found;
  }

  private hitsAt(latitude: number, longitude: number): number[] {
    const zones = this.zones;
    return this.tree!.search(longitude, latitude, longitude, latitude, (i) => zones[i]!.ring.contains(longitude, latitude));
  }

  /** Bytes held by the tree and the rings' typed arrays (the objects around them are not counted). */
  get byteSize(): number {
    let bytes = this.tree?.data.byteLength ?? 0;
    for (const zone of this.zones) bytes += zone.ring.byteSize;
    return bytes;
  }
}
