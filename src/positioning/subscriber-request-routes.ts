import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { SubscriberRequest, SubscriberRequestListQuery, SubscriberRequestWrite } from './subscriber-request-schema.js';
import type { SubscriberRequestService } from './subscriber-request-service.js';

const tags = ['employees'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/subscriberManagement/subscriberRequests`: "locate now" and its record. */
export function subscriberRequestRoutes(requests: SubscriberRequestService) {
  return async (api: Api) => {
    const base = '/subscriberManagement/subscriberRequests';

    api.post(
      base,
      {
        schema: {
          tags,
          summary: 'Locate an employee now',
          description:
            'Recorded with a result code: 0 located (the phone’s fix of the last minute; also in lastLocations), 5 offline, ' +
            '585 cannot locate (OsmAnd HTTP phones cannot be asked for a fix), 906 location detection disabled. ' +
            'More than one request per employee a minute: 429 code 588 with Retry-After.',
          body: SubscriberRequestWrite,
          response: { 201: SubscriberRequest, ...errors, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const created = await requests.request(request.principal.account, request.body.subscriberID);
        return reply.code(201).header('location', `/v6/api${base}/${created.requestID}`).send(created);
      },
    );

    api.get(
      base,
      { schema: { tags, summary: 'Locate requests, newest first', querystring: SubscriberRequestListQuery, response: { 200: Type.Array(SubscriberRequest), ...errors } } },
      async (request) => requests.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/:requestID`,
      { schema: { tags, summary: 'One locate request', params: Type.Object({ requestID: Id }), response: { 200: SubscriberRequest, ...errors } } },
      async (request) => requests.get(request.principal.account, request.params.requestID),
    );
  };
}
