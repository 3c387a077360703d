import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { IngestResult, Location, LocationBatch, LocationListQuery } from './location-schema.js';
import type { LocationService } from './location-service.js';

const tags = ['positioning'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 1 and 2 of interface 4.1, and the ingestion route of CONTRACT §6. */
export function locationRoutes(locations: LocationService, ingestBodyLimit: number) {
  return async (api: Api) => {
    const base = '/globalPositioningManagement/locations';

    api.get(
      base,
      {
        schema: {
          tags,
          summary: 'GPS locations, newest first',
          description: 'Page with `lastLocationID`: only locations with a smaller id are returned.',
          querystring: LocationListQuery,
          response: { 200: Type.Array(Location), ...errors },
        },
      },
      async (request) => locations.list(request.principal.account, request.query),
    );

    api.get(
      `/subscriberManagement/subscribers/lastLocations`,
      {
        schema: {
          tags: ['employees'],
          summary: 'Latest fix of each employee',
          querystring: Type.Object({ subscriberIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })) }),
          response: { 200: Type.Array(Location), ...errors },
        },
      },
      async (request) => locations.latestOfEach(request.principal.account, request.query.subscriberIDs),
    );

    api.get(
      `${base}/:locationID`,
      { schema: { tags, summary: 'One GPS location', params: Type.Object({ locationID: Id }), response: { 200: Location, ...errors } } },
      async (request) => locations.get(request.principal.account, request.params.locationID),
    );

    api.post(
      base,
      {
        bodyLimit: ingestBodyLimit,
        schema: {
          tags,
          summary: 'Ingest a batch of up to 10,000 fixes (all or nothing)',
          description: 'Answers only after the batch is durably stored.',
          body: LocationBatch,
          response: { 201: IngestResult, ...errors, 413: ErrorBody },
        },
      },
      async (request, reply) => {
        const accepted = await locations.ingestBatch(request.principal.account, request.body);
        return reply.code(201).send({ accepted });
      },
    );
  };
}
