import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc16Ccitt, crc8Egts } from '../../../src/devices/crc.js';
import { decodeAuthInfo, decodeDispatcherIdentity } from '../../../src/devices/egts/egts-auth.js';
import { AUTH_SERVICE, parseEgtsRecords, SR_DISPATCHER_IDENTITY, TELEDATA_SERVICE } from '../../../src/devices/egts/egts-records.js';
import { decodeTeledata, decodeTermIdentity } from '../../../src/devices/egts/egts-teledata.js';
import { buildEgtsResponse, EGTS_PC, egtsFrameLength, parseEgtsPacket } from '../../../src/devices/egts/egts-transport.js';
import {
  adSensorsData,
  countersData,
  egtsCrc16,
  egtsCrc8,
  egtsPacket,
  egtsRecord,
  extPosData,
  authInfo,
  liquidLevel,
  posData,
  readEgtsPacket,
  stateData,
  termIdentity,
} from '../../../scripts/trackers/egts-encoder.js';
import { AUTH_865905, DISPATCHER_2219, NET_EGTS_DISPATCHER_2002, POSITION_OF_OID_100723, RECORD_OF_55_POSITIONS, RETRANSLATED_OIDS, RETRANSLATED_TEN_RECORDS } from './egts-frames.js';

const hex = (text: string) => Buffer.from(text, 'hex');

/** From Traccar's EgtsProtocolDecoderTest (packets of real terminals). */
const AUTH_IMEI = hex('0100000b002400a0d601f01900030081030000000101011600030000004238363434393530333436343333373600014cdc');
const POSITION = hex('0100020B0025003A5701C91A003A5701CD6E68490202101700CBB4740F7617FD924364104F116A0000000000010300001EC2');
const SENSORS = hex(
  '0100020B0079000000011F6A001424951CA5CB0F23B5740F020210180023B5740F0A301994DA9C524C9128000A000000100082000011040018110300120900000003150100E803001B0700010000340900001B0700420000000000001B0700430000000000001B0700440000000000001B0700450000000000001B0700460000000000008020',
);

function recordsOf(frame: Buffer) {
  const checked = parseEgtsPacket(frame);
  assert.ok('packet' in checked, JSON.stringify(checked));
  return parseEgtsRecords(checked.packet.body);
}

