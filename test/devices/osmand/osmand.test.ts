import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLASSIC_QUERY, startOsmAnd, traccarClient9Payload, type OsmAndListener, type OsmAndResponse } from '../../helpers/osmand.js';
import { createEmployee, LOCATIONS, SUBSCRIBERS, startServer, type Client, type TestServer } from '../../helpers/server.js';
import { dialects } from '../../helpers/stores.js';

/** The server's clock (API and listener alike): a fix without a timestamp is dated now. */
const NOW = Date.parse('2024-05-20T12:00:00Z');
/** The account's zone: fixes are listed in it, and the listener's zone-less times are UTC, not this. */
const ZONE = 'Europe/Moscow';
const WIDE = 'dateFrom=2000-01-01T00:00:00Z&dateTo=2100-01-01T00:00:00Z';

/** 1716200000 is 2024-05-20T10:13:20Z. */
const CLASSIC_DATE = '2024-05-20T13:13:20+03:00';
const KNOTS = 1.852;
const MPS = 3.6;

/** The Traccar Client 9+ body as JSON text, with coords and the timestamp changed (undefined: left out). */
function traccarClient9Body(deviceKey: string, overrides: { timestamp?: string | undefined; coords?: Record<string, unknown> } = {}) {
  const body = traccarClient9Payload(deviceKey);
  Object.assign(body.location.coords, overrides.coords);
  if ('timestamp' in overrides) {
    if (overrides.timestamp === undefined) delete body.location.timestamp;
    else body.location.timestamp = overrides.timestamp;
  }
  return JSON.stringify(body);
}

interface Expected {
  subscriberID: number;
  locationDate: string;
  isValid: boolean;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
}

/** Compares a listed location with what the fix should have become; velocity within float noise. */
function assertLocation(actual: any, expected: Expected, label = ''): void {
  assert.equal(typeof actual.locationID, 'number', label);
  assert.ok(Math.abs(actual.velocity - expected.velocity) < 1e-9, `${label} velocity ${actual.velocity} != ${expected.velocity}`);
  assert.deepEqual(
    { ...actual, velocity: expected.velocity },
    { ...expected, locationID: actual.locationID },
    label,
  );
}

function assertOk(response: OsmAndResponse, label = ''): void {
  assert.equal(response.status, 200, `${label} ${response.text}`);
}

function assertBadRequest(response: OsmAndResponse, label = ''): void {
  assert.equal(response.status, 400, `${label} ${response.status} ${response.text}`);
  assert.equal(response.body?.code, 2, `${label} ${response.text}`);
  assert.equal(response.body?.description, 'BAD_REQUEST', label);
}

