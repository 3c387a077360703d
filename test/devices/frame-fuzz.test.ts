import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { egtsProtocol } from '../../src/devices/egts/egts-protocol.js';
import { teltonikaProtocol } from '../../src/devices/teltonika/teltonika-protocol.js';
import type { TcpDeviceProtocol } from '../../src/devices/device-protocol.js';
import type { TrackerConnection } from '../../src/devices/tracker-protocol.js';
import { wialonIpsProtocol } from '../../src/devices/wialon-ips/wialon-ips-protocol.js';
import { adSensorsData, countersData, egtsCrc16, egtsCrc8, egtsPacket, egtsRecord, extPosData, liquidLevel, posData, stateData, termIdentity } from '../../scripts/trackers/egts-encoder.js';
import { crc16Arc, teltonikaHandshake, teltonikaPacket, wialonLine, wialonLogin, wialonRecord } from '../../scripts/trackers/tracker-encoders.js';

const T0 = Date.parse('2024-05-20T10:00:00Z');
const ROUNDS = 400;

/** A seeded generator (mulberry32): the same mutations on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Flips, overwrites or drops a few bytes of `frame` between `from` and `to` (exclusive). */
function mutate(frame: Buffer, next: () => number, from: number, to: number): Buffer {
  const bytes = Buffer.from(frame);
  const changes = 1 + Math.floor(next() * 4);
  for (let i = 0; i < changes; i++) {
    const at = from + Math.floor(next() * (to - from));
    bytes[at] = next() < 0.5 ? bytes[at]! ^ (1 << Math.floor(next() * 8)) : Math.floor(next() * 256);
  }
  return bytes;
}

function connection(): TrackerConnection {
  let identified = false;
  return {
    get identified() {
      return identified;
    },
    identify: async () => (identified = true),
    login: async () => ((identified = true), 'accepted'),
    identifyRetranslator: async () => (identified = true),
    retranslating: false,
    findObject: async () => true,
    store: async () => {},
    send: () => {},
    now: () => T0,
    close: () => {},
    warn: () => {},
  };
}

/** Whatever the bytes, a frame is answered, refused or closed on: handling never throws. */
async function assertSurvives(protocol: TcpDeviceProtocol, login: Buffer | string, frames: Buffer[]): Promise<void> {
  for (const frame of frames) {
    const session = protocol.open(connection());
    await session.handle(Buffer.from(login));
    const length = protocol.frameLength(frame);
    if (length <= 0 || length > frame.length) continue; // the listener would wait or close
    await assert.doesNotReject(session.handle(frame.subarray(0, length)), `${protocol.name}: ${frame.toString('hex')}`);
  }
}

describe('frames mutated at random (seeded) never make a dialogue throw', () => {
  it('Teltonika, with the CRC recomputed so the body is decoded', async () => {
    const next = random(1);
    const valid = teltonikaPacket(
      [0, 1].map((i) => ({ timeMs: T0 + i, latitude: 1, longitude: 2, satellites: 5, io: { 239: [1, 1], 66: [2, 1], 16: [4, 9], 78: [8, 3] }, nx: { 300: Buffer.from('x') } })),
      0x8e,
    );
    const frames = Array.from({ length: ROUNDS }, () => {
      const bytes = mutate(valid, next, 8, valid.length - 4);
      bytes.writeUInt32BE(crc16Arc(bytes.subarray(8, bytes.length - 4)), bytes.length - 4);
      return bytes;
    });
    await assertSurvives(teltonikaProtocol, teltonikaHandshake('1'), frames);
  });

  it('EGTS, with both CRCs recomputed', async () => {
    const next = random(2);
    const record = egtsRecord({
      number: 1,
      serviceType: 2,
      objectId: 1,
      subrecords: [posData({ timeMs: T0, latitude: 1, longitude: 1, altitude: 3 }), extPosData(5, 100), adSensorsData({ 1: 1 }, 1, { 2: 5 }), countersData({ 3: 3 }), stateData(12, 4, 4), liquidLevel(1, 2, 5)],
    });
    const auth = egtsRecord({ number: 2, serviceType: 1, subrecords: [termIdentity(1, '123456789012345')] });
    const valid = egtsPacket(Buffer.concat([auth, record]), { packetId: 1 });
    const frames = Array.from({ length: ROUNDS }, () => {
      const bytes = mutate(valid, next, 11, valid.length - 2);
      bytes.writeUInt16LE(egtsCrc16(bytes.subarray(11, bytes.length - 2)), bytes.length - 2);
      bytes[10] = egtsCrc8(bytes.subarray(0, 10));
      return bytes;
    });
    await assertSurvives(egtsProtocol, egtsPacket(auth, { packetId: 0 }), frames);
  });

  it('Wialon IPS 1.1 lines with characters replaced', async () => {
    const next = random(3);
    const line = wialonLine('B', [wialonRecord({ timeMs: T0, latitude: 1, longitude: 1, adc: [1, 2], inputs: 3, params: { fuel: [2, 4.5], t: [3, 'x'] } }), wialonRecord({ timeMs: T0, latitude: 1, longitude: 1 }, true)].join('|'));
    const valid = Buffer.from(line);
    const frames = Array.from({ length: ROUNDS }, () => mutate(valid, next, 0, valid.length - 2));
    await assertSurvives(wialonIpsProtocol, wialonLogin('1'), frames);
  });
});
