import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { IngestResult, LocationBatch, LocationList, LocationListQuery, LocationWithExample } from './location-schema.js';
import type { LocationService } from './location-service.js';

const tags = ['Positioning'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 1 and 2 of interface 4.1, and the ingestion route of CONTRACT §6. */
export function locationRoutes(locations: LocationService, ingestBodyLimit: number) {
  return async (api: Api) => {
    const base = '/globalPositioningManagement/locations';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'GPS locations, newest first (route 1)',
          description:
            'The fixes of the period, of every employee or of those in `subscriberIDs`, newest first by `locationID`. ' +
            'Without `dateFrom` the period is the 72 hours before `dateTo` (now when omitted). ' +
            'Page with `lastLocationID`: pass the smallest `locationID` of the page you have, and only smaller ids come back. ' +
            'Fixes with `isValid: false` are listed too. An unknown employee in `subscriberIDs` is 404 code 12.',
          querystring: LocationListQuery,
          response: { 200: described(LocationList, 'the fixes, newest first; at most `count`'), ...errors },
        },
      },
      async (request) => locations.list(request.principal.account, request.query),
    );

    api.get(
      `/subscriberManagement/subscribers/lastLocations`,
      {
        config: { permission: 'view' },
        schema: {
          tags: ['Employee management'],
          summary: 'Latest fix of each employee',
          description:
            'For each employee (all of them, or those in `subscriberIDs`) the newest fix stored, whatever its age: what a map of the fleet starts ' +
            'from. An employee who never sent a fix is left out.',
          querystring: Type.Object({ subscriberIDs: Type.Optional(withExamples(Type.Array(Id, { maxItems: 1000 }), [17, 23])) }),
          response: { 200: described(LocationList, 'one fix per employee'), ...errors },
        },
      },
      async (request) => locations.latestOfEach(request.principal.account, request.query.subscriberIDs),
    );

    api.get(
      `${base}/:locationID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One GPS location (route 2)',
          description: 'The fix with this id. Another account’s fix, or one removed by retention, is 404 code 1001.',
          params: Type.Object({ locationID: withExamples(Id, 905512) }),
          response: { 200: described(LocationWithExample, 'the fix'), ...errors },
        },
      },
      async (request) => locations.get(request.principal.account, request.params.locationID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        bodyLimit: ingestBodyLimit,
        schema: {
          tags,
          summary: 'Send a batch of up to 10,000 fixes (all or nothing)',
          description:
            'Stores the fixes, with the tracks, vehicle events, statistics and signals they cause, in one transaction, and answers 201 only once ' +
            'they are on disk. The batch is all or nothing: one bad fix (coordinates out of range, a date more than 24 h ahead, an employee of ' +
            'another account) refuses the whole batch, naming the fix by its index in `validationErrors` (`[3].latitude`), and stores nothing. ' +
            'A date without an offset is in the account’s time zone. Fixes may arrive late and out of order: what they change is recomputed. ' +
            'The vehicle readings (`fuelLevel`, `ignition`, `odometer`, `sensors`...) feed vehicle events and statistics. ' +
            'The body may be up to 16 MiB. Send the batch again with the same `Idempotency-Key` after a timeout: it is stored once.',
          body: LocationBatch,
          response: { 201: described(IngestResult, 'stored'), ...errors, 413: ErrorBody },
        },
      },
      async (request, reply) => {
        const accepted = await locations.ingestBatch(request.principal.account, request.body);
        return reply.code(201).send({ accepted });
      },
    );
  };
}
