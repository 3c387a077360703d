import type { ZoneIndex, ZoneReference } from '../../geozones/geozones.js';
import type { Point } from './pipeline-types.js';

/** How far outside a zone a fix must be before it counts as having left it (the zone signal's margin). */
export const EXIT_MARGIN_M = 50;
/** Checked at these distances in the eight compass directions around the fix. */
const PROBE_DISTANCES_M = [EXIT_MARGIN_M / 2, EXIT_MARGIN_M];
const METRES_PER_DEGREE = 111_320;

/**
 * Which enabled zones of the account contain one fix: looked up once per valid fix by the
 * pipeline and shared by the zone visits and the zone signals (6.3 type 2), so the hot path asks
 * the index once. `clearOf` (the exit test) is asked only of zones being left, and remembered.
 */
export class FixZones {
  private readonly clear = new Map<number, boolean>();

  // Built once per fix, by `at` only: positional, with no options object to allocate on the hot path.
  private constructor(
    readonly index: ZoneIndex,
    readonly latitude: number,
    readonly longitude: number,
    /** The enabled zones containing the fix, by zoneID. */
    readonly hits: readonly ZoneReference[],
  ) {}

  static at(index: ZoneIndex, latitude: number, longitude: number): FixZones {
    return new FixZones(index, latitude, longitude, index.size > 0 ? index.findZonesContaining(latitude, longitude) : []);
  }

  /** The zone as the index has it, if it contains this (earlier) point: a zone deleted, disabled or moved does not. */
  zoneAt(zoneID: number, latitude: number, longitude: number): ZoneReference | null {
    return this.index.findZonesContaining(latitude, longitude).find((zone) => zone.zoneID === zoneID) ?? null;
  }

  /**
   * Hysteresis of leaving: the fix is outside the zone and so is every point `EXIT_MARGIN_M` and
   * half that away in the eight compass directions. A parked vehicle whose fixes scatter across a
   * boundary does not leave; one driving out leaves within a few tens of metres.
   */
  clearOf(zoneID: number): boolean {
    let clear = this.clear.get(zoneID);
    if (clear === undefined) {
      clear = this.probeClear(zoneID);
      this.clear.set(zoneID, clear);
    }
    return clear;
  }

  private probeClear(zoneID: number): boolean {
    const metresPerDegreeLon = METRES_PER_DEGREE * Math.max(Math.cos((this.latitude * Math.PI) / 180), 1e-6);
    for (const distanceM of PROBE_DISTANCES_M) {
      for (let k = 0; k < 8; k++) {
        const angle = (k * Math.PI) / 4;
        const lat = this.latitude + (distanceM * Math.cos(angle)) / METRES_PER_DEGREE;
        let lon = this.longitude + (distanceM * Math.sin(angle)) / metresPerDegreeLon;
        if (lon > 180) lon -= 360;
        else if (lon < -180) lon += 360;
        if (this.index.findZonesContaining(Math.max(-90, Math.min(90, lat)), lon).some((z) => z.zoneID === zoneID)) return false;
      }
    }
    return true;
  }
}

/** One stay of a vehicle in a zone: from the first fix inside to the first fix clear of it (null while inside). */
export interface ZoneVisitRecord {
  zoneId: number;
  zoneName: string;
  enteredMs: number;
  leftMs: number | null;
  latitude: number;
  longitude: number;
}

export interface ZoneVisitState {
  /** `[zoneID, enteredMs, latest fix inside: ms, latitude, longitude]` of the visits in progress, by zoneID. */
  inside: [number, number, number, number, number][];
}

/**
 * Zone visits of one vehicle, for every enabled zone of its account: entered at the first fix
 * inside, left at the first fix clear of the zone (the zone signal's boundary rule, so a visit
 * ends where an exit signal fires). A zone deleted, disabled or moved away from where the vehicle
 * was last seen in it ends the visit at that last fix. The reports read what this writes.
 */
export class ZoneVisitDetector {
  constructor(readonly state: ZoneVisitState) {}

  static initialState(): ZoneVisitState {
    return { inside: [] };
  }

  step(point: Point, zones: FixZones, sink: { zoneVisit(record: ZoneVisitRecord): void }): void {
    const { state } = this;
    if (zones.hits.length === 0 && state.inside.length === 0) return;
    const inside: ZoneVisitState['inside'] = [];
    for (const entry of state.inside) {
      const [zoneId, enteredMs, lastMs, lat, lon] = entry;
      if (zones.hits.some((zone) => zone.zoneID === zoneId)) continue;
      const zone = zones.zoneAt(zoneId, lat, lon);
      if (!zone) sink.zoneVisit({ zoneId, zoneName: '', enteredMs, leftMs: lastMs, latitude: lat, longitude: lon });
      else if (zones.clearOf(zoneId)) sink.zoneVisit({ zoneId, zoneName: zone.name, enteredMs, leftMs: point.t, latitude: lat, longitude: lon });
      else inside.push(entry);
    }
    for (const zone of zones.hits) {
      const known = state.inside.find(([id]) => id === zone.zoneID);
      if (!known) sink.zoneVisit({ zoneId: zone.zoneID, zoneName: zone.name, enteredMs: point.t, leftMs: null, latitude: point.lat, longitude: point.lon });
      inside.push([zone.zoneID, known?.[1] ?? point.t, point.t, point.lat, point.lon]);
    }
    state.inside = inside.sort((a, b) => a[0] - b[0]);
  }
}
