import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { SubscriberRequest, subscriberRequestExamples, SubscriberRequestListQuery, SubscriberRequestWrite } from './subscriber-request-schema.js';
import type { SubscriberRequestService } from './subscriber-request-service.js';

const tags = ['Employee management'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/subscriberManagement/subscriberRequests`: "locate now" and its record. */
export function subscriberRequestRoutes(requests: SubscriberRequestService) {
  return async (api: Api) => {
    const base = '/subscriberManagement/subscriberRequests';

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Locate an employee now',
          description:
            'Recorded with a result code: 0 located (the phone’s fix of the last minute; also in lastLocations), 5 offline, 585 cannot locate ' +
            '(OsmAnd HTTP phones cannot be asked for a fix), 906 location detection disabled. ' +
            'More than one request per employee a minute: 429 code 588 with Retry-After.',
          body: SubscriberRequestWrite,
          response: { 201: described(withExamples(SubscriberRequest, subscriberRequestExamples[0]!), 'the request and its result'), ...errors, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const created = await requests.request(request.principal.account, request.body.subscriberID);
        return reply.code(201).header('location', `/v6/api${base}/${created.requestID}`).send(created);
      },
    );

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Locate requests, newest first',
          description: 'The locate requests of the period (the 72 hours before `dateTo` when `dateFrom` is left out), with their results.',
          querystring: SubscriberRequestListQuery,
          response: { 200: described(withExamples(Type.Array(SubscriberRequest), subscriberRequestExamples), 'the requests, newest first'), ...errors },
        },
      },
      async (request) => requests.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/:requestID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One locate request',
          description: 'A locate request and its result code.',
          params: Type.Object({ requestID: withExamples(Id, 88) }),
          response: { 200: described(withExamples(SubscriberRequest, subscriberRequestExamples[0]!), 'the request'), ...errors },
        },
      },
      async (request) => requests.get(request.principal.account, request.params.requestID),
    );
  };
}
