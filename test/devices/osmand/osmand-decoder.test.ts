import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeviceRequestError, type HttpDeviceFix } from '../../../src/devices/device-protocol.js';
import { decodeOsmAnd } from '../../../src/devices/osmand/osmand-decoder.js';
import { osmandProtocol } from '../../../src/devices/osmand/osmand-protocol.js';
import { applyReadingMap } from '../../../src/devices/reading-map.js';
import { CLASSIC_QUERY, traccarClient9Payload } from '../../helpers/osmand.js';

const NOW = Date.parse('2024-05-20T12:00:00Z');
const KNOTS = 1.852;

/** The query string Traccar Client (Android <= 8) and OsmAnd send, as the HTTP layer parses it. */
const classic = (): Record<string, unknown> => ({ id: '123456', ...Object.fromEntries(new URLSearchParams(CLASSIC_QUERY)) });

const traccarClient9 = () => traccarClient9Payload('123456');

const fromQuery = (query: Record<string, unknown>) => decodeOsmAnd(query, undefined, NOW);
const fromBody = (body: unknown) => decodeOsmAnd({}, body, NOW);

function assertFix(actual: HttpDeviceFix, expected: HttpDeviceFix): void {
  assert.ok(Math.abs(actual.velocityKmh - expected.velocityKmh) < 1e-9, `velocity ${actual.velocityKmh} != ${expected.velocityKmh}`);
  assert.deepEqual({ ...actual, velocityKmh: expected.velocityKmh }, expected);
}

