import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { Location } from './location-schema.js';
import type { StatisticsService } from './statistics-service.js';
import { EventListQuery, Statistics, StatisticsQuery, TrackList, TrackListQuery, TrackParams, TrackWithExample, VehicleEvents } from './track-schema.js';
import type { TrackService } from './track-service.js';
import type { VehicleEventService } from './vehicle-event-service.js';

const tags = ['Positioning'];

const trackFixes = withExamples(Type.Array(Location), [
  { locationDate: '2026-03-02T08:02:11+03:00', subscriberID: 23, locationID: 904880, isValid: true, longitude: 37.6805, latitude: 55.7892, angle: 215, velocity: 12 },
  { locationDate: '2026-03-02T08:02:41+03:00', subscriberID: 23, locationID: 904884, isValid: true, longitude: 37.67791, latitude: 55.78702, angle: 221, velocity: 38.4 },
]);
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Routes 3-7 of interface 4.1: what the pipeline derived from the fixes. */
export function trackRoutes(tracks: TrackService, events: VehicleEventService, statistics: StatisticsService) {
  return async (api: Api) => {
    const base = '/globalPositioningManagement';

    api.get(
      `${base}/tracks`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'GPS tracks overlapping the period (route 3)',
          description:
            'Tracks are derived from the fixes: one starts when the employee moves and ends after 5 minutes standing still or 10 minutes without ' +
            'a fix. Listed are the tracks with any part inside the period, in `trackID` order; a track still in progress ends at its latest fix ' +
            'and keeps its id as it grows. Page with `lastTrackID` (only greater ids come back) or with `offset`. ' +
            'Without `dateFrom` the period is the 72 hours before `dateTo`.',
          querystring: TrackListQuery,
          response: { 200: described(TrackList, 'the tracks, trackID ascending; at most `count`'), ...errors },
        },
      },
      async (request) => tracks.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/tracks/:trackID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One GPS track (route 4)',
          description:
            '`distance` is in metres along the valid fixes, `duration` in seconds. ' +
            'An address is the geocoder’s, else the zone or map object there, else the coordinates.',
          params: TrackParams,
          response: { 200: described(TrackWithExample, 'the track'), ...errors },
        },
      },
      async (request) => tracks.get(request.principal.account, request.params.trackID),
    );

    api.get(
      `${base}/tracks/:trackID/locations`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The fixes of a track (route 5)',
          description: 'The valid fixes the track was drawn from, oldest first: what a map draws as its line.',
          params: TrackParams,
          response: { 200: described(trackFixes, 'the fixes, oldest first'), ...errors },
        },
      },
      async (request) => tracks.locations(request.principal.account, request.params.trackID),
    );

    api.get(
      `${base}/events`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Vehicle events, grouped per vehicle (route 6)',
          description:
            'Fuel fillings (type 1) and drains (2), sensor values out of their limits (3), speeding (4) and prolonged speeding (5), detected from ' +
            'the fixes and their readings with the thresholds of each employee’s `vehicleSettings`; no event rule is needed. ' +
            '`value` is the litres gained or lost, the reading, or the highest speed. `subscriberIDs` is required. ' +
            'Groups come by `subscriberID`, events by date; `count` and `offset` count events across the whole answer, before grouping.',
          querystring: EventListQuery,
          response: { 200: described(VehicleEvents, 'the events, per vehicle'), ...errors },
        },
      },
      async (request) => events.list(request.principal.account, request.query),
    );

    api.get(
      `${base}/statistics`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Vehicle statistics, grouped per vehicle (route 7)',
          description:
            'Mileage, fuel used, engine hours, fuel level and odometer for the period. `interval` is required: 1 answers one record, the latest ' +
            'of the period, with mileage from tracks; 2 one record per clock hour of the account’s time zone that has data; 3 one record per ' +
            'valid fix (mileage from fixes). `endFuelLevel` is null for a vehicle that reports no fuel level. ' +
            'Only vehicles with records are listed.',
          querystring: StatisticsQuery,
          response: { 200: described(Statistics, 'the records, per vehicle'), ...errors },
        },
      },
      async (request) => statistics.list(request.principal.account, request.query),
    );
  };
}
