import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Zone, ZoneListQuery, ZoneLookupQuery, ZoneLookupResult, ZonePatch, ZoneWrite } from './zone-schema.js';
import type { ZoneService } from './zone-service.js';

const tags = ['geozones'];
const ById = Type.Object({ zoneID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 8-15 of interface 4.2 (`/v6/api/zoneManagement/zones`). */
export function zoneRoutes(zones: ZoneService) {
  return async (api: Api) => {
    const base = '/zoneManagement/zones';

    api.get(
      base,
      { schema: { tags, summary: 'List zones (route 8)', querystring: ZoneListQuery, response: { 200: Type.Array(Zone), ...errors } } },
      async (request) => zones.list(request.principal.account, request.query.withCustomTemplateItems),
    );

    // A static path: it wins over `/zones/:zoneID` whatever the order of declaration.
    api.get(
      `${base}/mapObjectCoordinates`,
      {
        schema: {
          tags,
          summary: 'Enabled zones containing a map object or a point (routes 10 and 11)',
          description: 'Either `mapObjectID` (optionally with `zoneGroupID`) or `latitude` and `longitude`; ordered by zoneID.',
          querystring: ZoneLookupQuery,
          response: { 200: ZoneLookupResult, ...errors },
        },
      },
      async (request) => zones.findContaining(request.principal.account, request.query),
    );

    api.get(
      `${base}/:zoneID`,
      { schema: { tags, summary: 'One zone (route 9)', params: ById, response: { 200: Zone, ...errors } } },
      async (request) => zones.get(request.principal.account, request.params.zoneID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create a zone (route 12)', body: ZoneWrite, response: { 201: Zone, ...errors } } },
      async (request, reply) => {
        const created = await zones.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.zoneID}`).send(created);
      },
    );

    api.put(
      `${base}/:zoneID`,
      { schema: { tags, summary: 'Replace a zone (route 13)', params: ById, body: ZoneWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await zones.replace(request.principal.account, request.params.zoneID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:zoneID`,
      { schema: { tags, summary: 'Change some fields of a zone (route 14)', params: ById, body: ZonePatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await zones.patch(request.principal.account, request.params.zoneID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:zoneID`,
      { schema: { tags, summary: 'Delete a zone (route 15)', params: ById, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await zones.delete(request.principal.account, request.params.zoneID);
        return reply.code(204).send(null);
      },
    );
  };
}
