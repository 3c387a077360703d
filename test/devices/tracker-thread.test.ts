import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import { startTrackerThread, type TrackerListeners } from '../../src/devices/tracker-listeners.js';
import { deviceDirectory } from '../../src/devices/tracker-sink.js';
import type { IngestPort } from '../../src/positioning/positioning.js';
import { commitSequence } from '../../src/store/commit-sequence.js';
import { PackedNumbers, packFixes, skipFixes, unpackFixes } from '../../src/devices/tracker-thread-messages.js';
import type { Fix } from '../../src/positioning/fix.js';
import { egtsPacket, egtsRecord, readEgtsPacket, termIdentity } from '../../scripts/trackers/egts-encoder.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';

import { dialects } from '../helpers/stores.js';
import { MemorySink, TrackerClient } from '../helpers/tracker-client.js';
import { teltonikaHandshake, teltonikaPacket, wialonLogin, type TeltonikaRecordSpec } from '../../scripts/trackers/tracker-encoders.js';
import { until } from '../helpers/wait.js';

/** Every log line the thread sent over, as JSON (to check that keys never appear in clear). */
function recordingLogger() {
  const lines: string[] = [];
  const record = (level: string) => (object: object, message: string) => lines.push(JSON.stringify({ level, message, ...object }, (_k, v) => (v instanceof Error ? v.message : v)));
  return { lines, logger: { info: record('info'), warn: record('warn'), error: record('error') } };
}

const fix = (overrides: Partial<Fix>): Fix => ({
  subscriberId: 7,
  locationDateMs: 1_780_000_000_123,
  isValid: true,
  latitude: 55.751244,
  longitude: 37.618423,
  angle: 271,
  velocityKmh: 63.5,
  fuelLevel: null,
  ignition: null,
  externalPower: null,
  odometer: null,
  engineHours: null,
  sensors: null,
  ...overrides,
});

describe('fixes cross to the main thread packed as numbers', () => {
  it('come back equal, with their nulls, switches and sensors', () => {
    const fixes = [
      fix({}),
      fix({ isValid: false, fuelLevel: 0, ignition: false, externalPower: true, odometer: 123_456.789, engineHours: 0.5, sensors: [] }),
      fix({ subscriberId: 8, fuelLevel: 41.25, ignition: true, externalPower: false, sensors: [{ sensorID: 1, value: -12.5 }, { sensorID: 30, value: 0 }] }),
    ];
    // Past the buffer's first size, so that its growth is crossed too.
    const packed = new PackedNumbers();
    for (let i = 0; i < 100; i++) packFixes(fixes, packed);
    assert.equal(packed.take().length, 100 * (3 * 13 + 2 * 2));
    packFixes(fixes.slice(0, 1), packed);
    packFixes(fixes.slice(1), packed);
    const values = packed.take();
    const first = unpackFixes(values, 0, 1);
    assert.equal(first.next, skipFixes(values, 0, 1));
    const rest = unpackFixes(values, first.next, 2);
    assert.equal(rest.next, values.length);
    assert.equal(skipFixes(values, 0, 3), values.length);
    assert.deepEqual([...first.fixes, ...rest.fixes], fixes);
  });
});

