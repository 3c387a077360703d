import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { MapObject, MapObjectListQuery, MapObjectPatch, MapObjectWrite } from './map-object-schema.js';
import type { MapObjectService } from './map-object-service.js';

const tags = ['map objects'];
const ById = Type.Object({ mapObjectID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/mapObjectManagement/mapObjects` (CONTRACT §3). */
export function mapObjectRoutes(objects: MapObjectService) {
  return async (api: Api) => {
    const base = '/mapObjectManagement/mapObjects';

    api.get(
      base,
      { schema: { tags, summary: 'List map objects', querystring: MapObjectListQuery, response: { 200: Type.Array(MapObject), ...errors } } },
      async (request) => objects.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/:mapObjectID`,
      { schema: { tags, summary: 'One map object', params: ById, response: { 200: MapObject, ...errors } } },
      async (request) => objects.get(request.principal.account, request.params.mapObjectID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create a map object', body: MapObjectWrite, response: { 201: MapObject, ...errors } } },
      async (request, reply) => {
        const created = await objects.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.mapObjectID}`).send(created);
      },
    );

    api.put(
      `${base}/:mapObjectID`,
      { schema: { tags, summary: 'Replace a map object', params: ById, body: MapObjectWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await objects.replace(request.principal.account, request.params.mapObjectID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:mapObjectID`,
      { schema: { tags, summary: 'Change some fields of a map object', params: ById, body: MapObjectPatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await objects.patch(request.principal.account, request.params.mapObjectID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:mapObjectID`,
      { schema: { tags, summary: 'Delete a map object', params: ById, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await objects.delete(request.principal.account, request.params.mapObjectID);
        return reply.code(204).send(null);
      },
    );
  };
}
