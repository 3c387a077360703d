import { Type } from 'typebox';
import type { WorkspaceSessions } from '../accounts/accounts.js';
import { described, withExamples } from '../http/examples.js';
import { ApiError } from '../http/errors.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { GeocoderError, type PlaceSearch } from '../positioning/positioning.js';
import { currentSession } from './workspace-routes.js';

const FoundPlace = Type.Object({
  name: Type.String({ description: 'the address as the geocoder writes it' }),
  latitude: Type.Number(),
  longitude: Type.Number(),
});

/**
 * `GET /workspace/api/places?q=…`: the maps' address search, through the Nominatim-compatible
 * geocoder of GEOCODER_URL (registered only with one; the workspace hides its search box without). The server asks,
 * not the browser: the geocoder's address stays a server setting and the page's content policy
 * stays closed.
 */
export function placeRoutes(sessions: Pick<WorkspaceSessions, 'authenticate'>, places: PlaceSearch) {
  return async (api: Api) => {
    api.get(
      '/workspace/api/places',
      {
        schema: {
          tags: ['Workspace'],
          summary: 'Find places by address',
          description:
            'For the search box of the workspace’s maps, with its session cookie: up to 8 places whose address matches `q`, best first, named in ' +
            '`language` where the geocoder knows it. Only with GEOCODER_URL set (without it, 404 code 1013); the geocoder unreachable or failing: 503 code 1014.',
          querystring: Type.Object({
            q: withExamples(Type.String({ minLength: 1, maxLength: 200 }), 'Тверская 7'),
            language: Type.Optional(withExamples(Type.Union([Type.Literal('ru'), Type.Literal('en')]), 'ru')),
          }),
          response: {
            200: described(withExamples(Type.Array(FoundPlace), [{ name: 'Тверская улица, 7, Москва', latitude: 55.7585, longitude: 37.6125 }]), 'the places found'),
            400: ErrorBody,
            401: ErrorBody,
            503: ErrorBody,
          },
        },
      },
      async (request) => {
        await currentSession(sessions, request);
        const text = request.query.q.trim();
        if (text === '') return [];
        try {
          return await places.search(text, request.query.language ?? 'en');
        } catch (error) {
          if (error instanceof GeocoderError) throw new ApiError('SERVICE_UNAVAILABLE', 'the geocoder did not answer; try again');
          throw error;
        }
      },
    );
  };
}
