import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { ZoneList, ZoneListQuery, ZoneLookupQuery, ZoneLookupResult, ZonePatch, ZoneWithExample, ZoneWrite } from './zone-schema.js';
import type { ZoneService } from './zone-service.js';

const tags = ['Geozones'];
const ById = Type.Object({ zoneID: withExamples(Id, 5) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 8-15 of interface 4.2 (`/v6/api/zoneManagement/zones`). */
export function zoneRoutes(zones: ZoneService) {
  return async (api: Api) => {
    const base = '/zoneManagement/zones';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List zones (route 8)',
          description:
            'The account’s zones with their boundaries. ' +
            '`withCustomTemplateItems` is required: `false` leaves `customFieldFormItems` out of every zone, which keeps a long list small.',
          querystring: ZoneListQuery,
          response: { 200: described(ZoneList, 'the zones'), ...errors },
        },
      },
      async (request) => zones.list(request.principal.account, request.query.withCustomTemplateItems),
    );

    // A static path: it wins over `/zones/:zoneID` whatever the order of declaration.
    api.get(
      `${base}/mapObjectCoordinates`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Enabled zones containing a map object or a point (routes 10 and 11)',
          description:
            'Give either `latitude` and `longitude`, for the enabled zones containing that point, or `mapObjectID` (optionally with ' +
            '`zoneGroupID`), for the enabled zones containing the map object, only in that group when given. A point on a boundary is inside. ' +
            'Neither pair complete is 400 code 52; an unknown map object 404 code 1005. Ordered by zoneID.',
          querystring: ZoneLookupQuery,
          response: { 200: described(ZoneLookupResult, 'the zones, zoneID ascending'), ...errors },
        },
      },
      async (request) => zones.findContaining(request.principal.account, request.query),
    );

    api.get(
      `${base}/:zoneID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One zone (route 9)',
          description: 'The zone with its boundary and custom fields. Another account’s zone is 404 code 1003, as a missing one.',
          params: ById,
          response: { 200: described(ZoneWithExample, 'the zone'), ...errors },
        },
      },
      async (request) => zones.get(request.principal.account, request.params.zoneID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create a zone (route 12)',
          description:
            '`name` is required; every other field takes its default when left out (`color` 0, `enabled` true, no group, empty `bounds`). ' +
            '`bounds` is a ring of at least 3 points; a zone with empty `bounds` contains nothing. `zoneGroupID` must be a group of this account. ' +
            'Custom field types are string, text, date, time, integer, double, boolean, select, picture or file, in any case.',
          body: ZoneWrite,
          response: { 201: described(ZoneWithExample, 'the created zone; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await zones.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.zoneID}`).send(created);
      },
    );

    api.put(
      `${base}/:zoneID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace a zone (route 13)',
          description:
            'Sends the whole zone, as a create does: a field left out takes its default, not its old value. Use PATCH to change some fields only. ' +
            'The spatial index of every server picks up the change.',
          params: ById,
          body: ZoneWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await zones.replace(request.principal.account, request.params.zoneID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:zoneID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of a zone (route 14)',
          description:
            'Only the fields in the body change; `name: null` is 400 code 52. ' +
            'Disabling a zone (`enabled: false`) keeps it but leaves it out of lookups and zone signals.',
          params: ById,
          body: ZonePatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await zones.patch(request.principal.account, request.params.zoneID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:zoneID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete a zone (route 15)',
          description: 'The zone is gone from lists, lookups and zone signals. Zone visits already reported stay in reports.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await zones.delete(request.principal.account, request.params.zoneID);
        return reply.code(204).send(null);
      },
    );
  };
}
