import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { teltonikaProtocol } from '../../src/devices/teltonika/teltonika-protocol.js';
import { startTrackerServer, type TrackerServer } from '../../src/devices/tracker-server.js';
import { serviceTrackerSink } from '../../src/devices/tracker-sink.js';
import { wialonIpsProtocol } from '../../src/devices/wialon-ips/wialon-ips-protocol.js';
import { teltonikaHandshake, wialonLine, wialonLogin } from '../../scripts/trackers/tracker-encoders.js';
import { assertRefused } from '../helpers/bad-input.js';
import { LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { startOsmAnd } from '../helpers/osmand.js';
import { TrackerClient } from '../helpers/tracker-client.js';

/**
 * Who may write into a vehicle over the tracker ports: short Wialon ids register, a device
 * password is asked of the Wialon login, a key bound to one protocol is unknown to the others, and
 * another account that finds a vehicle's IMEI (through "already in use", now throttled) cannot
 * put its fixes on it once the vehicle has a password. Real TCP, real stores.
 */

const T0 = Date.parse('2024-05-20T10:00:00Z');
const WIDE = 'dateFrom=2000-01-01T00:00:00Z&dateTo=2100-01-01T00:00:00Z';
/** `#SD#` at 10:00:00 + i minutes: 55.75 N, 37.61 E. */
const shortData = (i: number) => `200524;10${String(i).padStart(2, '0')}00;5545.0000;N;03736.6000;E;40;90;120;9`;

for (const dialect of dialects) {
  describe(`device identity on the tracker ports, ${dialect}`, () => {
    let server: TestServer;
    let wialon: TrackerServer;
    let teltonika: TrackerServer;
    const clients: TrackerClient[] = [];
    const logs: string[] = [];

    before(async () => {
      const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
      server = await startServer(dialect, { now: T0 + 3_600_000, logger });
      const sink = serviceTrackerSink(server.services);
      const clock = () => T0 + 3_600_000;
      wialon = await startTrackerServer({ protocol: wialonIpsProtocol, sink, host: '127.0.0.1', clock, logger });
      teltonika = await startTrackerServer({ protocol: teltonikaProtocol, sink, host: '127.0.0.1', clock, logger });
    });
    after(async () => {
      for (const client of clients) client.close();
      await wialon?.close();
      await teltonika?.close();
      await server?.close();
    });

    async function connect(port: number) {
      const client = await TrackerClient.connect(port);
      clients.push(client);
      return client;
    }

    async function fixesOf(api: TestServer['api'], subscriberID: number): Promise<number> {
      const response = await api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=1000&${WIDE}`);
      assert.equal(response.status, 200, response.text);
      return (response.body as unknown[]).length;
    }

    async function create(api: TestServer['api'], body: Record<string, unknown>): Promise<number> {
      const response = await api.post(SUBSCRIBERS, { name: 'Vehicle', ...body });
      assert.equal(response.status, 201, response.text);
      return response.body.subscriberID;
    }

    it('#L#2002;NA registers a short Wialon id and its records are stored', async () => {
      const id = await create(server.api, { deviceKey: '2002', deviceProtocol: 'wialonIps' });
      const client = await connect(wialon.port);
      await client.send('#L#2002;NA\r\n');
      assert.equal(await client.readLine(), '#AL#1\r\n');
      await client.send(`#SD#${shortData(0)}\r\n`);
      assert.equal(await client.readLine(), '#ASD#1\r\n');
      assert.equal(await fixesOf(server.api, id), 1);
    });

    it('with a device password the Wialon login must carry it: 1.1 and 2.0 refuse with #AL#01, store nothing, log no password', async () => {
      const key = '2003';
      const id = await create(server.api, { deviceKey: key, deviceProtocol: 'wialonIps', devicePassword: 'Pa55-word' });
      for (const [version, password] of [['1.1', 'NA'], ['1.1', 'wrong'], ['2.0', 'NA'], ['2.0', 'Pa55-wore']] as const) {
        const client = await connect(wialon.port);
        await client.send(wialonLogin(key, password, version));
        assert.equal(await client.readLine(), '#AL#01\r\n', `${version} ${password}`);
        await client.expectClosed();
      }
      assert.equal(await fixesOf(server.api, id), 0);
      for (const version of ['1.1', '2.0'] as const) {
        const client = await connect(wialon.port);
        await client.send(wialonLogin(key, 'Pa55-word', version));
        assert.equal(await client.readLine(), '#AL#1\r\n', version);
        await client.send(wialonLine('SD', shortData(version === '1.1' ? 1 : 2), version));
        assert.equal(await client.readLine(), '#ASD#1\r\n');
      }
      assert.equal(await fixesOf(server.api, id), 2);
      const text = logs.join('');
      assert.ok(!text.includes('Pa55-wor') && !text.includes('scrypt'), 'no password, given or stored, in the log');
      assert.match(text, /terminal refused: device password/);
    });

    it('a key registered for one protocol is unknown on another listener; a key without one is heard on both', async () => {
      const imei = dialect === 'sqlite' ? '356307042441111' : '356307042442222';
      const id = await create(server.api, { deviceKey: imei, deviceProtocol: 'teltonika' });
      const onWialon = await connect(wialon.port);
      await onWialon.send(`#L#${imei};NA\r\n`);
      assert.equal(await onWialon.readLine(), '#AL#0\r\n');
      await onWialon.expectClosed();
      const onTeltonika = await connect(teltonika.port);
      await onTeltonika.send(teltonikaHandshake(imei));
      assert.deepEqual(await onTeltonika.readBytes(1), Buffer.from([1]));
      assert.equal(await fixesOf(server.api, id), 0);
      // And the other way: a Wialon IPS IMEI is refused by the Teltonika handshake.
      const wialonImei = dialect === 'sqlite' ? '356307042445555' : '356307042446666';
      await create(server.api, { deviceKey: wialonImei, deviceProtocol: 'wialonIps' });
      const refused = await connect(teltonika.port);
      await refused.send(teltonikaHandshake(wialonImei));
      assert.deepEqual(await refused.readBytes(1), Buffer.from([0]));
      await refused.expectClosed();

      const both = dialect === 'sqlite' ? '356307042443333' : '356307042444444';
      await create(server.api, { deviceKey: both });
      const w = await connect(wialon.port);
      await w.send(`#L#${both};NA\r\n`);
      assert.equal(await w.readLine(), '#AL#1\r\n');
      const t = await connect(teltonika.port);
      await t.send(teltonikaHandshake(both));
      assert.deepEqual(await t.readBytes(1), Buffer.from([1]));

      // The OsmAnd port, too, hears keys without a protocol and not a tracker's.
      const osmand = await startOsmAnd(server.services);
      try {
        const fix = (key: string) => osmand.send('POST', `/?id=${key}&lat=55.75&lon=37.61&timestamp=${Math.floor(T0 / 1000)}`);
        assert.equal((await fix(imei)).status, 400, "a Teltonika IMEI is not a phone's key");
        assert.equal((await fix(both)).status, 200);
      } finally {
        await osmand.close();
      }
    });

    it("another account finds A's IMEI by trying, is throttled, and cannot write into A's vehicle once it has a password", async () => {
      const b = await server.newAccount();
      const imei = dialect === 'sqlite' ? '864495034645555' : '864495034646666';
      const vehicle = await create(server.api, { deviceKey: imei, deviceProtocol: 'wialonIps', devicePassword: 'only-A-knows' });
      const own = await create(b.api, { name: 'B truck', deviceKey: 'b-own-truck-1' });

      // B's probes: "already in use" (409) for A's key, by POST, PUT and PATCH ...
      const logsBefore = logs.length;
      const probes = [
        () => b.api.post(SUBSCRIBERS, { name: 'Probe', deviceKey: imei }),
        () => b.api.put(`${SUBSCRIBERS}/${own}`, { name: 'Probe', deviceKey: imei }),
        () => b.api.patch(`${SUBSCRIBERS}/${own}`, { deviceKey: imei }),
      ];
      for (let i = 0; i < 20; i++) assertRefused(await probes[i % 3]!(), { code: 1008, field: 'deviceKey' }, `probe ${i + 1}`);
      // ... until the limit: then 429 with Retry-After, whichever write, whatever the key.
      for (const probe of [...probes, () => b.api.post(SUBSCRIBERS, { name: 'Free key', deviceKey: 'a-free-key-99' })]) {
        const refused = await probe();
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.code, 1012);
        assert.ok(Number(refused.headers.get('retry-after')) > 0);
      }
      // A write without a device key is not a probe and goes on.
      assert.equal((await b.api.patch(`${SUBSCRIBERS}/${own}`, { phone: '7900' })).status < 300, true);
      // The lock is B's, not its address's: A, from the same address, still writes device keys.
      assert.equal((await server.api.post(SUBSCRIBERS, { name: 'A after the lock', deviceKey: 'a-free-key-42' })).status, 201);
      const conflicts = logs.slice(logsBefore).filter((line) => line.includes('device key already in use'));
      assert.equal(conflicts.length, 20, 'each conflict logged');
      assert.ok(conflicts.every((line) => !line.includes(imei)), 'without the key');
      assert.ok(conflicts.at(-1)!.includes('"lockedAccount":true'));

      // Knowing the IMEI, B's terminal tries A's vehicle over the Wialon port: refused, nothing stored.
      const intruder = await connect(wialon.port);
      await intruder.send(`#L#${imei};NA\r\n`);
      assert.equal(await intruder.readLine(), '#AL#01\r\n');
      await intruder.expectClosed();
      const guesser = await connect(wialon.port);
      await guesser.send(wialonLogin(imei, 'guess', '2.0'));
      assert.equal(await guesser.readLine(), '#AL#01\r\n');
      assert.equal(await fixesOf(server.api, vehicle), 0);

      // A's terminal, with the password, writes as before.
      const owner = await connect(wialon.port);
      await owner.send(`#L#${imei};only-A-knows\r\n`);
      assert.equal(await owner.readLine(), '#AL#1\r\n');
      await owner.send(`#SD#${shortData(5)}\r\n`);
      assert.equal(await owner.readLine(), '#ASD#1\r\n');
      assert.equal(await fixesOf(server.api, vehicle), 1);
    });
  });
}
