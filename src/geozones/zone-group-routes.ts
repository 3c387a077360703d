import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { ZoneGroup, ZoneGroupPatch, ZoneGroupWrite } from './zone-group-schema.js';
import type { ZoneGroupService } from './zone-group-service.js';

const tags = ['geozone groups'];
const ById = Type.Object({ zoneGroupID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 16-21 of interface 4.3 (`/v6/api/zoneManagement/zoneGroups`). */
export function zoneGroupRoutes(groups: ZoneGroupService) {
  return async (api: Api) => {
    const base = '/zoneManagement/zoneGroups';

    api.get(
      base,
      { schema: { tags, summary: 'List zone groups (route 16)', response: { 200: Type.Array(ZoneGroup), ...errors } } },
      async (request) => groups.list(request.principal.account),
    );

    api.get(
      `${base}/:zoneGroupID`,
      { schema: { tags, summary: 'One zone group (route 17)', params: ById, response: { 200: ZoneGroup, ...errors } } },
      async (request) => groups.get(request.principal.account, request.params.zoneGroupID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create a zone group (route 18)', body: ZoneGroupWrite, response: { 201: ZoneGroup, ...errors } } },
      async (request, reply) => {
        const created = await groups.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.zoneGroupID}`).send(created);
      },
    );

    api.put(
      `${base}/:zoneGroupID`,
      { schema: { tags, summary: 'Replace a zone group (route 19)', params: ById, body: ZoneGroupWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await groups.replace(request.principal.account, request.params.zoneGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:zoneGroupID`,
      {
        schema: { tags, summary: 'Change some fields of a zone group (route 20)', params: ById, body: ZoneGroupPatch, response: { 204: NoContent, ...errors } },
      },
      async (request, reply) => {
        await groups.patch(request.principal.account, request.params.zoneGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:zoneGroupID`,
      {
        schema: {
          tags,
          summary: 'Delete a zone group (route 21)',
          description: 'A group that still has zones or child groups is kept: 409 code 1007.',
          params: ById,
          response: { 204: NoContent, ...errors, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        await groups.delete(request.principal.account, request.params.zoneGroupID);
        return reply.code(204).send(null);
      },
    );
  };
}
