import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { MAX_EXPORT_DAYS, type TrackExportService } from './track-export-service.js';
import { TrackExportQuery } from './track-schema.js';

const GPX_EXAMPLE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<gpx version="1.1" creator="Lokator" xmlns="http://www.topografix.com/GPX/1/1">',
  '  <trk>',
  '    <name>Truck 7</name>',
  '    <trkseg>',
  '      <trkpt lat="55.7892" lon="37.6805"><time>2026-03-02T05:02:11Z</time></trkpt>',
  '      <trkpt lat="55.78702" lon="37.67791"><time>2026-03-02T05:02:41Z</time></trkpt>',
  '    </trkseg>',
  '  </trk>',
  '</gpx>',
].join('\n');

/** `GET /v6/api/globalPositioningManagement/trackFile`: the tracks of a period as a GPX or KML file. */
export function trackExportRoutes(exports: TrackExportService) {
  return async (api: Api) => {
    api.get(
      '/globalPositioningManagement/trackFile',
      {
        config: { permission: 'view' },
        schema: {
          tags: ['Positioning'],
          summary: 'Tracks of a period as a GPX or KML file',
          description:
            'The tracks of the employees in `subscriberIDs` (required) that overlap the period, each cut to the period, as a download: ' +
            '`format=gpx` gives GPX 1.1 (one `trk` per employee named after them, one `trkseg` per track), `format=kml` KML 2.2 (a folder ' +
            'per employee, a placemark per track with a `gx:Track` and a `LineString`). Times in the file are UTC. Only valid fixes are ' +
            'written. The period (default the 72 hours before `dateTo`) is at most ' +
            `${MAX_EXPORT_DAYS} days long; a longer one is 400 code 2 naming \`dateTo\`. An employee of another account is 404 code 12.`,
          querystring: TrackExportQuery,
          produces: ['application/gpx+xml', 'application/vnd.google-earth.kml+xml'],
          response: {
            200: described(withExamples(Type.String(), GPX_EXAMPLE), 'the file, as an attachment'),
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (request, reply) => {
        const file = await exports.file(request.principal.account, request.query);
        reply.header('content-disposition', `attachment; filename="${file.fileName}"`);
        // A file is not the JSON answer the schema describes: sent as it is, past the serializer.
        const raw = reply as unknown as { type(type: string): { send(payload: unknown): void } };
        raw.type(file.contentType).send(file.body);
        return reply;
      },
    );
  };
}
