import type { Api } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { mapObjectRoutes } from './map-object-routes.js';
import { MapObjectService } from './map-object-service.js';
import { zoneGroupRoutes } from './zone-group-routes.js';
import { ZoneGroupService } from './zone-group-service.js';
import { ZoneLookup } from './zone-lookup.js';
import { zoneRoutes } from './zone-routes.js';
import { ZoneService } from './zone-service.js';

/** The geozone module's services. `lookup` is what other modules use: which enabled zones contain a point. */
export interface Geozones {
  zones: ZoneService;
  zoneGroups: ZoneGroupService;
  mapObjects: MapObjectService;
  lookup: ZoneLookup;
}

export function createGeozones(database: Database, clock: () => number = Date.now): Geozones {
  const lookup = new ZoneLookup(database);
  const mapObjects = new MapObjectService(database, clock);
  const zones = new ZoneService(database, lookup, mapObjects, clock);
  const zoneGroups = new ZoneGroupService(database, clock);
  return { zones, zoneGroups, mapObjects, lookup };
}

/** Zones, zone groups and map objects under `/v6/api`. */
export function geozoneRoutes(geozones: Geozones) {
  return async (api: Api) => {
    await api.register(zoneRoutes(geozones.zones));
    await api.register(zoneGroupRoutes(geozones.zoneGroups));
    await api.register(mapObjectRoutes(geozones.mapObjects));
  };
}
export type { ZoneIndex, ZoneReference } from './zone-index.js';
export type { ZoneLookup } from './zone-lookup.js';