describe('the tracker thread, with a sink in memory', () => {
  let listeners: TrackerListeners;
  const sink = new MemorySink();
  const { lines, logger } = recordingLogger();
  const imei = '356307042441013';

  before(async () => {
    sink.devices.set(imei, { accountId: 3, subscriberId: 11 });
    listeners = await startTrackerThread({
      listeners: [
        { protocol: 'teltonika', port: 0 },
        { protocol: 'wialonIps', port: 0 },
        { protocol: 'egts', port: 0 },
      ],
      host: '127.0.0.1',
      idleTimeoutMs: 60_000,
      directory: sink,
      ingest: sink.asIngestPort(),
      logger,
      keyGuessLimits: { maxFailures: 2, windowMs: 60_000, lockMs: 60_000 },
    });
  });
  after(() => listeners.close());

  it('listens on a port per protocol', () => {
    assert.deepEqual(Object.keys(listeners.ports).sort(), ['egts', 'teltonika', 'wialonIps']);
    for (const port of Object.values(listeners.ports)) assert.ok(port! > 0);
  });

  it('acknowledges a packet only once the main thread stored its fixes, with their readings mapped', async () => {
    const client = await TrackerClient.connect(listeners.ports.teltonika!);
    await client.send(teltonikaHandshake(imei));
    assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
    const held = sink.hold();
    const record: TeltonikaRecordSpec = { timeMs: Date.now() - 60_000, latitude: 55.75, longitude: 37.61, speedKmh: 40, angle: 90, satellites: 9, io: { 239: [1, 1], 66: [2, 12_600], 16: [4, 123_456] } };
    await client.send(teltonikaPacket([record, { ...record, timeMs: record.timeMs + 1000 }]));
    await held.entered;
    assert.equal(client.pending.length, 0, 'nothing is acknowledged while the store has not answered');
    held.release();
    assert.deepEqual(await client.readBytes(4), Buffer.from([0, 0, 0, 2]));
    const stored = sink.stored.at(-1)!;
    assert.equal(stored.accountId, 3);
    assert.deepEqual(
      stored.fixes.map((f) => [f.subscriberId, f.locationDateMs, f.latitude, f.longitude, f.velocityKmh, f.ignition, f.externalPower, f.odometer]),
      [
        [11, record.timeMs, 55.75, 37.61, 40, true, true, 123.456],
        [11, record.timeMs + 1000, 55.75, 37.61, 40, true, true, 123.456],
      ],
    );
    client.close();
  });

  it('drops the connection unanswered when the store fails, and logs why', async () => {
    const client = await TrackerClient.connect(listeners.ports.teltonika!);
    await client.send(teltonikaHandshake(imei));
    assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
    sink.failures = 1;
    await client.send(teltonikaPacket([{ timeMs: Date.now() - 30_000, latitude: 55.7, longitude: 37.6, speedKmh: 0, angle: 0, satellites: 9 }]));
    await client.expectClosed();
    assert.equal(client.pending.length, 0);
    // Log lines cross from the thread in messages of their own: wait for them, with a deadline.
    await until('the failure in the log', () => lines.some((line) => line.includes('tracker frame failed') && line.includes('the store is down')), 5000);
  });

  it('refuses unknown terminals, throttles guessing across its ports, and never logs a key', async () => {
    const guesses = ['356307049999991', '356307049999992'];
    for (const key of guesses) {
      const client = await TrackerClient.connect(listeners.ports.teltonika!);
      await client.send(teltonikaHandshake(key));
      assert.deepEqual(await client.readBytes(1), Buffer.from([0]));
      client.close();
    }
    // The address is locked on every port now: Wialon refuses a third guess without looking it up.
    const wialon = await TrackerClient.connect(listeners.ports.wialonIps!);
    await wialon.send(wialonLogin('356307049999993'));
    assert.equal(await wialon.readLine(), '#AL#0\r\n');
    wialon.close();
    // Refused for the lock, not as one more unknown key: the Wialon port shares the Teltonika port's throttle.
    await until('the Wialon refusal for the lock in the log', () => lines.some((line) => line.includes('"protocol":"wialonIps"') && line.includes('guessed too many keys')), 5000);
    for (const key of [imei, ...guesses, '356307049999993']) assert.ok(!lines.some((line) => line.includes(key)), 'a device key in the log');
  });
});

for (const dialect of dialects) {
  describe(`the tracker thread stores through the ingest queue, on ${dialect}`, () => {
    let server: TestServer;
    let listeners: TrackerListeners;
    const { lines, logger } = recordingLogger();

    before(async () => {
      server = await startServer(dialect);
      listeners = await startTrackerThread({
        listeners: [{ protocol: 'egts', port: 0 }, { protocol: 'teltonika', port: 0 }, { protocol: 'wialonIps', port: 0 }],
        host: '127.0.0.1',
        idleTimeoutMs: 60_000,
        directory: deviceDirectory(server.services),
        ingest: server.services.positioning.ingest,
        logger,
      });
    });
    after(async () => {
      await listeners.close();
      await server.close();
    });

    it('a Wialon login with a device password crosses to the main thread: a wrong one is refused with #AL#01, the right one accepted, neither logged', async () => {
      const id = dialect === 'sqlite' ? '3001' : '3002';
      await createEmployee(server.api, { name: 'Van', deviceKey: id, deviceProtocol: 'wialonIps', devicePassword: 'thread-secret' });
      const wrong = await TrackerClient.connect(listeners.ports.wialonIps!);
      await wrong.send(wialonLogin(id, 'thread-guess'));
      assert.equal(await wrong.readLine(), '#AL#01\r\n');
      await wrong.expectClosed();
      const right = await TrackerClient.connect(listeners.ports.wialonIps!);
      await right.send(wialonLogin(id, 'thread-secret', '2.0'));
      assert.equal(await right.readLine(), '#AL#1\r\n');
      right.close();
      await until('the refusal in the log', () => lines.some((line) => line.includes('terminal refused: device password')), 5000);
      assert.ok(!lines.some((line) => line.includes('thread-secret') || line.includes('thread-guess')), 'no password in the log');
    });

    it('a Teltonika buffer and an EGTS login reach the v6 routes', async () => {
      const imei = dialect === 'sqlite' ? '356307042441021' : '356307042441022';
      const subscriberID = await createEmployee(server.api, { name: 'Truck', deviceKey: imei });
      const t = Date.now() - 10 * 60_000;
      const client = await TrackerClient.connect(listeners.ports.teltonika!);
      await client.send(teltonikaHandshake(imei));
      assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
      const records = Array.from({ length: 30 }, (_, i): TeltonikaRecordSpec => ({ timeMs: t + i * 10_000, latitude: 55.75 + i * 0.001, longitude: 37.61, speedKmh: 36, angle: 0, satellites: 9 }));
      await client.send(teltonikaPacket(records));
      assert.deepEqual(await client.readBytes(4), Buffer.from([0, 0, 0, 30]));
      const listed = await server.api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.length, 30);
      assert.deepEqual(
        listed.body.map((l: any) => Date.parse(l.locationDate)).sort(),
        records.map((r) => r.timeMs),
      );
      client.close();

      const egts = await TrackerClient.connect(listeners.ports.egts!);
      await egts.send(egtsPacket(egtsRecord({ number: 1, serviceType: 1, subrecords: [termIdentity(1, imei)] }), { packetId: 9 }));
      assert.deepEqual(readEgtsPacket(await egts.readEgtsPacket()).response, { packetId: 9, result: 0 });
      egts.close();
    });
  });
}

