import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { ZoneGroupList, ZoneGroupPatch, ZoneGroupWithExample, ZoneGroupWrite } from './zone-group-schema.js';
import type { ZoneGroupService } from './zone-group-service.js';

const tags = ['Geozones'];
const ById = Type.Object({ zoneGroupID: withExamples(Id, 3) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 16-21 of interface 4.3 (`/v6/api/zoneManagement/zoneGroups`). */
export function zoneGroupRoutes(groups: ZoneGroupService) {
  return async (api: Api) => {
    const base = '/zoneManagement/zoneGroups';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List zone groups (route 16)',
          description: 'Every zone group of the account. Groups form a tree through `parentID`; a zone belongs to at most one group.',
          response: { 200: described(ZoneGroupList, 'the groups'), ...errors },
        },
      },
      async (request) => groups.list(request.principal.account),
    );

    api.get(
      `${base}/:zoneGroupID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One zone group (route 17)',
          description: 'The group. Another account’s group is 404 code 1004, as a missing one.',
          params: ById,
          response: { 200: described(ZoneGroupWithExample, 'the group'), ...errors },
        },
      },
      async (request) => groups.get(request.principal.account, request.params.zoneGroupID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create a zone group (route 18)',
          description: '`name` is required. `parentID` must name a group of this account; `regionID` is stored as given.',
          body: ZoneGroupWrite,
          response: { 201: described(ZoneGroupWithExample, 'the created group; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await groups.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.zoneGroupID}`).send(created);
      },
    );

    api.put(
      `${base}/:zoneGroupID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace a zone group (route 19)',
          description: 'The whole group: `parentID` or `regionID` left out become null. A parent that would make a cycle is 400 code 2.',
          params: ById,
          body: ZoneGroupWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await groups.replace(request.principal.account, request.params.zoneGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:zoneGroupID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of a zone group (route 20)',
          description: 'Only the fields in the body change. A parent that would make a cycle is 400 code 2.',
          params: ById,
          body: ZoneGroupPatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await groups.patch(request.principal.account, request.params.zoneGroupID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:zoneGroupID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete a zone group (route 21)',
          description:
            'A group that still has zones or child groups is kept: 409 code 1007, and nothing is deleted. ' +
            'Move or delete its zones and children first.',
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
