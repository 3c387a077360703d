/** The face of geozones: what other modules may use of it (see .dependency-cruiser.mjs). */
import type { AuditRecorder } from '../audit/audit.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { mapObjectRoutes } from './map-object-routes.js';
import { MapObjectService } from './map-object-service.js';
import { zoneGroupRoutes } from './zone-group-routes.js';
import { ZoneGroupService } from './zone-group-service.js';
import { ZoneLookup } from './zone-lookup.js';
import { zoneRoutes } from './zone-routes.js';
import { ZoneService } from './zone-service.js';

/** Names of the map objects nearest to points: track addresses where no zone contains the point. */
export type MapObjectPlaces = Pick<MapObjectService, 'nearestNames'>;

export interface GeozonesDependencies {
  database: Database;
  clock?: () => number;
  /** Checks the custom-field template and values a zone names; none: not checked. */
  templates?: CustomFieldTemplates | null;
  /** Where changes of zones, groups and map objects are logged. */
  audit?: AuditRecorder;
}

export interface Geozones {
  /** Which enabled zones contain a point: the pipeline's zone visits, zone signals, addresses. */
  lookup: ZoneLookup;
  places: MapObjectPlaces;
  /** Under `/v6/api`: zones, zone groups and map objects. */
  routes: Routes;
}

export function createGeozones({ database, clock = Date.now, templates = null, audit }: GeozonesDependencies): Geozones {
  const lookup = new ZoneLookup(database);
  const mapObjects = new MapObjectService(database, clock, audit);
  const zones = new ZoneService({ database, lookup, mapObjects, clock, templates, audit });
  const zoneGroups = new ZoneGroupService(database, clock, audit);
  return {
    lookup,
    places: mapObjects,
    routes: async (api) => {
      await api.register(zoneRoutes(zones));
      await api.register(zoneGroupRoutes(zoneGroups));
      await api.register(mapObjectRoutes(mapObjects));
    },
  };
}

export type { ZoneIndex, ZoneReference } from './zone-index.js';
export type { ZoneLookup } from './zone-lookup.js';
