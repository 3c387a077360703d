import { Type } from 'typebox';
import { DateTimeText, Id, IdList, Offset } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { MobileLocation, type MobileLocations } from './mobile-locations.js';
import { Track } from './track-schema.js';
import type { TrackService } from './track-service.js';

const tags = ['positioning'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
/** The original's mobile positioning lists stop at 200 (above: code 66, see validation.ts). */
const Count200 = Type.Integer({ minimum: 1, maximum: 200, default: 200, description: 'at most 200 (code 66 above)' });

const period = { dateFrom: Type.Optional(DateTimeText), dateTo: Type.Optional(DateTimeText), subscriberIDs: Type.Optional(IdList) };
const MobileLocationQuery = Type.Object({ ...period, count: Type.Optional(Count200), offset: Type.Optional(Offset), lastLocationID: Type.Optional(Id) });
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
        schema: {
          tags,
          summary: 'The employees’ positions, newest first (the GPS locations, 200 a page)',
          description:
            'Page with `lastLocationID` (only smaller ids) or `offset`. Each position has the fields of a GPS location and those of the original’s mobile ' +
            'locations (`state`, `source`, `requestDate`, `address`), always present, null where Lokator has no value.',
          querystring: MobileLocationQuery,
          response: { 200: Type.Array(MobileLocation), ...errors },
        },
      },
      async (request) => locations.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/locations/:locationID`,
      { schema: { tags, summary: 'One position of an employee', params: Type.Object({ locationID: Id }), response: { 200: MobileLocation, ...errors } } },
      async (request) => locations.get(request.principal.account, request.params.locationID),
    );

    api.get(
      `${base}/tracks`,
      {
        schema: {
          tags,
          summary: 'The employees’ tracks overlapping the period, trackID ascending (the GPS tracks, 200 a page)',
          description: 'Page with `lastTrackID` (only greater ids) or `offset`.',
          querystring: MobileTrackQuery,
          response: { 200: Type.Array(Track), ...errors },
        },
      },
      async (request) => tracks.list(request.principal.account, request.query),
    );
  };
}