describe('EGTS decoding', () => {
  it('computes the CRC-8 and CRC-16 of GOST 33472 (catalogue check values and the samples)', () => {
    assert.equal(crc8Egts(Buffer.from('123456789')), 0xf7); // CRC-8/NRSC-5 (poly 0x31, init 0xFF)
    assert.equal(crc16Ccitt(Buffer.from('123456789')), 0x29b1); // CRC-16/CCITT-FALSE
    for (const frame of [AUTH_IMEI, POSITION, SENSORS]) {
      assert.equal(egtsFrameLength(frame), frame.length);
      assert.equal(crc8Egts(frame.subarray(0, 10)), egtsCrc8(frame.subarray(0, 10)));
      assert.equal(crc16Ccitt(frame.subarray(11, -2)), egtsCrc16(frame.subarray(11, -2)));
    }
  });

  it('reads the terminal identity: IMEI, else the terminal id', () => {
    const [record] = recordsOf(AUTH_IMEI);
    assert.deepEqual(decodeTermIdentity(record!.subrecords[0]!.data), { terminalId: 3, imei: '864495034643376' });
    assert.deepEqual(decodeTermIdentity(termIdentity(77)[1]), { terminalId: 77, imei: null });
    assert.deepEqual(decodeTermIdentity(termIdentity(77, '000000000000000')[1]), { terminalId: 77, imei: null });
  });

  it('decodes POS_DATA as Traccar reads it: 2018-03-21 05:38:19, 51.67569, 55.59189', () => {
    const [record] = recordsOf(POSITION);
    assert.equal(record!.objectId, 1231580877);
    const position = decodeTeledata(record!)[0]!;
    assert.equal(position.timeMs, Date.parse('2018-03-21T05:38:19Z'));
    // Traccar compares coordinates to 0.00001.
    assert.ok(Math.abs(position.latitude - 51.67569) < 1e-5 && Math.abs(position.longitude - 55.59189) < 1e-5);
    assert.deepEqual([position.isValid, position.speedKmh, position.readings.in1, position.readings.odometer], [true, 10.6, 1, 0]);
  });

  it('decodes EXT_POS_DATA, AD_SENSORS_DATA and LIQUID_LEVEL_SENSOR of a real terminal', () => {
    const [record] = recordsOf(SENSORS);
    const { readings } = decodeTeledata(record!)[0]!;
    assert.deepEqual([readings.sats, readings.adc1, readings.adc2, readings.lls1_raw], [17, 277, 1000, 2356]);
    // Sensors 2 to 6 report the error flag: no reading.
    assert.equal(Object.keys(readings).filter((k) => k.startsWith('lls')).length, 1);
  });

  it('decodes every subrecord the encoder writes, exactly', () => {
    const timeMs = Date.parse('2024-05-20T10:00:00Z');
    const record = egtsRecord({
      number: 7,
      serviceType: TELEDATA_SERVICE,
      objectId: 42,
      time: 1,
      subrecords: [
        posData({ timeMs, latitude: -33.5, longitude: -70.25, speedKmh: 63.4, angle: 300, odometerKm: 12_345.6, inputs: 0b101, altitude: 12 }),
        extPosData(11, 90),
        adSensorsData({ 0: 0b10, 2: 0b1 }, 0b11, { 1: 4100, 3: 12_000 }),
        countersData({ 1: 5, 8: 99 }),
        stateData(12.6, 4.1, 3.7),
        liquidLevel(1, 2, 4_235),
        liquidLevel(2, 1, 55),
        liquidLevel(3, 2, 999, true),
      ],
    });
    const [decoded] = parseEgtsRecords(record);
    assert.deepEqual([decoded!.number, decoded!.objectId, decoded!.serviceType], [7, 42, TELEDATA_SERVICE]);
    const position = decodeTeledata(decoded!)[0]!;
    assert.equal(position.timeMs, timeMs);
    assert.ok(Math.abs(position.latitude + 33.5) < 1e-7 && Math.abs(position.longitude + 70.25) < 1e-7);
    assert.deepEqual([position.speedKmh, position.angle, position.isValid], [63.4, 300, true]);
    const { readings } = position;
    assert.deepEqual(
      [readings.odometer, readings.in1, readings.in2, readings.in3, readings.hdop, readings.sats],
      [12_345.6, 1, 0, 1, 0.9, 11],
    );
    assert.deepEqual([readings.in9, readings.in10, readings.in25, readings.in17, readings.out1, readings.out2, readings.out3], [0, 1, 1, undefined, 1, 1, 0]);
    assert.deepEqual([readings.adc1, readings.adc2, readings.adc3, readings.cnt1, readings.cnt8, readings.cnt2], [4100, undefined, 12_000, 5, 99, undefined]);
    assert.deepEqual([readings.mpsv, readings.bbv, readings.ibv], [12.6, 4.1, 3.7]);
    assert.deepEqual([readings.lls1, readings.lls2_percent, readings.lls3], [423.5, 55, undefined]);
  });

  it('reads STATE_DATA sent under type 20, as several terminals do', () => {
    const record = egtsRecord({ number: 1, serviceType: TELEDATA_SERVICE, subrecords: [posData({ timeMs: Date.UTC(2020, 0, 1), latitude: 1, longitude: 1 }), stateData(0, 4, 4, 20)] });
    assert.equal(decodeTeledata(parseEgtsRecords(record)[0]!)[0]!.readings.mpsv, 0);
  });

  it('tells header and body CRC errors apart, and unframeable bytes', () => {
    const body = egtsRecord({ number: 1, serviceType: TELEDATA_SERVICE, subrecords: [] });
    assert.deepEqual(parseEgtsPacket(egtsPacket(body, { packetId: 9, breakHeaderCrc: true })), { error: EGTS_PC.HEADERCRC_ERROR, packetId: 9 });
    assert.deepEqual(parseEgtsPacket(egtsPacket(body, { packetId: 9, breakBodyCrc: true })), { error: EGTS_PC.DATACRC_ERROR, packetId: 9 });
    assert.equal(egtsFrameLength(hex('02000b')), -1);
    assert.equal(egtsFrameLength(hex('0100000c0000')), 0);
    assert.equal(egtsFrameLength(hex('0100000c000000')), -1);
    assert.throws(() => parseEgtsRecords(hex('0500010000')));
  });

  it('writes responses a terminal can read: RPID, PR and the record confirmations', () => {
    const response = readEgtsPacket(buildEgtsResponse(5, 0x1234, EGTS_PC.DATACRC_ERROR, []));
    assert.deepEqual(response, { packetId: 5, packetType: 0, response: { packetId: 0x1234, result: 138 }, records: [] });
    // Traccar's empty PT_RESPONSE from a terminal: 11 header bytes, RPID and PR.
    const fromTerminal = hex('0100000b0003006c430004010000acfb');
    assert.ok('packet' in parseEgtsPacket(fromTerminal));
  });
});

