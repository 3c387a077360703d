import type { Geozones } from '../geozones/geozones.js';
import type { Db } from '../store/database.js';
import { coordinatesText } from '../geo/geo.js';

const MAP_OBJECT_RADIUS_M = 200;

export const pointKey = (latitude: number, longitude: number) => `${latitude},${longitude}`;

/**
 * Track addresses without a geocoder (CONTRACT §2): the name of the enabled zone containing the
 * point, else of the nearest map object within 200 m, else the coordinates. Never empty.
 */
export class AddressResolver {
  constructor(private readonly geozones: Pick<Geozones, 'lookup' | 'places'>) {}

  /** The zone lookup the names come from; the pipeline asks it for zone visits too. */
  get zones(): Geozones['lookup'] {
    return this.geozones.lookup;
  }

  async names(executor: Db, accountId: number, points: { latitude: number; longitude: number }[]): Promise<Map<string, string>> {
    const places = await this.placeNames(executor, accountId, points);
    return new Map(points.map((point) => {
      const key = pointKey(point.latitude, point.longitude);
      return [key, places.get(key) ?? coordinatesText(point.latitude, point.longitude)];
    }));
  }

  /**
   * The name of the enabled zone containing each point, else of the nearest map object within
   * 200 m, else null (keyed by `pointKey`): the places an account itself named.
   */
  async placeNames(executor: Db, accountId: number, points: readonly { latitude: number; longitude: number }[]): Promise<Map<string, string | null>> {
    const names = new Map<string, string | null>();
    if (points.length === 0) return names;
    const zones = await this.geozones.lookup.indexFor(accountId, executor);
    const unnamed = new Map<string, { latitude: number; longitude: number }>();
    for (const point of points) {
      const key = pointKey(point.latitude, point.longitude);
      if (names.has(key) || unnamed.has(key)) continue;
      const zone = zones.findZonesContaining(point.latitude, point.longitude)[0];
      if (zone?.name) names.set(key, zone.name);
      else unnamed.set(key, point);
    }
    // Outside every zone: the nearest map object, asked for all such points at once.
    const rest = [...unnamed.entries()];
    const objects = await this.geozones.places.nearestNames(executor, accountId, rest.map(([, point]) => point), MAP_OBJECT_RADIUS_M);
    rest.forEach(([key], i) => names.set(key, objects[i] || null));
    return names;
  }
}
