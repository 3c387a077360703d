import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { wialonIpsProtocol } from '../../../src/devices/wialon-ips/wialon-ips-protocol.js';
import { startListener, type Listener } from '../../helpers/tracker-client.js';
import { wialonLine, wialonLogin, wialonRecord, type WialonRecordSpec } from '../../../scripts/trackers/tracker-encoders.js';

const IMEI = '860000000000001';
const SUBSCRIBER = 31;
const T0 = Date.parse('2024-05-20T10:00:00Z');

const spec = (i: number): WialonRecordSpec => ({
  timeMs: T0 + i * 10_000,
  latitude: 55.75,
  longitude: 37.61 + i * 0.001,
  speedKmh: 30,
  course: 45,
  height: 120,
  sats: 10,
  inputs: 1,
  params: { fuel: [2, 50 - i], ign: [1, 1], pwr_ext: [2, 13.8] },
});

describe('Wialon IPS listener', () => {
  let listener: Listener;

  before(async () => {
    listener = await startListener(wialonIpsProtocol, { clock: () => T0 });
    listener.sink.devices.set(IMEI, { accountId: 3, subscriberId: SUBSCRIBER });
  });
  after(() => listener?.close());

  async function loggedIn(version: '1.1' | '2.0' = '1.1') {
    const client = await listener.connect();
    await client.send(wialonLogin(IMEI, 'NA', version));
    assert.equal(await client.readLine(), '#AL#1\r\n');
    return client;
  }

  it('1.1: login, short and extended data, ping; each answered, readings mapped', async () => {
    const before = listener.sink.fixes.length;
    const client = await loggedIn();
    await client.send(wialonLine('SD', wialonRecord(spec(0), true)));
    assert.equal(await client.readLine(), '#ASD#1\r\n');
    await client.send(wialonLine('D', wialonRecord(spec(1))));
    assert.equal(await client.readLine(), '#AD#1\r\n');
    await client.send('#P#\r\n');
    assert.equal(await client.readLine(), '#AP#\r\n');
    const [short, full] = listener.sink.fixes.slice(before);
    assert.deepEqual([short!.fuelLevel, short!.ignition, short!.velocityKmh, short!.angle], [null, null, 30, 45]);
    assert.deepEqual([full!.fuelLevel, full!.ignition, full!.externalPower, full!.subscriberId], [49, true, true, SUBSCRIBER]);
    assert.equal(full!.locationDateMs, T0 + 10_000);
  });

  it('2.0: checks every checksum and answers a bad one with the code of its packet type', async () => {
    const client = await loggedIn('2.0');
    const good = wialonLine('D', wialonRecord(spec(2)), '2.0');
    await client.send(good);
    assert.equal(await client.readLine(), '#AD#1\r\n');
    await client.send(good.replace(/[0-9A-F]{4}\r\n$/, '0000\r\n'));
    assert.equal(await client.readLine(), '#AD#16\r\n');
    await client.send(wialonLine('SD', wialonRecord(spec(3), true), '2.0').replace(/[0-9A-F]{4}\r\n$/, '0000\r\n'));
    assert.equal(await client.readLine(), '#ASD#13\r\n');
    await client.send(wialonLine('B', [4, 5].map((i) => wialonRecord(spec(i))).join('|'), '2.0', '|').replace(/[0-9A-F]{4}\r\n$/, '0000\r\n'));
    assert.equal(await client.readLine(), '#AB#0\r\n');
    const other = await listener.connect();
    await other.send(wialonLogin(IMEI, 'NA', '2.0').replace(/[0-9A-F]{4}\r\n$/, '0000\r\n'));
    assert.equal(await other.readLine(), '#AL#10\r\n');
  });

  it('stores a black box in order and answers with the number of records accepted', async () => {
    for (const version of ['1.1', '2.0'] as const) {
      const before = listener.sink.fixes.length;
      const client = await loggedIn(version);
      const records = [wialonRecord(spec(0)), wialonRecord(spec(1), true), 'broken;record', wialonRecord(spec(2))];
      await client.send(wialonLine('B', records.join('|'), version, '|'));
      assert.equal(await client.readLine(), '#AB#3\r\n');
      assert.deepEqual(listener.sink.fixes.slice(before).map((f) => f.locationDateMs), [0, 1, 2].map((i) => T0 + i * 10_000), version);
    }
  });

  it('answers a broken field with its code and stores nothing', async () => {
    const client = await loggedIn();
    const before = listener.sink.fixes.length;
    await client.send(wialonLine('D', wialonRecord(spec(0)).replace(';N;', ';X;')));
    assert.equal(await client.readLine(), '#AD#10\r\n');
    await client.send('#SD#1;2;3\r\n');
    assert.equal(await client.readLine(), '#ASD#-1\r\n');
    assert.equal(listener.sink.fixes.length, before);
  });

  it('refuses an unknown IMEI with #AL#0 and closes; never logs the IMEI', async () => {
    const client = await listener.connect();
    await client.send(wialonLogin('999999999999999'));
    assert.equal(await client.readLine(), '#AL#0\r\n');
    await client.expectClosed();
    assert.ok(!listener.logs.some((line) => line.includes('999999999999999') || line.includes(IMEI)));
  });

  it('handles lines split byte by byte and several lines in one write', async () => {
    const before = listener.sink.fixes.length;
    const split = await listener.connect();
    await split.sendByteByByte(wialonLogin(IMEI) + wialonLine('D', wialonRecord(spec(0))));
    assert.equal(await split.readLine(), '#AL#1\r\n');
    assert.equal(await split.readLine(), '#AD#1\r\n');
    const merged = await listener.connect();
    await merged.send(wialonLogin(IMEI) + wialonLine('D', wialonRecord(spec(1))) + '#P#\r\n' + wialonLine('SD', wialonRecord(spec(2), true)));
    assert.deepEqual([await merged.readLine(), await merged.readLine(), await merged.readLine(), await merged.readLine()], ['#AL#1\r\n', '#AD#1\r\n', '#AP#\r\n', '#ASD#1\r\n']);
    assert.equal(listener.sink.fixes.length, before + 3);
  });

  it('acknowledges only after the store committed', async () => {
    const client = await loggedIn();
    const { entered, release } = listener.sink.hold();
    await client.send(wialonLine('D', wialonRecord(spec(0))));
    await entered;
    assert.equal(client.pending.length, 0, 'no acknowledgement before the commit');
    release();
    assert.equal(await client.readLine(), '#AD#1\r\n');
  });

  it('closes on data before the login and on a line longer than the limit', async () => {
    const early = await listener.connect();
    await early.send(wialonLine('D', wialonRecord(spec(0))));
    await early.expectClosed();
    const huge = await loggedIn();
    await huge.send(`#B#${'x'.repeat(wialonIpsProtocol.maxFrameBytes + 10)}`);
    await huge.expectClosed();
  });
});