describe('EGTS decoding of captured packets (egts-frames.ts)', () => {
  it('reads every POS_DATA of one record as its own fix: 55 positions, each with its own time and readings', () => {
    const [identity] = recordsOf(AUTH_865905);
    assert.deepEqual(decodeTermIdentity(identity!.subrecords[0]!.data), { terminalId: 865905, imei: '865905' });
    const records = recordsOf(RECORD_OF_55_POSITIONS);
    assert.deepEqual(records.map((r) => [r.number, r.objectId, r.serviceType, r.subrecords.length]), [[25795, 865905, TELEDATA_SERVICE, 165]]);
    const positions = decodeTeledata(records[0]!);
    assert.equal(positions.length, 55);
    assert.equal(new Set(positions.map((p) => p.timeMs)).size, 55, 'each its own NTM');
    const times = positions.map((p) => p.timeMs);
    assert.deepEqual([Math.min(...times), Math.max(...times)], [Date.parse('2018-03-26T11:13:37Z'), Date.parse('2018-03-26T11:17:42Z')]);
    const [first, last] = [positions[0]!, positions[54]!];
    assert.deepEqual([first.timeMs, first.speedKmh, first.angle, first.isValid], [Date.parse('2018-03-26T11:13:37Z'), 28, 183, true]);
    assert.ok(Math.abs(first.latitude - 54.41076) < 1e-5 && Math.abs(first.longitude - 86.289336) < 1e-5);
    assert.deepEqual([last.timeMs, last.speedKmh, last.angle], [Date.parse('2018-03-26T11:17:42Z'), 20, 87]);
    assert.ok(Math.abs(last.latitude - 54.40674) < 1e-5 && Math.abs(last.longitude - 86.302992) < 1e-5);
    // Each fix has the readings of the subrecords after its own POS_DATA, not a neighbour's object.
    assert.ok(positions.every((p) => p.readings.out1 === 0 && p.readings.odometer === 0));
    assert.notEqual(positions[0]!.readings, positions[1]!.readings);
  });

  it('gives readings written before the first POS_DATA to the first fix, and later ones to the fix before them', () => {
    const t = Date.parse('2024-05-20T10:00:00Z');
    const record = egtsRecord({
      number: 1,
      serviceType: TELEDATA_SERVICE,
      subrecords: [stateData(12.1, 4, 4), posData({ timeMs: t, latitude: 1, longitude: 1 }), liquidLevel(1, 2, 100), posData({ timeMs: t + 1000, latitude: 2, longitude: 2 }), liquidLevel(1, 2, 90)],
    });
    const positions = decodeTeledata(parseEgtsRecords(record)[0]!);
    assert.deepEqual(positions.map((p) => [p.timeMs, p.readings.mpsv, p.readings.lls1]), [[t, 12.1, 10], [t + 1000, undefined, 9]]);
  });

  it('reads a retranslated packet: ten records of eight objects, each with its OID', () => {
    const records = recordsOf(RETRANSLATED_TEN_RECORDS);
    assert.deepEqual(records.map((r) => r.number), [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    assert.deepEqual(records.map((r) => r.objectId), RETRANSLATED_OIDS);
    const times = records.map((r) => decodeTeledata(r)[0]!.timeMs);
    assert.deepEqual([times[0], times[9]], [Date.parse('2019-02-20T07:24:52Z'), Date.parse('2019-02-20T07:25:01Z')]);
  });

  it('reads DISPATCHER_IDENTITY from two sources, and AUTH_INFO as the encoder writes it', () => {
    const [traccar] = recordsOf(DISPATCHER_2219);
    assert.deepEqual([traccar!.serviceType, traccar!.objectId, traccar!.subrecords[0]!.type], [AUTH_SERVICE, null, SR_DISPATCHER_IDENTITY]);
    assert.deepEqual(decodeDispatcherIdentity(traccar!.subrecords[0]!.data), { dispatcherId: 2219 });
    assert.equal(NET_EGTS_DISPATCHER_2002[10], 155, 'header CRC as Net::EGTS reads it');
    assert.equal(NET_EGTS_DISPATCHER_2002.readUInt16LE(26), 7170, 'body CRC as Net::EGTS reads it');
    const [netEgts] = recordsOf(NET_EGTS_DISPATCHER_2002);
    assert.deepEqual(decodeDispatcherIdentity(netEgts!.subrecords[0]!.data), { dispatcherId: 2002 });
    assert.deepEqual(decodeAuthInfo(authInfo('dispatch', 's3cret-Pass')[1]), { userName: 'dispatch', password: 's3cret-Pass' });
    assert.deepEqual(decodeAuthInfo(Buffer.from('user\0pw\0seq\0', 'latin1')), { userName: 'user', password: 'pw' });
  });

  it('reads the record of a terminal whose OID is neither its TID nor its AUTH record\'s', () => {
    const [record] = recordsOf(POSITION_OF_OID_100723);
    assert.deepEqual([record!.number, record!.objectId], [3587, 100723]);
    assert.equal(decodeTeledata(record!)[0]!.timeMs, Date.parse('2018-04-17T06:49:28Z'));
  });
});
