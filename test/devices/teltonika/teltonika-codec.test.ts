import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc16Ibm } from '../../../src/devices/crc.js';
import {
  decodeTeltonikaImei,
  decodeTeltonikaPacket,
  isTeltonikaHandshake,
  teltonikaAck,
  teltonikaCrcMatches,
  teltonikaFrameLength,
  TeltonikaFormatError,
} from '../../../src/devices/teltonika/teltonika-codec.js';
import { crc16Arc, teltonikaHandshake, teltonikaPacket, type TeltonikaRecordSpec } from '../../../scripts/trackers/tracker-encoders.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** The Teltonika wiki's "Codec 8" first example: one record, 2019-06-10T10:04:46Z, five IO elements. */
const WIKI_CODEC8 = hex('000000000000003608010000016B40D8EA30010000000000000000000000000000000105021503010101425E0F01F10000601A014E0000000000000000010000C7CF');
/** The wiki's second Codec 8 example: two records in one packet (a buffered batch). */
const WIKI_CODEC8_TWO = hex('000000000000004308020000016B40D57B480100000000000000000000000000000001010101000000000000016B40D5C198010000000000000000000000000000000101010101000000020000252C');
/** The wiki's "Codec 8 Extended" example: 2-byte IO ids and an NX group. */
const WIKI_CODEC8E = hex('000000000000004A8E010000016B412CEE000100000000000000000000000000000000010005000100010100010011001D00010010015E2C880002000B000000003544C87A000E000000001DD7E06A00000100002994');
/** From Traccar's TeltonikaProtocolDecoderTest: a real FMB record with a fix (ignition, voltage, odometer). */
const TRACCAR_FMB = hex('000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f88190bb8560bb802f100005aa110002887e000010000ee8d');