for (const dialect of dialects) {
  describe(`OsmAnd listener on ${dialect}`, () => {
    let server: TestServer;
    let osmand: OsmAndListener;
    let sequence = 0;

    before(async () => {
      server = await startServer(dialect, { now: NOW, timeZone: ZONE });
      osmand = await startOsmAnd(server.services, () => NOW);
    });
    after(async () => {
      await osmand?.close();
      await server?.close();
    });

    /** A new employee of the account with a device key of its own (`deviceKey` when given). */
    async function employee(api: Client = server.api, deviceKey = `key-${dialect}-${++sequence}`) {
      const subscriberID = await createEmployee(api, { name: `Phone ${deviceKey}`, deviceKey });
      return { subscriberID, deviceKey };
    }

    async function fixesOf(subscriberID: number, api: Client = server.api): Promise<any[]> {
      const listed = await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=1000&${WIDE}`);
      assert.equal(listed.status, 200, listed.text);
      return listed.body;
    }

    async function onlyFixOf(subscriberID: number, api: Client = server.api): Promise<any> {
      const fixes = await fixesOf(subscriberID, api);
      assert.equal(fixes.length, 1, `exactly one location stored: ${JSON.stringify(fixes)}`);
      return fixes[0];
    }

    /** Every location in the database, whatever the account. */
    async function totalStored(): Promise<number> {
      const row = await server.database.db
        .selectFrom('locations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    async function allFixes(api: Client = server.api): Promise<any[]> {
      const listed = await api.get(`${LOCATIONS}?count=1000&${WIDE}`);
      assert.equal(listed.status, 200, listed.text);
      return listed.body;
    }

    const classicExpected = (subscriberID: number): Expected => ({
      subscriberID,
      locationDate: CLASSIC_DATE,
      isValid: true,
      latitude: 55.7558,
      longitude: 37.6173,
      angle: 90,
      velocity: 10 * KNOTS,
    });

    describe('the requests Traccar Client and OsmAnd send', () => {
      it('GET with the parameters in the query string (OsmAnd, Traccar Client <= 8)', async () => {
        const phone = await employee(server.api, '123456');
        const response = await osmand.send('GET', `/?id=123456&${CLASSIC_QUERY}`);
        assertOk(response);
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('POST with an empty body and the parameters in the URL (fetch: Content-Length 0, no content type)', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', `/?id=${phone.deviceKey}&${CLASSIC_QUERY}`));
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('POST byte for byte as Traccar Client for Android sends it through HttpURLConnection', async () => {
        const phone = await employee();
        const request =
          `POST /?id=${phone.deviceKey}&${CLASSIC_QUERY} HTTP/1.1\r\n` +
          'User-Agent: Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7 Build/TQ3A.230805.001)\r\n' +
          'Host: {host}\r\n' +
          'Connection: Keep-Alive\r\n' +
          'Accept-Encoding: gzip\r\n' +
          'Content-Length: 0\r\n' +
          '\r\n';
        assertOk(await osmand.raw(request));
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('POST with an empty form body and the parameters in the URL', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', `/?id=${phone.deviceKey}&${CLASSIC_QUERY}`, '', 'application/x-www-form-urlencoded'));
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('POST with the parameters in an application/x-www-form-urlencoded body', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', '/', `id=${phone.deviceKey}&${CLASSIC_QUERY}`, 'application/x-www-form-urlencoded'));
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('POST with a form body whose content type names a charset', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', '/', `id=${phone.deviceKey}&${CLASSIC_QUERY}`, 'application/x-www-form-urlencoded; charset=UTF-8'));
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('POST with the JSON body of Traccar Client 9+ (speed in m/s)', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', '/', traccarClient9Body(phone.deviceKey), 'application/json'));
        assertLocation(await onlyFixOf(phone.subscriberID), {
          subscriberID: phone.subscriberID,
          locationDate: '2024-05-20T13:00:00+03:00',
          isValid: true,
          latitude: 55.7558,
          longitude: 37.6173,
          angle: 90,
          velocity: 2.5 * MPS,
        });
      });

      it('POST with the JSON body byte for byte as Traccar Client 9 sends it', async () => {
        const phone = await employee();
        const body = traccarClient9Body(phone.deviceKey);
        const request =
          'POST / HTTP/1.1\r\n' +
          'Host: {host}\r\n' +
          'Content-Type: application/json\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          'Accept-Encoding: gzip\r\n' +
          'User-Agent: okhttp/4.12.0\r\n' +
          '\r\n' +
          body;
        assertOk(await osmand.raw(request));
        const stored = await onlyFixOf(phone.subscriberID);
        assert.equal(stored.locationDate, '2024-05-20T13:00:00+03:00');
        assert.ok(Math.abs(stored.velocity - 9) < 1e-9);
      });

      it('JSON: -1 speed and heading (unknown in background-geolocation) become 0', async () => {
        const phone = await employee();
        const body = traccarClient9Body(phone.deviceKey, { coords: { speed: -1, heading: -1 } });
        assertOk(await osmand.send('POST', '/', body, 'application/json'));
        const stored = await onlyFixOf(phone.subscriberID);
        assert.equal(stored.angle, 0);
        assert.equal(stored.velocity, 0);
      });
    });

    describe('timestamps', () => {
      const forms: [label: string, encoded: string, locationDate: string][] = [
        ['unix seconds', '1716200000', '2024-05-20T13:13:20+03:00'],
        ['unix milliseconds (OsmAnd)', '1716200000123', '2024-05-20T13:13:20.123+03:00'],
        ['ISO 8601 with Z', '2024-05-20T10:13:20Z', '2024-05-20T13:13:20+03:00'],
        ['ISO 8601 with Z and milliseconds', '2024-05-20T10:13:20.250Z', '2024-05-20T13:13:20.250+03:00'],
        ['ISO 8601 with an encoded offset', '2024-05-20T12:13:20%2B02:00', '2024-05-20T13:13:20+03:00'],
        ['yyyy-MM-dd HH:mm:ss (UTC), space as %20', '2024-05-20%2010:13:20', '2024-05-20T13:13:20+03:00'],
        ['yyyy-MM-dd HH:mm:ss (UTC), space as +', '2024-05-20+10:13:20', '2024-05-20T13:13:20+03:00'],
      ];
      for (const [label, encoded, locationDate] of forms) {
        it(`${label} in the query string`, async () => {
          const phone = await employee();
          assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&lat=55.7558&lon=37.6173&timestamp=${encoded}`), label);
          const stored = await onlyFixOf(phone.subscriberID);
          assert.equal(stored.locationDate, locationDate, label);
        });
      }

      it('yyyy-MM-dd HH:mm:ss (UTC) in a form body', async () => {
        const phone = await employee();
        const body = new URLSearchParams({ id: phone.deviceKey, lat: '55.7558', lon: '37.6173', timestamp: '2024-05-20 10:13:20' });
        assertOk(await osmand.send('POST', '/', body.toString(), 'application/x-www-form-urlencoded'));
        assert.equal((await onlyFixOf(phone.subscriberID)).locationDate, '2024-05-20T13:13:20+03:00');
      });

      it('a missing timestamp is the server clock now (query string)', async () => {
        const phone = await employee();
        assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&lat=55.7558&lon=37.6173&speed=0`));
        assertLocation(await onlyFixOf(phone.subscriberID), {
          subscriberID: phone.subscriberID,
          locationDate: '2024-05-20T15:00:00+03:00',
          isValid: true,
          latitude: 55.7558,
          longitude: 37.6173,
          angle: 0,
          velocity: 0,
        });
      });

      it('a missing timestamp is the server clock now (JSON)', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', '/', traccarClient9Body(phone.deviceKey, { timestamp: undefined }), 'application/json'));
        assert.equal((await onlyFixOf(phone.subscriberID)).locationDate, '2024-05-20T15:00:00+03:00');
      });

      it('JSON timestamps in unix milliseconds', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', '/', traccarClient9Body(phone.deviceKey, { timestamp: '1716200000123' }), 'application/json'));
        assert.equal((await onlyFixOf(phone.subscriberID)).locationDate, '2024-05-20T13:13:20.123+03:00');
      });

      it('refuses a timestamp that is not a date-time, or more than 24 hours ahead, and stores nothing', async () => {
        const phone = await employee();
        for (const bad of ['yesterday', '2024-02-30%2010:00:00', '2024-05-20T25:00:00Z', String(Math.floor(NOW / 1000) + 25 * 3600)]) {
          assertBadRequest(await osmand.send('GET', `/?id=${phone.deviceKey}&lat=1&lon=1&timestamp=${bad}`), bad);
        }
        assert.deepEqual(await fixesOf(phone.subscriberID), []);
      });
    });

    describe('fields', () => {
      it('valid=false stores an invalid fix; valid=true and valid=1 valid ones; valid=0 invalid', async () => {
        const cases: [string, boolean][] = [
          ['false', false],
          ['true', true],
          ['1', true],
          ['0', false],
        ];
        for (const [valid, isValid] of cases) {
          const phone = await employee();
          assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&${CLASSIC_QUERY}&valid=${valid}`), valid);
          assertLocation(await onlyFixOf(phone.subscriberID), { ...classicExpected(phone.subscriberID), isValid }, `valid=${valid}`);
        }
      });

      it('valid=false in a form body', async () => {
        const phone = await employee();
        assertOk(await osmand.send('POST', '/', `id=${phone.deviceKey}&${CLASSIC_QUERY}&valid=false`, 'application/x-www-form-urlencoded'));
        assert.equal((await onlyFixOf(phone.subscriberID)).isValid, false);
      });

      it('location=lat,lon instead of lat and lon', async () => {
        for (const comma of [',', '%2C']) {
          const phone = await employee();
          const query = `/?id=${phone.deviceKey}&timestamp=1716200000&location=55.7558${comma}37.6173&speed=10.0&bearing=90.0`;
          assertOk(await osmand.send('GET', query), comma);
          assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID), comma);
        }
      });

      it('location=lat,lon in a form body', async () => {
        const phone = await employee();
        const body = `id=${phone.deviceKey}&timestamp=1716200000&location=55.7558%2C37.6173&speed=10.0&bearing=90.0`;
        assertOk(await osmand.send('POST', '/', body, 'application/x-www-form-urlencoded'));
        assertLocation(await onlyFixOf(phone.subscriberID), classicExpected(phone.subscriberID));
      });

      it('southern and western hemispheres, and the edges of the ranges', async () => {
        const cases: [string, string, number, number][] = [
          ['-33.8688', '-151.2093', -33.8688, -151.2093],
          ['90', '180', 90, 180],
          ['-90', '-180', -90, -180],
          ['0', '0', 0, 0],
        ];
        for (const [lat, lon, latitude, longitude] of cases) {
          const phone = await employee();
          assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&lat=${lat}&lon=${lon}&timestamp=1716200000`), `${lat},${lon}`);
          const stored = await onlyFixOf(phone.subscriberID);
          assert.equal(stored.latitude, latitude);
          assert.equal(stored.longitude, longitude);
        }
      });

      it('rounds the bearing to whole degrees and reads heading as its alias', async () => {
        const cases: [string, number][] = [
          ['bearing=180.4', 180],
          ['bearing=359.6', 0],
          ['heading=45', 45],
        ];
        for (const [param, angle] of cases) {
          const phone = await employee();
          assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&lat=1&lon=2&timestamp=1716200000&${param}`), param);
          assert.equal((await onlyFixOf(phone.subscriberID)).angle, angle, param);
        }
      });
    });

    describe('refusals', () => {
      it('an unknown device key: 400, nothing stored anywhere', async () => {
        const before = await totalStored();
        assertBadRequest(await osmand.send('GET', `/?id=no-such-device&${CLASSIC_QUERY}`));
        assertBadRequest(await osmand.send('POST', '/', `id=no-such-device&${CLASSIC_QUERY}`, 'application/x-www-form-urlencoded'));
        assertBadRequest(await osmand.send('POST', '/', traccarClient9Body('no-such-device'), 'application/json'));
        assert.equal(await totalStored(), before);
      });

      it('a missing or empty id: 400', async () => {
        const before = await totalStored();
        assertBadRequest(await osmand.send('GET', `/?${CLASSIC_QUERY}`), 'no id');
        assertBadRequest(await osmand.send('GET', `/?id=&${CLASSIC_QUERY}`), 'empty id');
        assertBadRequest(await osmand.send('POST', '/', CLASSIC_QUERY, 'application/x-www-form-urlencoded'), 'no id in a form');
        const noDevice = JSON.parse(traccarClient9Body('x'));
        delete noDevice.device_id;
        assertBadRequest(await osmand.send('POST', '/', JSON.stringify(noDevice), 'application/json'), 'no device_id');
        assertBadRequest(await osmand.send('GET', '/'), 'no parameters at all');
        assertBadRequest(await osmand.send('POST', '/'), 'an empty POST');
        assert.equal(await totalStored(), before);
      });

      it('latitude or longitude out of range, not a number, or missing: 400, nothing stored', async () => {
        const phone = await employee();
        const bad = [
          'lat=90.0001&lon=37.6173',
          'lat=-91&lon=37.6173',
          'lat=55.7558&lon=180.5',
          'lat=55.7558&lon=-181',
          'lat=abc&lon=37.6173',
          'lat=55.7558&lon=east',
          'lat=NaN&lon=37.6173',
          'lat=Infinity&lon=37.6173',
          'lat=55,7558&lon=37,6173',
          'lon=37.6173',
          'lat=55.7558',
          'location=55.7558',
          'location=north,east',
          'location=91,37.6173',
        ];
        for (const coordinates of bad) {
          assertBadRequest(await osmand.send('GET', `/?id=${phone.deviceKey}&timestamp=1716200000&${coordinates}`), coordinates);
          assertBadRequest(
            await osmand.send('POST', '/', `id=${phone.deviceKey}&timestamp=1716200000&${coordinates}`, 'application/x-www-form-urlencoded'),
            `form ${coordinates}`,
          );
        }
        const badJson: Record<string, unknown>[] = [{ latitude: 91 }, { longitude: -180.01 }, { latitude: '55.7558' }, { latitude: null }];
        for (const coords of badJson) {
          const body = traccarClient9Body(phone.deviceKey, { coords });
          assertBadRequest(await osmand.send('POST', '/', body, 'application/json'), `json ${JSON.stringify(coords)}`);
        }
        assert.deepEqual(await fixesOf(phone.subscriberID), []);
      });

      it('a non-numeric speed or bearing: 400', async () => {
        const phone = await employee();
        for (const param of ['speed=fast', 'bearing=north']) {
          assertBadRequest(await osmand.send('GET', `/?id=${phone.deviceKey}&lat=1&lon=2&${param}`), param);
        }
        assert.deepEqual(await fixesOf(phone.subscriberID), []);
      });

      it('the device key of a deleted employee: 400; the key is free for a new employee', async () => {
        const phone = await employee();
        assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&${CLASSIC_QUERY}`));
        assert.equal((await fixesOf(phone.subscriberID)).length, 1);

        const deleted = await server.api.delete(`${SUBSCRIBERS}/${phone.subscriberID}`);
        assert.ok(deleted.status >= 200 && deleted.status < 300, deleted.text);
        const before = await totalStored();
        assertBadRequest(await osmand.send('GET', `/?id=${phone.deviceKey}&${CLASSIC_QUERY}`));
        assertBadRequest(await osmand.send('POST', '/', traccarClient9Body(phone.deviceKey), 'application/json'));
        assert.equal(await totalStored(), before, 'nothing stored for the deleted employee');

        const successor = await employee(server.api, phone.deviceKey);
        assertOk(await osmand.send('GET', `/?id=${phone.deviceKey}&${CLASSIC_QUERY}`));
        assertLocation(await onlyFixOf(successor.subscriberID), classicExpected(successor.subscriberID));
        assert.equal(await totalStored(), before + 1);
      });
    });

    describe('tenancy', () => {
      it('each fix lands in the account of the employee that owns the device key, and only there', async () => {
        const first = await server.newAccount('UTC');
        const second = await server.newAccount('UTC');
        const alice = await employee(first.api, `alice-${dialect}`);
        const bob = await employee(second.api, `bob-${dialect}`);

        assertOk(await osmand.send('GET', `/?id=${alice.deviceKey}&timestamp=1716200000&lat=10&lon=20&speed=1`));
        assertOk(await osmand.send('POST', '/', `id=${bob.deviceKey}&timestamp=1716200060&lat=-10&lon=-20`, 'application/x-www-form-urlencoded'));
        assertOk(await osmand.send('POST', '/', traccarClient9Body(bob.deviceKey), 'application/json'));

        const ofFirst = await allFixes(first.api);
        assert.equal(ofFirst.length, 1, JSON.stringify(ofFirst));
        assertLocation(ofFirst[0], {
          subscriberID: alice.subscriberID,
          locationDate: '2024-05-20T10:13:20+00:00',
          isValid: true,
          latitude: 10,
          longitude: 20,
          angle: 0,
          velocity: KNOTS,
        });

        const ofSecond = await allFixes(second.api);
        assert.equal(ofSecond.length, 2, JSON.stringify(ofSecond));
        assert.ok(ofSecond.every((l: any) => l.subscriberID === bob.subscriberID));
        assert.deepEqual(ofSecond.map((l: any) => l.locationDate).sort(), ['2024-05-20T10:00:00+00:00', '2024-05-20T10:14:20+00:00']);

        // Neither sees the other's fixes, by listing, by id, or by naming the other's employee.
        assert.deepEqual(await fixesOf(bob.subscriberID, first.api), []);
        assert.deepEqual(await fixesOf(alice.subscriberID, second.api), []);
        const peek = await first.api.get(`${LOCATIONS}/${ofSecond[0].locationID}`);
        assert.equal(peek.status, 404);
        const mine = await allFixes();
        assert.ok(!mine.some((l: any) => l.subscriberID === alice.subscriberID || l.subscriberID === bob.subscriberID));
      });
    });
  });
}
