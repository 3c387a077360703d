import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { teltonikaProtocol } from '../../../src/devices/teltonika/teltonika-protocol.js';
import { KeyGuessThrottle } from '../../../src/http/key-guess-throttle.js';
import { startListener, type Listener } from '../../helpers/tracker-client.js';
import { teltonikaHandshake, teltonikaPacket, type TeltonikaRecordSpec } from '../../../scripts/trackers/tracker-encoders.js';

const IMEI = '356307042441013';
const ACCOUNT = 7;
const SUBSCRIBER = 70;
const T0 = Date.parse('2024-05-20T10:00:00Z');
const ACCEPTED = Buffer.from([1]);
const ack = (n: number) => Buffer.from([0, 0, 0, n]);

const record = (i: number): TeltonikaRecordSpec => ({
  timeMs: T0 + i * 10_000,
  latitude: 55.75 + i * 0.001,
  longitude: 37.61,
  angle: 90,
  satellites: 9,
  speedKmh: 40 + i,
  io: { 239: [1, 1], 66: [2, 12_800], 201: [2, 60 - i] },
});

describe('Teltonika listener', () => {
  let listener: Listener;

  before(async () => {
    listener = await startListener(teltonikaProtocol, { idleTimeoutMs: 60_000, clock: () => T0 });
    listener.sink.devices.set(IMEI, { accountId: ACCOUNT, subscriberId: SUBSCRIBER });
  });
  after(() => listener?.close());

  async function loggedIn() {
    const client = await listener.connect();
    await client.send(teltonikaHandshake(IMEI));
    assert.deepEqual(await client.readBytes(1), ACCEPTED);
    return client;
  }

  it('accepts a known IMEI, stores a record with its readings and acknowledges it with the count', async () => {
    const before = listener.sink.fixes.length;
    const client = await loggedIn();
    await client.send(teltonikaPacket([record(0)]));
    assert.deepEqual(await client.readBytes(4), ack(1));
    const [fix] = listener.sink.fixes.slice(before);
    assert.deepEqual(fix, {
      subscriberId: SUBSCRIBER,
      locationDateMs: T0,
      isValid: true,
      latitude: 55.75,
      longitude: 37.61,
      angle: 90,
      velocityKmh: 40,
      fuelLevel: 60,
      ignition: true,
      externalPower: true,
      odometer: null,
      engineHours: null,
      sensors: null,
    });
    assert.equal(listener.sink.stored.at(-1)!.accountId, ACCOUNT);
  });

  it('stores a buffered batch in order and acknowledges all its records', async () => {
    const before = listener.sink.fixes.length;
    const client = await loggedIn();
    await client.send(teltonikaPacket([0, 1, 2, 3, 4].map(record), 0x8e));
    assert.deepEqual(await client.readBytes(4), ack(5));
    assert.deepEqual(listener.sink.fixes.slice(before).map((f) => f.locationDateMs), [0, 1, 2, 3, 4].map((i) => T0 + i * 10_000));
  });

  it('refuses an unknown IMEI with 0x00, closes, and logs only a digest of it', async () => {
    const client = await listener.connect();
    await client.send(teltonikaHandshake('111111111111111'));
    assert.deepEqual(await client.readBytes(1), Buffer.from([0]));
    await client.expectClosed();
    assert.ok(listener.logs.some((line) => line.includes('unknown terminal refused')));
    assert.ok(!listener.logs.some((line) => line.includes('111111111111111') || line.includes(IMEI)));
  });

  it('answers a bad CRC with zero records, stores nothing, and goes on with the next packet', async () => {
    const client = await loggedIn();
    const before = listener.sink.fixes.length;
    const broken = teltonikaPacket([record(1)]);
    broken.writeUInt8(broken.readUInt8(broken.length - 1) ^ 0xff, broken.length - 1);
    await client.send(broken);
    assert.deepEqual(await client.readBytes(4), ack(0));
    assert.equal(listener.sink.fixes.length, before);
    await client.send(teltonikaPacket([record(1)]));
    assert.deepEqual(await client.readBytes(4), ack(1));
  });

  it('reassembles frames split byte by byte and separates frames merged into one write', async () => {
    const before = listener.sink.fixes.length;
    const split = await listener.connect();
    await split.sendByteByByte(Buffer.concat([teltonikaHandshake(IMEI), teltonikaPacket([record(0), record(1)])]));
    assert.deepEqual(await split.readBytes(5), Buffer.concat([ACCEPTED, ack(2)]));
    const merged = await listener.connect();
    await merged.send(Buffer.concat([teltonikaHandshake(IMEI), teltonikaPacket([record(2)]), teltonikaPacket([record(3), record(4)])]));
    assert.deepEqual(await merged.readBytes(9), Buffer.concat([ACCEPTED, ack(1), ack(2)]));
    assert.equal(listener.sink.fixes.length, before + 5);
  });

  it('acknowledges only after the store committed, and not at all when it failed', async () => {
    const client = await loggedIn();
    const { entered, release } = listener.sink.hold();
    await client.send(teltonikaPacket([record(0)]));
    await entered;
    assert.equal(client.pending.length, 0, 'no acknowledgement before the commit');
    release();
    assert.deepEqual(await client.readBytes(4), ack(1));

    listener.sink.failures = 1;
    await client.send(teltonikaPacket([record(1)]));
    await client.expectClosed();
    assert.equal(client.pending.length, 0, 'no acknowledgement of what was not stored');
  });

  it('closes on data before the handshake, on bytes that are no frame and on an oversize packet', async () => {
    const early = await listener.connect();
    await early.send(teltonikaPacket([record(0)]));
    await early.expectClosed();
    const garbage = await listener.connect();
    await garbage.send(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    await garbage.expectClosed();
    const huge = await loggedIn();
    const header = Buffer.alloc(8);
    header.writeUInt32BE(10_000_000, 4);
    await huge.send(header);
    await huge.expectClosed();
  });

  it('throttles key guessing: after too many unknown IMEIs the address is refused every IMEI it has not proven, a known one included', async () => {
    const guarded = await startListener(teltonikaProtocol, { keyGuesses: new KeyGuessThrottle({ maxFailures: 2, windowMs: 60_000, lockMs: 60_000 }) });
    const PROVEN = '352093081452251';
    guarded.sink.devices.set(IMEI, { accountId: ACCOUNT, subscriberId: SUBSCRIBER });
    guarded.sink.devices.set(PROVEN, { accountId: ACCOUNT, subscriberId: SUBSCRIBER + 1 });
    try {
      // A tracker of the fleet behind this address connected before the guessing began.
      const before = await guarded.connect();
      await before.send(teltonikaHandshake(PROVEN));
      assert.deepEqual(await before.readBytes(1), Buffer.from([1]));
      await before.close();
      for (const guess of ['100000000000001', '100000000000002']) {
        const client = await guarded.connect();
        await client.send(teltonikaHandshake(guess));
        assert.deepEqual(await client.readBytes(1), Buffer.from([0]));
        await client.expectClosed();
      }
      const locked = await guarded.connect();
      await locked.send(teltonikaHandshake(IMEI));
      assert.deepEqual(await locked.readBytes(1), Buffer.from([0]), 'a key not proven from this address is refused like a wrong one');
      await locked.expectClosed();
      const fleet = await guarded.connect();
      await fleet.send(teltonikaHandshake(PROVEN));
      assert.deepEqual(await fleet.readBytes(1), Buffer.from([1]), 'a tracker that authenticated from this address before still connects');
      await fleet.close();
      assert.ok(!guarded.logs.some((line) => line.includes('100000000000001') || line.includes(IMEI)));
    } finally {
      await guarded.close();
    }
  });

  it('closes a silent connection after the idle timeout', async () => {
    const quick = await startListener(teltonikaProtocol, { idleTimeoutMs: 100 });
    try {
      const client = await quick.connect();
      await client.expectClosed();
      assert.equal(quick.logs.some((line) => line.includes('idle timeout')), true);
    } finally {
      await quick.close();
    }
  });

  it('serves five hundred connections at once', async () => {
    const before = listener.sink.fixes.length;
    const clients = await Promise.all(Array.from({ length: 500 }, () => listener.connect()));
    await Promise.all(clients.map((client, i) => client.send(Buffer.concat([teltonikaHandshake(IMEI), teltonikaPacket([record(i % 50)])]))));
    const answers = await Promise.all(clients.map((client) => client.readBytes(5)));
    assert.ok(answers.every((answer) => answer.equals(Buffer.concat([ACCEPTED, ack(1)]))));
    assert.equal(listener.sink.fixes.length, before + 500);
    for (const client of clients) client.close();
  });
});
