import { Type, type Static } from 'typebox';
import { parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField } from '../http/errors.js';
import { described, withExamples } from '../http/examples.js';
import { DateTimeText } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { UnknownDevice } from './fix-ingest.js';
import type { IngestPort } from './ingest-port.js';

/** A position dated further ahead than this is a wrong clock, as on the OsmAnd port. */
const MAX_FUTURE_MS = 24 * 3_600_000;

const unauthorized = (message: string) => new ApiError('USER_UNAUTHORIZED', message, undefined, { 'www-authenticate': 'Device' });

const optionalNumber = (minimum: number, maximum: number, description: string) => Type.Optional(Type.Union([Type.Number({ minimum, maximum, description }), Type.Null()]));

const AppPosition = withExamples(
  Type.Object(
    {
      locationDate: withExamples(DateTimeText, '2026-03-02T09:14:05Z'),
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
      accuracy: optionalNumber(0, 1e6, 'the receiver’s estimate of its error, metres'),
      velocity: optionalNumber(0, 10_000, 'km/h'),
      angle: optionalNumber(0, 360, 'degrees from north, clockwise'),
    },
    { additionalProperties: false },
  ),
  { locationDate: '2026-03-02T09:14:05Z', latitude: 55.75583, longitude: 37.61173, accuracy: 12, velocity: 4.5, angle: 90 },
);
type AppPosition = Static<typeof AppPosition>;

/**
 * `POST /mobile/v1/locations`: the phone's position while the employee's app is open, on the API
 * port (a page cannot post to the OsmAnd port: another origin, and plain HTTP under an HTTPS page).
 * The fix enters the same ingest port as the OsmAnd listener's, by the device key, so it keeps
 * the employee's isOnline as any fix does.
 */
export function appPositionRoutes(ingest: IngestPort, clock: () => number) {
  return async (mobile: Api) => {
    mobile.post(
      '/mobile/v1/locations',
      {
        schema: {
          tags: ['Employee app'],
          summary: 'The employee’s app reports the phone’s position',
          description:
            'Authenticated by the employee’s device key, `Authorization: Device <deviceKey>` (401 code 1 without a known one). ' +
            'One fix, as the OsmAnd port takes it: stored once durable (204), and counted as the employee being online. ' +
            'A `locationDate` more than 24 hours ahead is 400 code 2.',
          security: [],
          body: AppPosition,
          response: { 204: described(NoContent, 'stored'), 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const match = /^Device +([\x21-\x7e]{1,128})$/i.exec(request.headers.authorization ?? '');
        if (!match?.[1]) throw unauthorized('Authorization header must be "Device <deviceKey>"');
        const fix = toFix(request.body, clock());
        try {
          await ingest.durable(await ingest.submit({ source: 'app', deviceKey: match[1], fix }));
        } catch (error) {
          if (error instanceof UnknownDevice) throw unauthorized('the device key is unknown');
          throw error;
        }
        return reply.code(204).send(null);
      },
    );
  };
}

function toFix(position: AppPosition, nowMs: number) {
  const parsed = parseDateTime(position.locationDate, 'UTC');
  if (!parsed?.hasOffset) throw invalidField('locationDate', 'must be a date-time with Z or an offset');
  if (parsed.epochMs > nowMs + MAX_FUTURE_MS) throw invalidField('locationDate', 'is more than 24 hours ahead');
  return {
    locationDateMs: parsed.epochMs,
    isValid: true,
    latitude: position.latitude,
    longitude: position.longitude,
    angle: Math.round(position.angle ?? 0) % 360,
    velocityKmh: position.velocity ?? 0,
    accuracyM: position.accuracy ?? null,
    fuelLevel: null,
    ignition: null,
    externalPower: null,
    odometer: null,
    engineHours: null,
    sensors: null,
  };
}
