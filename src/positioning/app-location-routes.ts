import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { AppLocationBatch } from './location-schema.js';
import type { LocationService } from './location-service.js';

/**
 * `POST /mobile/v1/locations`: the positions the employee's app takes while it is open (the
 * browser's geolocation), as fixes of the device key's employee, through the ingest path every
 * device feeds; they make the employee online as any fix does.
 */
export function appLocationRoutes(locations: LocationService) {
  return async (mobile: Api) => {
    mobile.post(
      '/mobile/v1/locations',
      {
        schema: {
          tags: ['Employee app'],
          summary: 'The employee’s app sends the positions it took',
          description:
            'Authenticated by the employee’s device key, `Authorization: Device <deviceKey>` (401 code 1 without a valid one). Up to 1000 fixes ' +
            'of the key’s employee, each with its time and the browser’s accuracy in metres; stored all or none, answered once durable. A fix ' +
            'more than 24 h ahead of the server is 400 code 2 naming it. For positions while the app is closed, Traccar Client with the same key.',
          security: [],
          body: AppLocationBatch,
          response: { 201: described(withExamples(Type.Object({ accepted: Type.Integer() }), { accepted: 1 }), 'how many fixes were stored'), 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const accepted = await locations.ingestFromApp(request.device.account, request.device.subscriberID, request.body);
        return reply.code(201).send({ accepted });
      },
    );
  };
}
