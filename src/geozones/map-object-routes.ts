import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { MapObjectList, MapObjectListQuery, MapObjectPatch, MapObjectWithExample, MapObjectWrite } from './map-object-schema.js';
import type { MapObjectService } from './map-object-service.js';

const tags = ['Map objects'];
const ById = Type.Object({ mapObjectID: withExamples(Id, 8) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/mapObjectManagement/mapObjects` (CONTRACT §3). */
export function mapObjectRoutes(objects: MapObjectService) {
  return async (api: Api) => {
    const base = '/mapObjectManagement/mapObjects';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List map objects',
          description:
            'The account’s map objects, all of them or those the filters name: words of the address, ids, groups. ' +
            'Filters given together must all hold.',
          querystring: MapObjectListQuery,
          response: { 200: described(MapObjectList, 'the map objects'), ...errors },
        },
      },
      async (request) => objects.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/:mapObjectID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One map object',
          description: 'The map object. Another account’s is 404 code 1005, as a missing one.',
          params: ById,
          response: { 200: described(MapObjectWithExample, 'the map object'), ...errors },
        },
      },
      async (request) => objects.get(request.principal.account, request.params.mapObjectID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create a map object',
          description: '`name`, `latitude` and `longitude` are required; `address` and `comment` default to "", `externalID` and `mapObjectGroupID` to null.',
          body: MapObjectWrite,
          response: { 201: described(MapObjectWithExample, 'the created map object; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await objects.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.mapObjectID}`).send(created);
      },
    );

    api.put(
      `${base}/:mapObjectID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace a map object',
          description: 'The whole map object, as a create: fields left out take their defaults.',
          params: ById,
          body: MapObjectWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await objects.replace(request.principal.account, request.params.mapObjectID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:mapObjectID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of a map object',
          description: 'Only the fields in the body change.',
          params: ById,
          body: MapObjectPatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await objects.patch(request.principal.account, request.params.mapObjectID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:mapObjectID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete a map object',
          description: 'The map object is gone; zone lookups by it answer 404 code 1005 from then on.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await objects.delete(request.principal.account, request.params.mapObjectID);
        return reply.code(204).send(null);
      },
    );
  };
}
