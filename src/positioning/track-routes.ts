import { Type } from 'typebox';
import { ErrorBody, type Api } from '../http/route-types.js';
import { Location } from './location-schema.js';
import type { StatisticsService } from './statistics-service.js';
import { EventListQuery, Statistics, StatisticsQuery, Track, TrackListQuery, TrackParams, VehicleEvents } from './track-schema.js';
import type { TrackService } from './track-service.js';
import type { VehicleEventService } from './vehicle-event-service.js';

const tags = ['positioning'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 3-7 of interface 4.1: what the pipeline derived from the fixes. */
export function trackRoutes(tracks: TrackService, events: VehicleEventService, statistics: StatisticsService) {
  return async (api: Api) => {
    const base = '/globalPositioningManagement';

    api.get(
      `${base}/tracks`,
      {
        schema: {
          tags,
          summary: 'GPS tracks overlapping the period, trackID ascending',
          description: 'Page with `lastTrackID` (only greater ids) or `offset`.',
          querystring: TrackListQuery,
          response: { 200: Type.Array(Track), ...errors },
        },
      },
      async (request) => tracks.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/tracks/:trackID`,
      { schema: { tags, summary: 'One GPS track', params: TrackParams, response: { 200: Track, ...errors } } },
      async (request) => tracks.get(request.principal.account, request.params.trackID),
    );

    api.get(
      `${base}/tracks/:trackID/locations`,
      { schema: { tags, summary: 'The valid fixes of a track, oldest first', params: TrackParams, response: { 200: Type.Array(Location), ...errors } } },
      async (request) => tracks.locations(request.principal.account, request.params.trackID),
    );

    api.get(
      `${base}/events`,
      {
        schema: {
          tags,
          summary: 'Vehicle events grouped per vehicle',
          description: '`count` and `offset` apply to events across the whole answer, before grouping.',
          querystring: EventListQuery,
          response: { 200: VehicleEvents, ...errors },
        },
      },
      async (request) => events.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/statistics`,
      {
        schema: {
          tags,
          summary: 'Vehicle statistics grouped per vehicle',
          description: 'interval 1: the latest record of the period (mileage from tracks); 2: hourly; 3: every valid fix (mileage from locations).',
          querystring: StatisticsQuery,
          response: { 200: Statistics, ...errors },
        },
      },
      async (request) => statistics.list(request.principal.account, request.query),
    );
  };
}
