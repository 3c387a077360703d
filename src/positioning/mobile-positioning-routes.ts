import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { DateTimeText, Id, IdList, Offset } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { MobileLocation, type MobileLocations } from './mobile-locations.js';
import { TrackList } from './track-schema.js';
import type { TrackService } from './track-service.js';

const tags = ['Mobile positioning'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
/** The original's mobile positioning lists stop at 200 (above: code 66, see validation.ts). */
const Count200 = Type.Integer({ minimum: 1, maximum: 200, default: 200, description: 'at most 200 (code 66 above)' });

const period = {
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  subscriberIDs: Type.Optional(withExamples(IdList, [17])),
};
const MobileLocationQuery = Type.Object({ ...period, count: Type.Optional(Count200), offset: Type.Optional(Offset), lastLocationID: Type.Optional(Id) });
const mobileLocationExample: MobileLocation = {
  locationDate: '2026-03-02T09:14:05+03:00',
  subscriberID: 17,
  locationID: 905512,
  isValid: true,
  longitude: 37.61173,
  latitude: 55.75583,
  angle: 90,
  velocity: 32.5,
  state: null,
  source: null,
  requestDate: '2026-03-02T09:14:06+03:00',
  address: 'Pharmacy on Tverskaya',
};
const MobileTrackQuery = Type.Object({
  ...period,
  count: Type.Optional(Count200),
  offset: Type.Optional(Offset),
  lastTrackID: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

/**
 * `/v6/api/mobilePositioningManagement`: the original's positions of the employees' phones. In
 * Lokator every fix of an employee is its phone's (or its tracker's) position, so these answer the
 * same fixes and tracks as the GPS routes, with the same ids and paging, at most 200 a page; the
 * locations carry the original's mobile fields besides (docs/integrators/clients-details.md).
 */
export function mobilePositioningRoutes(locations: MobileLocations, tracks: TrackService) {
  return async (api: Api) => {
    const base = '/mobilePositioningManagement';

    api.get(
      `${base}/locations`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The employees’ positions, newest first',
          description:
            'The same fixes as the GPS locations, with the same ids, at most 200 a page (`count` above 200 is 400 code 66). ' +
            'Page with `lastLocationID` (only smaller ids) or `offset`. Each position has the fields of a GPS location and those of the ' +
            'original’s mobile locations (`state`, `source`, `requestDate`, `address`), always present, null where Lokator has no value.',
          querystring: MobileLocationQuery,
          response: { 200: described(withExamples(Type.Array(MobileLocation), [mobileLocationExample]), 'the positions, newest first; at most `count`'), ...errors },
        },
      },
      async (request) => locations.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/locations/:locationID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One position of an employee',
          description: 'The GPS location with this id, in the mobile shape. Another account’s is 404 code 1001.',
          params: Type.Object({ locationID: withExamples(Id, 905512) }),
          response: { 200: described(withExamples(MobileLocation, mobileLocationExample), 'the position'), ...errors },
        },
      },
      async (request) => locations.get(request.principal.account, request.params.locationID),
    );

    api.get(
      `${base}/tracks`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The employees’ tracks overlapping the period',
          description:
            'The GPS tracks, in `trackID` order, at most 200 a page (`count` above 200 is 400 code 66). ' +
            'Page with `lastTrackID` (only greater ids) or `offset`.',
          querystring: MobileTrackQuery,
          response: { 200: described(TrackList, 'the tracks, trackID ascending; at most `count`'), ...errors },
        },
      },
      async (request) => tracks.list(request.principal.account, request.query),
    );
  };
}