describe('Teltonika codecs', () => {
  it('reads the handshake of the wiki and of Traccar', () => {
    const handshake = hex('000F313233343536373839303132333435');
    assert.equal(teltonikaFrameLength(handshake), 17);
    assert.ok(isTeltonikaHandshake(handshake));
    assert.equal(decodeTeltonikaImei(handshake), '123456789012345');
    assert.deepEqual(teltonikaHandshake('356307042441013'), hex('000f333536333037303432343431303133'));
  });

  it('checks the CRC-16/IBM of the wiki examples, and the encoder computes the same', () => {
    for (const frame of [WIKI_CODEC8, WIKI_CODEC8_TWO, WIKI_CODEC8E, TRACCAR_FMB]) {
      assert.ok(teltonikaCrcMatches(frame));
      const data = frame.subarray(8, frame.length - 4);
      assert.equal(crc16Ibm(data), crc16Arc(data));
    }
    assert.equal(crc16Ibm(Buffer.from('123456789')), 0xbb3d); // the catalogue's check value of CRC-16/ARC
  });

  it('decodes the wiki Codec 8 example field by field', () => {
    assert.equal(teltonikaFrameLength(WIKI_CODEC8), WIKI_CODEC8.length);
    const packet = decodeTeltonikaPacket(WIKI_CODEC8);
    assert.equal(packet.codec, 0x08);
    assert.deepEqual(packet.records, [
      {
        timeMs: 0x16b40d8ea30,
        isValid: false,
        latitude: 0,
        longitude: 0,
        angle: 0,
        speedKmh: 0,
        readings: { io21: 3, io1: 1, io66: 0x5e0f, io241: 0x601a, io78: 0 },
      },
    ]);
    assert.equal(new Date(0x16b40d8ea30).toISOString(), '2019-06-10T10:04:46.000Z');
  });

  it('decodes both records of the wiki batch and the Codec 8 Extended example', () => {
    const batch = decodeTeltonikaPacket(WIKI_CODEC8_TWO);
    assert.deepEqual(batch.records.map((r) => [r.timeMs, r.readings]), [
      [0x16b40d57b48, { io1: 0 }],
      [0x16b40d5c198, { io1: 1 }],
    ]);
    const extended = decodeTeltonikaPacket(WIKI_CODEC8E);
    assert.equal(extended.codec, 0x8e);
    assert.deepEqual(extended.records[0]!.readings, { io1: 1, io17: 0x1d, io16: 0x15e2c88, io11: 0x3544c87a, io14: 0x1dd7e06a });
  });

  it('decodes a real FMB record with its position', () => {
    const [record] = decodeTeltonikaPacket(TRACCAR_FMB).records;
    assert.equal(record!.isValid, true);
    assert.equal(record!.latitude, 0x1cb3757a / 1e7);
    assert.equal(record!.longitude, 0x09c28d9f / 1e7);
    assert.equal(record!.speedKmh, 0x53);
    assert.equal(record!.angle, 0xc6);
    assert.deepEqual(record!.readings, {
      io240: 1, io21: 3, io200: 0, io1: 1, io29: 0, io252: 0,
      io66: 0x3799, io24: 0x53, io205: 0xf80d, io206: 0x426f, io67: 0x0f88, io25: 0x0bb8, io86: 0x0bb8,
      io241: 0x5aa1, io16: 0x2887e0,
    });
  });

  it('round-trips what the encoder writes, every IO size and NX in Codec 8 Extended', () => {
    const spec: TeltonikaRecordSpec = {
      timeMs: Date.UTC(2024, 4, 20, 10, 0, 0),
      latitude: -33.8688197,
      longitude: 151.2092955,
      angle: 271,
      satellites: 9,
      speedKmh: 87,
      io: { 239: [1, 1], 66: [2, 12_800], 16: [4, 123_456_789], 449: [8, 2 ** 40 + 7200], 300: [2, 5] },
      nx: { 385: Buffer.from('driver') },
    };
    const [record] = decodeTeltonikaPacket(teltonikaPacket([spec], 0x8e)).records;
    assert.deepEqual(record, {
      timeMs: spec.timeMs,
      isValid: true,
      latitude: spec.latitude,
      longitude: spec.longitude,
      angle: 271,
      speedKmh: 87,
      readings: { io239: 1, io66: 12_800, io16: 123_456_789, io449: 2 ** 40 + 7200, io300: 5 },
    });
    // Codec 8 has 1-byte ids (up to 255) and no NX group.
    const codec8 = decodeTeltonikaPacket(teltonikaPacket([{ ...spec, io: { 239: [1, 1], 66: [2, 12_800], 16: [4, 123_456_789], 78: [8, 7200] }, nx: {} }]));
    assert.deepEqual(codec8.records[0]!.readings, { io239: 1, io66: 12_800, io16: 123_456_789, io78: 7200 });
  });

  it('answers with the record count in 4 bytes', () => {
    assert.deepEqual(teltonikaAck(2), hex('00000002'));
  });

  it('finds frames in a stream: incomplete, exact, and refuses bytes that cannot start one', () => {
    assert.equal(teltonikaFrameLength(WIKI_CODEC8.subarray(0, 5)), 0);
    assert.equal(teltonikaFrameLength(WIKI_CODEC8.subarray(0, 20)), WIKI_CODEC8.length);
    assert.equal(teltonikaFrameLength(hex('01')), 0);
    assert.equal(teltonikaFrameLength(hex('0100')), -1); // a 256-byte "IMEI"
    assert.equal(teltonikaFrameLength(hex('0000000100000010')), -1); // no zero preamble
  });

  it('tells a bad CRC, and refuses unknown codecs and bodies that end inside a record', () => {
    const broken = Buffer.from(WIKI_CODEC8);
    broken[20] = broken[20]! ^ 0xff;
    assert.equal(teltonikaCrcMatches(broken), false);
    const codec12 = hex('000000000000000F0C010500000007676574696E666F0100004312');
    assert.throws(() => decodeTeltonikaPacket(codec12), TeltonikaFormatError);
    const truncated = teltonikaPacket([{ timeMs: 0, latitude: 0, longitude: 0 }]);
    truncated.writeUInt32BE(truncated.readUInt32BE(4) - 1, 4);
    assert.throws(() => decodeTeltonikaPacket(truncated), TeltonikaFormatError);
  });
});
