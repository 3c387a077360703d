import { parseDateTime } from '../../http/datetime.js';
import { DeviceRequestError, type HttpDeviceFix } from '../device-protocol.js';

/**
 * The OsmAnd HTTP protocol as Traccar Client, OsmAnd and many trackers speak it: parameters
 * `id`, `lat`, `lon`, `timestamp`, `speed` (knots), `bearing`, `altitude`, `accuracy`, `batt`…
 * in the query string or a form body, or the JSON body of Traccar Client 9+
 * (`{"device_id", "location": {"timestamp", "coords": {…}, …}}`, speed in m/s). Its readings
 * are `fuel` and `ignition` (1 or 0), of the query string or form only.
 */

const KNOTS_TO_KMH = 1.852;
const MPS_TO_KMH = 3.6;

type Params = Record<string, unknown>;

/** Decodes one request's parameters or JSON body; throws DeviceRequestError naming what is wrong. */
export function decodeOsmAnd(query: Params, body: unknown, now: number): HttpDeviceFix {
  if (Object.keys(query).length > 0) return decodeParams(query, now);
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const object = body as Params;
    if (object.location && typeof object.location === 'object') return decodeJson(object, now);
    return decodeParams(object, now);
  }
  throw new DeviceRequestError('no parameters');
}

function decodeParams(params: Params, now: number): HttpDeviceFix {
  const single = (name: string): string | undefined => {
    const value = params[name];
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    return last === undefined || last === null ? undefined : String(last);
  };
  const deviceKey = single('id') ?? single('deviceid');
  if (!deviceKey) throw new DeviceRequestError('id is missing');

  let latitude = number(single('lat'), 'lat');
  let longitude = number(single('lon'), 'lon');
  const location = single('location');
  if (location !== undefined && (latitude === undefined || longitude === undefined)) {
    const [lat, lon] = location.split(',');
    latitude = number(lat, 'location');
    longitude = number(lon, 'location');
  }
  const valid = single('valid');
  const speedKnots = number(single('speed'), 'speed') ?? 0;
  const ignition = single('ignition');
  return checked({
    deviceKey,
    locationDateMs: timestamp(single('timestamp'), now),
    isValid: valid === undefined ? true : valid.toLowerCase() === 'true' || valid === '1',
    latitude: required(latitude, 'lat'),
    longitude: required(longitude, 'lon'),
    angle: angleOf(number(single('bearing') ?? single('heading'), 'bearing')),
    velocityKmh: Math.max(0, speedKnots) * KNOTS_TO_KMH,
    readings: readingsOf(ignition, number(single('fuel'), 'fuel')),
    accuracyM: accuracyOf(number(single('accuracy'), 'accuracy')),
  });
}

function decodeJson(body: Params, now: number): HttpDeviceFix {
  const location = body.location as Params;
  const coords = (location.coords ?? {}) as Params;
  const deviceKey = body.device_id ?? body.id;
  if (typeof deviceKey !== 'string' && typeof deviceKey !== 'number') throw new DeviceRequestError('device_id is missing');
  const speedMps = jsonNumber(coords.speed, 'coords.speed') ?? 0;
  return checked({
    deviceKey: String(deviceKey),
    locationDateMs: timestamp(location.timestamp === undefined ? undefined : String(location.timestamp), now),
    isValid: true,
    latitude: required(jsonNumber(coords.latitude, 'coords.latitude'), 'coords.latitude'),
    longitude: required(jsonNumber(coords.longitude, 'coords.longitude'), 'coords.longitude'),
    angle: angleOf(jsonNumber(coords.heading, 'coords.heading')),
    // -1 means "unknown" in the background-geolocation format.
    velocityKmh: Math.max(0, speedMps) * MPS_TO_KMH,
    readings: {},
    accuracyM: accuracyOf(jsonNumber(coords.accuracy, 'coords.accuracy')),
  });
}

/** `ignition` as 1 or 0 (`true` or `1` is on) and `fuel`, each when sent. */
function readingsOf(ignition: string | undefined, fuel: number | undefined): Record<string, number> {
  const readings: Record<string, number> = {};
  if (ignition !== undefined) readings.ignition = ignition.toLowerCase() === 'true' || ignition === '1' ? 1 : 0;
  if (fuel !== undefined) readings.fuel = fuel;
  return readings;
}

/** Clients send 0 or a negative number when they do not know their accuracy: then it is unknown. */
function accuracyOf(metres: number | undefined): number | null {
  return metres !== undefined && metres > 0 ? metres : null;
}

function checked(fix: HttpDeviceFix): HttpDeviceFix {
  if (fix.deviceKey.length > 128) throw new DeviceRequestError('id is too long');
  if (fix.latitude < -90 || fix.latitude > 90) throw new DeviceRequestError('lat must be in [-90, 90]');
  if (fix.longitude < -180 || fix.longitude > 180) throw new DeviceRequestError('lon must be in [-180, 180]');
  if (fix.velocityKmh > 10_000) throw new DeviceRequestError('speed is out of range');
  const { fuel } = fix.readings;
  if (fuel !== undefined && (fuel < 0 || fuel > 1e6)) throw new DeviceRequestError('fuel is out of range');
  return fix;
}

/** Unix seconds, unix milliseconds, ISO 8601, or `yyyy-MM-dd HH:mm:ss` (UTC); absent means now. */
function timestamp(value: string | undefined, now: number): number {
  if (value === undefined || value === '') return now;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    // The same rule as Traccar: below 2^31 it counts seconds, above it milliseconds.
    return Math.round(n < 2_147_483_647 ? n * 1000 : n);
  }
  const parsed = parseDateTime(value.replace(' ', 'T'), 'UTC');
  if (!parsed) throw new DeviceRequestError('timestamp is not a date-time');
  return parsed.epochMs;
}

// Plain decimals only: `Number()` alone would also take `0x10`, `1e3` and whitespace.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

function number(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new DeviceRequestError(`${name} is not a number`);
  return n;
}

function jsonNumber(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new DeviceRequestError(`${name} is not a number`);
  return value;
}

function required(value: number | undefined, name: string): number {
  if (value === undefined) throw new DeviceRequestError(`${name} is missing`);
  return value;
}

function angleOf(degrees: number | undefined): number {
  if (degrees === undefined || degrees < 0) return 0;
  return Math.round(degrees) % 360;
}
