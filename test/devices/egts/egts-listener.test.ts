import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { egtsProtocol } from '../../../src/devices/egts/egts-protocol.js';
import { KeyGuessThrottle } from '../../../src/http/key-guess-throttle.js';
import { authInfo, egtsPacket, egtsRecord, liquidLevel, posData, readEgtsPacket, stateData, termIdentity, type ReadEgtsPacket } from '../../../scripts/trackers/egts-encoder.js';
import { DISPATCHER_2219 } from './egts-frames.js';
import { startListener, type Listener, type TrackerClient } from '../../helpers/tracker-client.js';

const IMEI = '864495034643376';
const TERMINAL_ID = 3;
const OBJECT_ID = 1231580877;
const T0 = Date.parse('2024-05-20T10:00:00Z');
const AUTH = 1;
const TELEDATA = 2;
const RECORD_RESPONSE = 0;
const RESULT_CODE = 9;
const AUTH_PARAMS = 6;
const PASSWORD_IMEI = '861230043907626';
const PASSWORD = 'Term-Pass-1';

/** Traccar's sample from a terminal that names itself by the records' object id, without AUTH. */
const OBJECT_ID_POSITION = Buffer.from('0100020B0025003A5701C91A003A5701CD6E68490202101700CBB4740F7617FD924364104F116A0000000000010300001EC2', 'hex');

const authPacket = (packetId: number, imei?: string, terminalId = TERMINAL_ID) =>
  egtsPacket(egtsRecord({ number: 1, serviceType: AUTH, objectId: terminalId, subrecords: [termIdentity(terminalId, imei)] }), { packetId });

const teledata = (number: number, i: number) =>
  egtsRecord({
    number,
    serviceType: TELEDATA,
    objectId: TERMINAL_ID,
    subrecords: [posData({ timeMs: T0 + i * 10_000, latitude: 55.75, longitude: 37.61, speedKmh: 20, angle: 270, odometerKm: 100 + i, inputs: 1 }), stateData(12.4, 4, 4), liquidLevel(1, 2, 800 - i)],
  });

/** The record confirmations of a PT_RESPONSE: [confirmed record number, status]. */
const confirmations = (response: ReadEgtsPacket) =>
  response.records.map((r) => {
    assert.equal(r.subrecords[0]!.type, RECORD_RESPONSE);
    const data = r.subrecords[0]!.data;
    return [data.readUInt16LE(0), data[2]];
  });

async function resultCode(client: TrackerClient, type = RESULT_CODE): Promise<number> {
  const packet = readEgtsPacket(await client.readEgtsPacket());
  assert.equal(packet.packetType, 1);
  assert.deepEqual([packet.records[0]!.serviceType, packet.records[0]!.subrecords[0]!.type], [AUTH, type]);
  return packet.records[0]!.subrecords[0]!.data[0]!;
}

const authInfoRecord = (number: number, password: string) => egtsRecord({ number, serviceType: AUTH, subrecords: [authInfo('', password)] });

/** A teledata record of a terminal that names itself only by the record's object id (no AUTH). */
const byObjectId = (number: number, objectId: number) =>
  egtsRecord({ number, serviceType: TELEDATA, objectId, subrecords: [posData({ timeMs: T0, latitude: 1, longitude: 1 })] });

/** Connects and authenticates with these keys: the client, and the AUTH result code it was answered. */
async function authenticateAs(listener: Listener, packetId: number, imei?: string, terminalId?: number) {
  const client = await listener.connect();
  await client.send(authPacket(packetId, imei, terminalId));
  readEgtsPacket(await client.readEgtsPacket());
  return { client, result: await resultCode(client) };
}