function assertRefused(decode: () => unknown, message?: RegExp): void {
  assert.throws(decode, (error: unknown) => {
    assert.ok(error instanceof DeviceRequestError, `a DeviceRequestError, not ${String(error)}`);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('OsmAnd decoder', () => {
  it('decodes the classic parameters: speed in knots', () => {
    assertFix(fromQuery(classic()), {
      deviceKey: '123456',
      locationDateMs: Date.parse('2024-05-20T10:13:20Z'),
      isValid: true,
      latitude: 55.7558,
      longitude: 37.6173,
      angle: 90,
      velocityKmh: 10 * KNOTS,
      readings: {},
      accuracyM: 5,
    });
  });

  it('decodes the same parameters from a parsed form body', () => {
    assertFix(fromBody(classic()), fromQuery(classic()));
  });

  it('decodes the JSON body of Traccar Client 9+: speed in m/s', () => {
    assertFix(fromBody(traccarClient9()), {
      deviceKey: '123456',
      locationDateMs: Date.parse('2024-05-20T10:00:00Z'),
      isValid: true,
      latitude: 55.7558,
      longitude: 37.6173,
      angle: 90,
      velocityKmh: 9,
      readings: {},
      accuracyM: 5,
    });
  });

  it('takes a numeric device_id, and -1 speed and heading as unknown', () => {
    const body = traccarClient9();
    body.device_id = 123456;
    body.location.coords.speed = -1;
    body.location.coords.heading = -1;
    const fix = fromBody(body);
    assert.equal(fix.deviceKey, '123456');
    assert.equal(fix.velocityKmh, 0);
    assert.equal(fix.angle, 0);
  });

  it('takes an accuracy of 0 or below as unknown (the GPS filter judges only a known one)', () => {
    assert.equal(fromQuery({ ...classic(), accuracy: '0' }).accuracyM, null);
    assert.equal(fromQuery({ ...classic(), accuracy: '-1' }).accuracyM, null);
    const { accuracy: _, ...without } = classic();
    assert.equal(fromQuery(without).accuracyM, null);
    const body = traccarClient9();
    body.location.coords.accuracy = 1500;
    assert.equal(fromBody(body).accuracyM, 1500);
  });

  it('prefers the query string when both it and a body are present', () => {
    const fix = decodeOsmAnd(classic(), { ...classic(), id: 'other', lat: '1' }, NOW);
    assert.equal(fix.deviceKey, '123456');
    assert.equal(fix.latitude, 55.7558);
  });

  describe('timestamps', () => {
    const cases: [string, number][] = [
      ['1716200000', Date.parse('2024-05-20T10:13:20Z')],
      ['1716200000.5', Date.parse('2024-05-20T10:13:20.500Z')],
      ['1716200000123', Date.parse('2024-05-20T10:13:20.123Z')],
      ['2147483646', 2_147_483_646_000],
      ['2147483647', 2_147_483_647],
      ['2024-05-20T10:13:20Z', Date.parse('2024-05-20T10:13:20Z')],
      ['2024-05-20T10:13:20.250Z', Date.parse('2024-05-20T10:13:20.250Z')],
      ['2024-05-20T12:13:20+02:00', Date.parse('2024-05-20T10:13:20Z')],
      ['2024-05-20 10:13:20', Date.parse('2024-05-20T10:13:20Z')],
      ['2024-05-20T10:13:20', Date.parse('2024-05-20T10:13:20Z')],
    ];
    for (const [timestamp, expected] of cases) {
      it(`reads ${timestamp}`, () => {
        assert.equal(fromQuery({ ...classic(), timestamp }).locationDateMs, expected);
        const body = traccarClient9();
        body.location.timestamp = timestamp;
        assert.equal(fromBody(body).locationDateMs, expected, 'in JSON too');
      });
    }

    it('dates a fix without a timestamp now', () => {
      const { timestamp: _t, ...query } = classic();
      assert.equal(fromQuery(query).locationDateMs, NOW);
      assert.equal(fromQuery({ ...classic(), timestamp: '' }).locationDateMs, NOW);
      const body = traccarClient9();
      delete body.location.timestamp;
      assert.equal(fromBody(body).locationDateMs, NOW);
    });

    it('refuses what is not a date-time', () => {
      for (const timestamp of ['yesterday', '-1', '2024-02-30 10:00:00', '2024-05-20 24:00:00', '20240520101320Z']) {
        assertRefused(() => fromQuery({ ...classic(), timestamp }), /timestamp/);
      }
    });
  });

  describe('fields', () => {
    it('valid: false and 0 are invalid, true and 1 valid, absent valid', () => {
      assert.equal(fromQuery({ ...classic(), valid: 'false' }).isValid, false);
      assert.equal(fromQuery({ ...classic(), valid: '0' }).isValid, false);
      assert.equal(fromQuery({ ...classic(), valid: 'true' }).isValid, true);
      assert.equal(fromQuery({ ...classic(), valid: '1' }).isValid, true);
      assert.equal(fromQuery(classic()).isValid, true);
    });

    it('location=lat,lon instead of lat and lon', () => {
      const { lat: _lat, lon: _lon, ...rest } = classic();
      const fix = fromQuery({ ...rest, location: '-33.8688,151.2093' });
      assert.equal(fix.latitude, -33.8688);
      assert.equal(fix.longitude, 151.2093);
    });

    it('deviceid and heading as aliases of id and bearing', () => {
      const { id: _id, bearing: _b, ...rest } = classic();
      const fix = fromQuery({ ...rest, deviceid: 'tracker-7', heading: '271.5' });
      assert.equal(fix.deviceKey, 'tracker-7');
      assert.equal(fix.angle, 272);
    });

    it('a repeated parameter counts once, the last one', () => {
      assert.equal(fromQuery({ ...classic(), lat: ['10', '20'] }).latitude, 20);
    });

    it('rounds the bearing into [0, 360) and floors speeds and bearings below zero', () => {
      assert.equal(fromQuery({ ...classic(), bearing: '359.6' }).angle, 0);
      assert.equal(fromQuery({ ...classic(), bearing: '-1' }).angle, 0);
      assert.equal(fromQuery({ ...classic(), speed: '-1' }).velocityKmh, 0);
      const { speed: _s, bearing: _b, ...rest } = classic();
      const fix = fromQuery(rest);
      assert.equal(fix.velocityKmh, 0);
      assert.equal(fix.angle, 0);
    });

    it('ignition and fuel', () => {
      const fix = fromQuery({ ...classic(), ignition: 'true', fuel: '42.5' });
      assert.deepEqual(fix.readings, { ignition: 1, fuel: 42.5 });
      assert.deepEqual(fromQuery({ ...classic(), ignition: '0' }).readings, { ignition: 0 });
      // The protocol's default map makes them the vehicle's readings, and nothing else.
      const { defaultReadingMap } = osmandProtocol;
      assert.deepEqual(applyReadingMap(fix.readings, defaultReadingMap), { fuelLevel: 42.5, ignition: true, externalPower: null, odometer: null, engineHours: null, sensors: null });
      assert.equal(applyReadingMap({ ignition: 0 }, defaultReadingMap).ignition, false);
    });
  });

  describe('refusals', () => {
    it('no parameters at all', () => {
      assertRefused(() => decodeOsmAnd({}, undefined, NOW));
      assertRefused(() => decodeOsmAnd({}, '', NOW));
      assertRefused(() => decodeOsmAnd({}, [], NOW));
    });

    it('a missing, empty or too long id', () => {
      const { id: _id, ...rest } = classic();
      assertRefused(() => fromQuery(rest), /id/);
      assertRefused(() => fromQuery({ ...rest, id: '' }), /id/);
      assertRefused(() => fromQuery({ ...rest, id: 'x'.repeat(129) }), /id/);
      const body = traccarClient9();
      delete body.device_id;
      assertRefused(() => fromBody(body), /device_id/);
      assertRefused(() => fromBody({ ...traccarClient9(), device_id: { nested: true } }), /device_id/);
    });

    it('coordinates out of range, not numbers, or missing', () => {
      const bad: Record<string, unknown>[] = [
        { lat: '90.0001' },
        { lat: '-91' },
        { lon: '180.5' },
        { lon: '-181' },
        { lat: 'abc' },
        { lat: 'NaN' },
        { lat: 'Infinity' },
        { lat: '55,7558' },
        { lat: undefined },
        { lon: undefined },
      ];
      for (const change of bad) {
        const query = { ...classic(), ...change };
        for (const key of Object.keys(change)) if (change[key] === undefined) delete query[key];
        assertRefused(() => fromQuery(query), undefined);
      }
      const { lat: _lat, lon: _lon, ...rest } = classic();
      for (const location of ['55.7558', 'north,east', '91,37.6173', '']) {
        assertRefused(() => fromQuery({ ...rest, location }), undefined);
      }
      for (const coords of [{ latitude: 91 }, { longitude: -180.01 }, { latitude: '55.7558' }, { latitude: null }, { latitude: Number.NaN }]) {
        const body = traccarClient9();
        Object.assign(body.location.coords, coords);
        assertRefused(() => fromBody(body), undefined);
      }
    });

    it('non-numeric speed, bearing or fuel; absurd speed and fuel', () => {
      for (const change of [{ speed: 'fast' }, { bearing: 'north' }, { fuel: 'full' }, { speed: '6000' }, { fuel: '-1' }]) {
        assertRefused(() => fromQuery({ ...classic(), ...change }), undefined);
      }
      const body = traccarClient9();
      body.location.coords.speed = '2.5';
      assertRefused(() => fromBody(body), /speed/);
    });
  });
});