/**
 * The tracker thread acknowledges a frame only once the sync covering its commit is announced:
 * an acknowledged record is on disk. The real ingest port on SQLite; only the channel the thread
 * hears the news on is the test's, so that the held acknowledgement can be seen.
 */
describe('the tracker thread acknowledges once the commit is on disk (SQLite)', () => {
  let server: TestServer;
  let listeners: TrackerListeners;
  let news: BroadcastChannel;
  const imei = '356307042441031';

  before(async () => {
    server = await startServer('sqlite');
    await createEmployee(server.api, { name: 'Held truck', deviceKey: imei });
    const channelName = `lokator-test-durability-${randomUUID()}`;
    news = new BroadcastChannel(channelName);
    const ingest: IngestPort = Object.create(server.services.positioning.ingest, { durabilityChannel: { value: channelName } });
    listeners = await startTrackerThread({ listeners: [{ protocol: 'teltonika', port: 0 }], host: '127.0.0.1', idleTimeoutMs: 60_000, directory: deviceDirectory(server.services), ingest, logger: recordingLogger().logger });
  });
  after(async () => {
    news?.close();
    await listeners?.close();
    await server?.close();
  });

  const commitNow = async () => (await server.database.visibleTransaction(async () => {})).commit;
  const storedAt = async (timeMs: number) => (await server.database.db.selectFrom('locations').select('id').where('location_date', '=', timeMs).execute()).length;

  it('holds the acknowledgement until its commit is announced, and drops the connection unanswered once a sync failed', async () => {
    const client = await TrackerClient.connect(listeners.ports.teltonika!);
    await client.send(teltonikaHandshake(imei));
    assert.deepEqual(await client.readBytes(1), Buffer.from([1]));
    const record: TeltonikaRecordSpec = { timeMs: Date.now() - 120_000, latitude: 55.75, longitude: 37.61, speedKmh: 30, angle: 0, satellites: 9 };
    const before = await commitNow();
    await client.send(teltonikaPacket([record]));
    await until('the record stored', async () => (await storedAt(record.timeMs)) === 1, 10_000);
    const after = await commitNow();
    news.postMessage({ durable: before });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(client.pending.length, 0, 'acknowledged before its commit was announced on disk');
    news.postMessage({ durable: after });
    assert.deepEqual(await client.readBytes(4), Buffer.from([0, 0, 0, 1]));

    // A failed sync: not acknowledged; the terminal reconnects and resends, and the record is stored once.
    const next: TeltonikaRecordSpec = { ...record, timeMs: record.timeMs + 10_000 };
    await client.send(teltonikaPacket([next]));
    await until('the next record stored', async () => (await storedAt(next.timeMs)) === 1, 10_000);
    news.postMessage({ failed: await commitNow(), message: 'EIO' });
    await client.expectClosed();
    assert.equal(client.pending.length, 0);
    // A failed sync is the end (the server exits, see wal-sync-failure.test.ts): nothing is
    // acknowledged after it, even when a later "durable" is heard.
    const again = await TrackerClient.connect(listeners.ports.teltonika!);
    await again.send(teltonikaHandshake(imei));
    assert.deepEqual(await again.readBytes(1), Buffer.from([1]));
    await again.send(teltonikaPacket([next]));
    await commitNow();
    news.postMessage({ durable: commitSequence(Number.MAX_SAFE_INTEGER) });
    await again.expectClosed();
    assert.equal(again.pending.length, 0);
    assert.equal(await storedAt(next.timeMs), 1, 'the resent record is stored once');
  });
});
