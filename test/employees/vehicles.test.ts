import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTrackerServer, type TrackerServer } from '../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../src/devices/tracker-sink.js';
import { wialonIpsProtocol } from '../../src/devices/wialon-ips/wialon-ips-protocol.js';
import { Client, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TrackerClient } from '../helpers/tracker-client.js';
import { createRule, outboxMark, outboxSince, webhooks } from '../tasks/task-fixtures.js';

/**
 * Vehicles as objects: an employee's kind, plate and model and its device's type and protocol are
 * kept and read back; a tracker's accepted login over real TCP leaves the address it came from on
 * the employee; the workspace's session names PUBLIC_URL; the maps' address search asks the
 * geocoder of GEOCODER_URL (a tiny HTTP server here) and answers its places.
 */

const PASSWORD = 'a long enough password';

/** Polls `read` until `done` holds of its answer, or fails at the deadline. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A Nominatim stand-in: `/search` answers two places for any text, and records what it was asked. */
async function startGeocoder(): Promise<{ server: Server; url: string; asked: URL[] }> {
  const asked: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://geocoder');
    asked.push(url);
    response.setHeader('content-type', 'application/json');
    if (url.pathname.endsWith('/search')) {
      response.end(
        JSON.stringify([
          { display_name: 'Тверская улица, 7, Москва', lat: '55.7585', lon: '37.6125' },
          { display_name: 'Тверская улица, 7, Тверь', lat: '56.8587', lon: '35.9176' },
          { display_name: 'broken', lat: 'x', lon: '1' },
        ]),
      );
    } else response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/nominatim`, asked };
}

for (const dialect of dialects) {
  describe(`vehicles and their devices, ${dialect}`, () => {
    let server: TestServer;
    let wialon: TrackerServer;
    let geocoder: Awaited<ReturnType<typeof startGeocoder>>;
    const clients: TrackerClient[] = [];

    before(async () => {
      geocoder = await startGeocoder();
      server = await startServer(dialect, {
        timeZone: 'Europe/Moscow',
        config: { PUBLIC_URL: 'https://track.example.com' },
        services: { geocoder: { url: geocoder.url, timeoutMs: 2_000 } },
      });
      wialon = await startTrackerServer({ protocol: wialonIpsProtocol, sink: serviceTrackerSink(server.services), host: '127.0.0.1' });
      await server.services.accounts.createUser(server.account.id, 'dispatcher', PASSWORD);
    });
    after(async () => {
      for (const client of clients) client.close();
      await wialon?.close();
      await server?.close();
      await new Promise((resolve) => geocoder?.server.close(resolve));
    });

    it('keeps a vehicle’s kind, plate and model, and a Wialon IPS tracker’s type and protocol', async () => {
      const created = await server.api.post(SUBSCRIBERS, {
        name: 'Truck 12',
        kind: 'vehicle',
        vehiclePlate: 'А123ВС 777',
        vehicleModel: 'GAZelle Next',
        deviceType: 'tracker',
        deviceKey: '860000000000012',
        deviceProtocol: 'wialonIps',
        devicePassword: 'Pa55-word',
        vehicleSettings: { fuelFillThreshold: 15 },
      });
      assert.equal(created.status, 201, created.text);
      const read = await server.api.get(`${SUBSCRIBERS}/${created.body.subscriberID}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.kind, 'vehicle');
      assert.equal(read.body.vehiclePlate, 'А123ВС 777');
      assert.equal(read.body.vehicleModel, 'GAZelle Next');
      assert.equal(read.body.deviceType, 'tracker');
      assert.equal(read.body.deviceProtocol, 'wialonIps');
      assert.equal(read.body.hasDevicePassword, true);
      assert.equal(read.body.vehicleSettings.fuelFillThreshold, 15);
      assert.equal(read.body.deviceKeyHint, '…0012');
      assert.deepEqual(read.body.deviceStatus, { lastAddress: null, lastConnectionDate: null, lastDataDate: null });

      const list = await server.api.get(`${SUBSCRIBERS}?subscriberIDs=${created.body.subscriberID}`);
      assert.equal(list.body[0].kind, 'vehicle');
      assert.equal(list.body[0].deviceType, 'tracker');
    });

    it('an employee without a kind is a person with a phone; a patch changes the plate and keeps the rest', async () => {
      const created = await server.api.post(SUBSCRIBERS, { name: 'Olga' });
      assert.equal(created.body.kind, 'person');
      assert.equal(created.body.deviceType, 'phone');
      assert.equal(created.body.vehiclePlate, '');
      const id = created.body.subscriberID;
      const patched = await server.api.patch(`${SUBSCRIBERS}/${id}`, { kind: 'vehicle', vehiclePlate: 'В456ОР 199' });
      assert.equal(patched.status, 200, patched.text);
      const read = (await server.api.get(`${SUBSCRIBERS}/${id}`)).body;
      assert.deepEqual([read.kind, read.vehiclePlate, read.vehicleModel, read.name, read.deviceType], ['vehicle', 'В456ОР 199', '', 'Olga', 'phone']);
      const tooLong = await server.api.patch(`${SUBSCRIBERS}/${id}`, { vehiclePlate: 'x'.repeat(21) });
      assert.equal(tooLong.status, 400);
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${id}`)).body.vehiclePlate, 'В456ОР 199', 'a refused patch changes nothing');
    });

    it('the employee events carry interface 2.9 only: no kind, plate, model or device type', async () => {
      await createRule(server.api, { name: 'employees', sendToApi: true, apiUrl: 'http://127.0.0.1:9/hook', kind: 'employeeChanges' });
      const mark = await outboxMark(server);
      const id = (await server.api.post(SUBSCRIBERS, { name: 'Van 3', kind: 'vehicle', vehiclePlate: 'Е001КХ 77', vehicleModel: 'Ford Transit' })).body.subscriberID;
      const [added] = webhooks(await outboxSince(server, mark));
      const subscriber = added!.payload[0].subscriber;
      assert.equal(subscriber.subscriberID, id);
      assert.equal(subscriber.name, 'Van 3');
      for (const field of ['kind', 'vehiclePlate', 'vehicleModel', 'deviceType', 'deviceStatus']) assert.ok(!(field in subscriber), `${field} is not in the event`);
    });

    it('a tracker’s accepted login over TCP leaves its address and time on the employee', async () => {
      const created = await server.api.post(SUBSCRIBERS, { name: 'Truck 7', kind: 'vehicle', deviceKey: '2077', deviceProtocol: 'wialonIps' });
      const id = created.body.subscriberID;
      const client = await TrackerClient.connect(wialon.port);
      clients.push(client);
      await client.send('#L#2077;NA\r\n');
      assert.equal(await client.readLine(), '#AL#1\r\n');
      const status = await eventually(
        async () => (await server.api.get(`${SUBSCRIBERS}/${id}`)).body.deviceStatus,
        (s) => s.lastAddress !== null,
        'the connection address',
      );
      assert.match(status.lastAddress, /^(::ffff:)?127\.0\.0\.1$/);
      assert.match(status.lastConnectionDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+03:00$/, 'in the account’s time zone');
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${id}`)).body.deviceProtocol, 'wialonIps');
    });

    it('a refused login records nothing', async () => {
      const id = (await server.api.post(SUBSCRIBERS, { name: 'Truck 8', deviceKey: '2078', deviceProtocol: 'wialonIps', devicePassword: 'right-one' })).body.subscriberID;
      const client = await TrackerClient.connect(wialon.port);
      clients.push(client);
      await client.send('#L#2078;wrong-one\r\n');
      assert.equal(await client.readLine(), '#AL#01\r\n');
      // An accepted login of another vehicle after it is written: by then this one would be too.
      const other = (await server.api.post(SUBSCRIBERS, { name: 'Truck 9', deviceKey: '2079', deviceProtocol: 'wialonIps' })).body.subscriberID;
      const second = await TrackerClient.connect(wialon.port);
      clients.push(second);
      await second.send('#L#2079;NA\r\n');
      assert.equal(await second.readLine(), '#AL#1\r\n');
      await eventually(async () => (await server.api.get(`${SUBSCRIBERS}/${other}`)).body.deviceStatus.lastAddress, (a) => a !== null, 'the other login');
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${id}`)).body.deviceStatus.lastAddress, null);
    });

    it('the session names PUBLIC_URL and whether the maps can search addresses', async () => {
      const signedIn = await new Client(server.baseUrl, null).post('/workspace/api/session', { login: 'dispatcher', password: PASSWORD });
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.publicUrl, 'https://track.example.com');
      assert.equal(signedIn.body.map.placeSearch, true);
    });

    it('the address search asks the geocoder and answers its places; without a session it is 401', async () => {
      const signedIn = await new Client(server.baseUrl, null).post('/workspace/api/session', { login: 'dispatcher', password: PASSWORD });
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const places = await new Client(server.baseUrl, null).get(`/workspace/api/places?q=${encodeURIComponent('Тверская 7')}&language=ru`, { cookie });
      assert.equal(places.status, 200, places.text);
      assert.deepEqual(places.body, [
        { name: 'Тверская улица, 7, Москва', latitude: 55.7585, longitude: 37.6125 },
        { name: 'Тверская улица, 7, Тверь', latitude: 56.8587, longitude: 35.9176 },
      ]);
      const asked = geocoder.asked.at(-1)!;
      assert.equal(asked.pathname, '/nominatim/search');
      assert.equal(asked.searchParams.get('q'), 'Тверская 7');
      assert.equal(asked.searchParams.get('accept-language'), 'ru');
      const anonymous = await new Client(server.baseUrl, null).get('/workspace/api/places?q=x');
      assert.equal(anonymous.status, 401);
    });
  });

  describe(`without PUBLIC_URL and GEOCODER_URL, ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
      await server.services.accounts.createUser(server.account.id, 'dispatcher', PASSWORD);
    });
    after(() => server?.close());

    it('the session says so and there is no address search', async () => {
      const signedIn = await new Client(server.baseUrl, null).post('/workspace/api/session', { login: 'dispatcher', password: PASSWORD });
      assert.equal(signedIn.body.publicUrl, null);
      assert.equal(signedIn.body.map.placeSearch, false);
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const places = await new Client(server.baseUrl, null).get('/workspace/api/places?q=x', { cookie });
      assert.equal(places.status, 404);
      assert.equal(places.body.code, 1013);
    });
  });
}
