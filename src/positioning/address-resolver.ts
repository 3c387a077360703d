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
  constructor(private readonly geozones: Pick<Geozones, 'lookup' | 'mapObjects'>) {}

  async names(executor: Db, accountId: number, points: { latitude: number; longitude: number }[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (points.length === 0) return names;
    const zones = await this.geozones.lookup.indexFor(accountId, executor);
    for (const { latitude, longitude } of points) {
      const key = pointKey(latitude, longitude);
      if (names.has(key)) continue;
      const zone = zones.findZonesContaining(latitude, longitude)[0];
      const name =
        zone?.name ||
        (await this.geozones.mapObjects.nearestName(executor, accountId, latitude, longitude, MAP_OBJECT_RADIUS_M)) ||
        coordinatesText(latitude, longitude);
      names.set(key, name);
    }
    return names;
  }
}