describe('EGTS listener', () => {
  let listener: Listener;

  before(async () => {
    listener = await startListener(egtsProtocol, { clock: () => T0 });
    listener.sink.devices.set(IMEI, { accountId: 5, subscriberId: 50 });
    listener.sink.devices.set(String(OBJECT_ID), { accountId: 5, subscriberId: 51 });
    listener.sink.devices.set(PASSWORD_IMEI, { accountId: 5, subscriberId: 60 });
    listener.sink.passwords.set(PASSWORD_IMEI, PASSWORD);
  });
  after(() => listener?.close());

  async function authenticated(imei = IMEI) {
    const client = await listener.connect();
    await client.send(authPacket(10, imei));
    const response = readEgtsPacket(await client.readEgtsPacket());
    assert.deepEqual([response.response, confirmations(response)], [{ packetId: 10, result: 0 }, [[1, 0]]]);
    assert.equal(await resultCode(client), 0);
    return client;
  }

  it('authenticates by IMEI, confirms every record of a packet and stores their fixes in order', async () => {
    const before = listener.sink.fixes.length;
    const client = await authenticated();
    await client.send(egtsPacket(Buffer.concat([teledata(2, 0), teledata(3, 1), teledata(4, 2)]), { packetId: 11 }));
    const response = readEgtsPacket(await client.readEgtsPacket());
    assert.deepEqual(response.response, { packetId: 11, result: 0 });
    assert.deepEqual(confirmations(response), [[2, 0], [3, 0], [4, 0]]);
    assert.deepEqual(response.records.map((r) => r.serviceType), [TELEDATA, TELEDATA, TELEDATA]);
    const fixes = listener.sink.fixes.slice(before);
    assert.deepEqual(fixes.map((f) => f.locationDateMs), [T0, T0 + 10_000, T0 + 20_000]);
    assert.deepEqual(
      { ...fixes[0], latitude: Math.round(fixes[0]!.latitude * 1e6) / 1e6, longitude: Math.round(fixes[0]!.longitude * 1e6) / 1e6, sensors: fixes[0]!.sensors?.length },
      { subscriberId: 50, locationDateMs: T0, isValid: true, latitude: 55.75, longitude: 37.61, angle: 270, velocityKmh: 20, fuelLevel: 80, ignition: true, externalPower: true, odometer: 100, engineHours: null, sensors: 8 },
    );
  });

  it('falls back to the terminal id when the IMEI is unknown', async () => {
    listener.sink.devices.set(String(TERMINAL_ID), { accountId: 5, subscriberId: 52 });
    try {
      await authenticated('111111111111111');
    } finally {
      listener.sink.devices.delete(String(TERMINAL_ID));
    }
  });

  it('accepts a terminal that names itself by object id (Traccar\'s sample)', async () => {
    const before = listener.sink.fixes.length;
    const client = await listener.connect();
    await client.send(OBJECT_ID_POSITION);
    const response = readEgtsPacket(await client.readEgtsPacket());
    assert.deepEqual([response.response, confirmations(response)], [{ packetId: 0x573a, result: 0 }, [[0x573a, 0]]]);
    assert.deepEqual(listener.sink.fixes.slice(before).map((f) => [f.subscriberId, f.locationDateMs]), [[51, Date.parse('2018-03-21T05:38:19Z')]]);
  });

  it('refuses an unknown terminal with EGTS_PC_AUTH_DENIED and closes; logs no identifier', async () => {
    const { client, result } = await authenticateAs(listener, 1, '222222222222222', 4444);
    assert.equal(result, 151);
    await client.expectClosed();
    const stranger = await listener.connect();
    await stranger.send(egtsPacket(byObjectId(1, 4444), { packetId: 2 }));
    assert.deepEqual(confirmations(readEgtsPacket(await stranger.readEgtsPacket())), [[1, 151]]);
    await stranger.expectClosed();
    assert.ok(!listener.logs.some((line) => /222222222222222|4444|864495034643376/.test(line)));
  });

  it('counts an unknown terminal once toward its address\'s throttle, whatever keys and records it sent', async () => {
    // Three unknown keys lock the address: the known terminal is heard only if the two unknown ones
    // before it counted as one each (an IMEI with a terminal id; an object id on three records).
    const guarded = await startListener(egtsProtocol, { clock: () => T0, keyGuesses: new KeyGuessThrottle({ maxFailures: 3, windowMs: 60_000, lockMs: 60_000 }) });
    try {
      guarded.sink.devices.set(IMEI, { accountId: 5, subscriberId: 50 });
      const unknown = await authenticateAs(guarded, 1, '222222222222222', 4444);
      assert.equal(unknown.result, 151);
      await unknown.client.expectClosed();
      const stranger = await guarded.connect();
      await stranger.send(egtsPacket(Buffer.concat([byObjectId(1, 5555), byObjectId(2, 5555), byObjectId(3, 5555)]), { packetId: 2 }));
      assert.deepEqual(confirmations(readEgtsPacket(await stranger.readEgtsPacket())), [[1, 151], [2, 151], [3, 151]]);
      await stranger.expectClosed();
      assert.equal(guarded.logs.filter((line) => line.includes('unknown terminal refused')).length, 2, 'one line per terminal');

      assert.equal((await authenticateAs(guarded, 3, IMEI)).result, 0, 'the address is not locked yet');
      assert.equal((await authenticateAs(guarded, 4, '333333333333333', 6666)).result, 151);
      // The third unknown terminal locked the address: the fourth is refused for the lock.
      assert.equal((await authenticateAs(guarded, 5, '444444444444444', 7777)).result, 151);
      assert.ok(guarded.logs.some((line) => line.includes('guessed too many keys')), 'refused for the lock');
    } finally {
      await guarded.close();
    }
  });

  it('asks a terminal with a device password for AUTH_INFO, refuses its teledata until then, and accepts the right password', async () => {
    const before = listener.sink.fixes.length;
    const client = await listener.connect();
    await client.send(egtsPacket(Buffer.concat([authPacket(1, PASSWORD_IMEI).subarray(11, -2), teledata(2, 0)]), { packetId: 1 }));
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[1, 0], [2, 151]]);
    assert.equal(await resultCode(client, AUTH_PARAMS), 0, 'AUTH_PARAMS without encryption: send AUTH_INFO');
    await client.send(egtsPacket(authInfoRecord(3, PASSWORD), { packetId: 2 }));
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[3, 0]]);
    assert.equal(await resultCode(client), 0);
    await client.send(egtsPacket(teledata(4, 1), { packetId: 3 }));
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[4, 0]]);
    assert.deepEqual(listener.sink.fixes.slice(before).map((f) => [f.subscriberId, f.locationDateMs]), [[60, T0 + 10_000]]);
  });

  it('accepts TERM_IDENTITY with AUTH_INFO in one packet; refuses a wrong password with AUTH_DENIED and closes, logging no password', async () => {
    const right = await listener.connect();
    await right.send(egtsPacket(Buffer.concat([authPacket(1, PASSWORD_IMEI).subarray(11, -2), authInfoRecord(2, PASSWORD)]), { packetId: 1 }));
    assert.deepEqual(confirmations(readEgtsPacket(await right.readEgtsPacket())), [[1, 0], [2, 0]]);
    assert.equal(await resultCode(right), 0);

    const before = listener.sink.fixes.length;
    const wrong = await listener.connect();
    await wrong.send(egtsPacket(Buffer.concat([authPacket(1, PASSWORD_IMEI).subarray(11, -2), authInfoRecord(2, 'Guess-Pass-9'), teledata(3, 0)]), { packetId: 1 }));
    assert.deepEqual(confirmations(readEgtsPacket(await wrong.readEgtsPacket())), [[1, 0], [2, 0], [3, 151]]);
    assert.equal(await resultCode(wrong), 151);
    await wrong.expectClosed();
    assert.equal(listener.sink.fixes.length, before);
    assert.ok(listener.logs.some((line) => line.includes('wrong-password')));
    assert.ok(!listener.logs.some((line) => /Guess-Pass-9|Term-Pass-1|861230043907626/.test(line)));
  });

  it('refuses a terminal with a device password that names itself only by object id', async () => {
    listener.sink.devices.set(PASSWORD_IMEI.slice(-9), { accountId: 5, subscriberId: 60 });
    listener.sink.passwords.set(PASSWORD_IMEI.slice(-9), PASSWORD);
    try {
      const again = await listener.connect();
      await again.send(egtsPacket(byObjectId(1, Number(PASSWORD_IMEI.slice(-9))), { packetId: 1 }));
      assert.deepEqual(confirmations(readEgtsPacket(await again.readEgtsPacket())), [[1, 151]]);
      await again.expectClosed();
    } finally {
      listener.sink.devices.delete(PASSWORD_IMEI.slice(-9));
      listener.sink.passwords.delete(PASSWORD_IMEI.slice(-9));
    }
  });

  it('a retranslator: asked for AUTH_INFO after DISPATCHER_IDENTITY; records without an OID or of another account refused with OBJ_NFOUND', async () => {
    listener.sink.retranslators.set('2219:Relay-Pass-01', { accountId: 5, retranslatorId: 1 });
    listener.sink.devices.set('777001', { accountId: 6, subscriberId: 70 });
    const before = listener.sink.fixes.length;
    const client = await listener.connect();
    await client.send(DISPATCHER_2219);
    readEgtsPacket(await client.readEgtsPacket());
    assert.equal(await resultCode(client, AUTH_PARAMS), 0);
    await client.send(egtsPacket(authInfoRecord(3, 'Relay-Pass-01'), { packetId: 10 }));
    readEgtsPacket(await client.readEgtsPacket());
    assert.equal(await resultCode(client), 0);
    const record = (number: number, objectId?: number) => egtsRecord({ number, serviceType: TELEDATA, objectId, subrecords: [posData({ timeMs: T0 + number * 1000, latitude: 1, longitude: 1 })] });
    await client.send(egtsPacket(Buffer.concat([record(1, OBJECT_ID), record(2), record(3, 777001), record(4, 50)]), { packetId: 11 }));
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[1, 0], [2, 146], [3, 146], [4, 146]]);
    assert.deepEqual(listener.sink.stored.slice(-1).map((s) => [s.accountId, s.fixes.map((f) => [f.subscriberId, f.locationDateMs])]), [[5, [[51, T0 + 1000]]]]);
    assert.equal(listener.sink.fixes.length, before + 1);
    assert.ok(!listener.logs.some((line) => line.includes('Relay-Pass-01') || line.includes('777001')));
  });

  it('answers a bad body CRC with EGTS_PC_DATACRC_ERROR and goes on; a bad header CRC closes', async () => {
    const client = await authenticated();
    const before = listener.sink.fixes.length;
    await client.send(egtsPacket(teledata(5, 0), { packetId: 20, breakBodyCrc: true }));
    assert.deepEqual(readEgtsPacket(await client.readEgtsPacket()).response, { packetId: 20, result: 138 });
    assert.equal(listener.sink.fixes.length, before);
    await client.send(egtsPacket(teledata(6, 0), { packetId: 21 }));
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[6, 0]]);
    await client.send(egtsPacket(teledata(7, 0), { packetId: 22, breakHeaderCrc: true }));
    assert.deepEqual(readEgtsPacket(await client.readEgtsPacket()).response, { packetId: 22, result: 137 });
    await client.expectClosed();
  });

  it('reassembles packets split byte by byte and separates packets merged into one write', async () => {
    const before = listener.sink.fixes.length;
    const client = await listener.connect();
    await client.sendByteByByte(Buffer.concat([authPacket(1, IMEI), egtsPacket(teledata(2, 0), { packetId: 2 })]));
    readEgtsPacket(await client.readEgtsPacket());
    assert.equal(await resultCode(client), 0);
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[2, 0]]);
    await client.send(Buffer.concat([egtsPacket(teledata(3, 1), { packetId: 3 }), egtsPacket(teledata(4, 2), { packetId: 4 })]));
    assert.deepEqual(readEgtsPacket(await client.readEgtsPacket()).response, { packetId: 3, result: 0 });
    assert.deepEqual(readEgtsPacket(await client.readEgtsPacket()).response, { packetId: 4, result: 0 });
    assert.equal(listener.sink.fixes.length, before + 3);
  });

  it('confirms only after the store committed', async () => {
    const client = await authenticated();
    const { entered, release } = listener.sink.hold();
    await client.send(egtsPacket(teledata(8, 0), { packetId: 30 }));
    await entered;
    assert.equal(client.pending.length, 0, 'no confirmation before the commit');
    release();
    assert.deepEqual(confirmations(readEgtsPacket(await client.readEgtsPacket())), [[8, 0]]);
  });

  it('closes on bytes that are not EGTS and on a packet above the configured limit', async () => {
    const garbage = await listener.connect();
    await garbage.send('#L#123;NA\r\n');
    await garbage.expectClosed();
    const small = await startListener(egtsProtocol, { maxFrameBytes: 64 });
    try {
      const client = await small.connect();
      await client.send(egtsPacket(Buffer.concat([teledata(1, 0), teledata(2, 1)]), { packetId: 1 }));
      await client.expectClosed();
    } finally {
      await small.close();
    }
  });
});
