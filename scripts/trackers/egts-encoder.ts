/**
 * EGTS packets as a terminal sends them, written from GOST R 54619-2011 / GOST 33472-2015
 * independently of src/devices (tables for the CRCs, a byte writer instead of a reader), for the
 * tests and the terminal simulator (scripts/terminal-simulator.ts).
 */

const CRC8_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x31) & 0xff : (c << 1) & 0xff;
  return c;
});
const CRC16_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  return c;
});
export const egtsCrc8 = (bytes: Uint8Array) => bytes.reduce((crc, byte) => CRC8_TABLE[crc ^ byte]!, 0xff);
export const egtsCrc16 = (bytes: Uint8Array) => bytes.reduce((crc, byte) => ((crc << 8) & 0xffff) ^ CRC16_TABLE[(crc >> 8) ^ byte]!, 0xffff);

/** Little-endian fields, written in order. */
function le(...fields: [size: 1 | 2 | 3 | 4, value: number][]): Buffer {
  return Buffer.concat(
    fields.map(([size, value]) => {
      const bytes = Buffer.alloc(size);
      bytes.writeUIntLE(value, 0, size);
      return bytes;
    }),
  );
}

export interface EgtsPacketOptions {
  packetId: number;
  packetType?: number;
  /** Corrupts the header CRC or the body CRC. */
  breakHeaderCrc?: boolean;
  breakBodyCrc?: boolean;
}

/** The transport packet: 11-byte header with its CRC-8, the body and its CRC-16. */
export function egtsPacket(body: Buffer, options: EgtsPacketOptions): Buffer {
  const header = Buffer.concat([le([1, 1], [1, 0], [1, 0], [1, 11], [1, 0], [2, body.length], [2, options.packetId], [1, options.packetType ?? 1])]);
  const hcs = egtsCrc8(header) ^ (options.breakHeaderCrc ? 0xff : 0);
  const crc = egtsCrc16(body) ^ (options.breakBodyCrc ? 0xffff : 0);
  return Buffer.concat([header, le([1, hcs]), body, body.length ? le([2, crc]) : Buffer.alloc(0)]);
}

export interface EgtsRecordSpec {
  number: number;
  serviceType: number;
  objectId?: number;
  /** Record time (TM): seconds since 2010. */
  time?: number;
  subrecords: [type: number, data: Buffer][];
}

export function egtsRecord(spec: EgtsRecordSpec): Buffer {
  const data = Buffer.concat(spec.subrecords.flatMap(([type, body]) => [le([1, type], [2, body.length]), body]));
  const flags = (spec.objectId !== undefined ? 0x01 : 0) | (spec.time !== undefined ? 0x04 : 0) | 0x80; // SSOD: source on the terminal
  const optional = Buffer.concat([spec.objectId !== undefined ? le([4, spec.objectId]) : Buffer.alloc(0), spec.time !== undefined ? le([4, spec.time]) : Buffer.alloc(0)]);
  return Buffer.concat([le([2, data.length], [2, spec.number], [1, flags]), optional, le([1, spec.serviceType], [1, spec.serviceType]), data]);
}

export const EGTS_EPOCH_S = Date.UTC(2010, 0, 1) / 1000;

/** EGTS_SR_TERM_IDENTITY with the IMEI flag (and nothing else) when `imei` is given. */
export function termIdentity(terminalId: number, imei?: string): [number, Buffer] {
  return [1, Buffer.concat([le([4, terminalId], [1, imei ? 0x02 : 0]), imei ? Buffer.from(imei.padEnd(15, '\0'), 'latin1') : Buffer.alloc(0)])];
}

/** EGTS_SR_DISPATCHER_IDENTITY: DT (0), DID, then the description (DSCR). */
export function dispatcherIdentity(dispatcherId: number, description = ''): [number, Buffer] {
  return [5, Buffer.concat([le([1, 0], [4, dispatcherId]), Buffer.from(description, 'latin1')])];
}

/** EGTS_SR_AUTH_INFO: UNM and UPSW, each ended by a zero byte (no server sequence). */
export function authInfo(userName: string, password: string): [number, Buffer] {
  return [7, Buffer.concat([Buffer.from(`${userName}\0${password}\0`, 'latin1')])];
}

export interface PosDataSpec {
  timeMs: number;
  latitude: number;
  longitude: number;
  valid?: boolean;
  speedKmh?: number;
  angle?: number;
  odometerKm?: number;
  inputs?: number;
  altitude?: number;
}

export function posData(spec: PosDataSpec): [number, Buffer] {
  const flags = (spec.valid === false ? 0 : 0x01) | 0x02 | (spec.latitude < 0 ? 0x20 : 0) | (spec.longitude < 0 ? 0x40 : 0) | (spec.altitude !== undefined ? 0x80 : 0);
  const angle = spec.angle ?? 0;
  const speed = Math.round((spec.speedKmh ?? 0) * 10) | (angle > 255 ? 0x8000 : 0);
  return [
    16,
    Buffer.concat([
      le(
        [4, Math.round(spec.timeMs / 1000 - EGTS_EPOCH_S)],
        [4, Math.round((Math.abs(spec.latitude) / 90) * 0xffffffff)],
        [4, Math.round((Math.abs(spec.longitude) / 180) * 0xffffffff)],
        [1, flags],
        [2, speed],
        [1, angle & 0xff],
        [3, Math.round((spec.odometerKm ?? 0) * 10)],
        [1, spec.inputs ?? 0],
        [1, 0],
      ),
      spec.altitude !== undefined ? le([3, spec.altitude]) : Buffer.alloc(0),
    ]),
  ];
}

export function extPosData(satellites: number, hdopTimes100: number): [number, Buffer] {
  return [17, le([1, 0x02 | 0x08], [2, hdopTimes100], [1, satellites])];
}

/** Additional input octets by index (0–7) and analog inputs by number (1–8). */
export function adSensorsData(octets: Record<number, number>, outputs: number, analogs: Record<number, number>): [number, Buffer] {
  const octetMask = Object.keys(octets).reduce((m, k) => m | (1 << Number(k)), 0);
  const analogMask = Object.keys(analogs).reduce((m, k) => m | (1 << (Number(k) - 1)), 0);
  const octetBytes = Object.keys(octets).map(Number).sort((a, b) => a - b).map((k) => le([1, octets[k]!]));
  const analogBytes = Object.keys(analogs).map(Number).sort((a, b) => a - b).map((k) => le([3, analogs[k]!]));
  return [18, Buffer.concat([le([1, octetMask], [1, outputs], [1, analogMask]), ...octetBytes, ...analogBytes])];
}

export function countersData(counters: Record<number, number>): [number, Buffer] {
  const mask = Object.keys(counters).reduce((m, k) => m | (1 << (Number(k) - 1)), 0);
  return [19, Buffer.concat([le([1, mask]), ...Object.keys(counters).map(Number).sort((a, b) => a - b).map((k) => le([3, counters[k]!]))])];
}

/** Voltages in volts (sent in 0.1 V). */
export function stateData(mainVolts: number, backupVolts: number, internalVolts: number, type = 21): [number, Buffer] {
  return [type, le([1, 2], [1, Math.round(mainVolts * 10)], [1, Math.round(backupVolts * 10)], [1, Math.round(internalVolts * 10)], [1, 0])];
}

/** unit 0 uncalibrated, 1 percent, 2 litres (value in 0.1 l). */
export function liquidLevel(sensor: number, unit: 0 | 1 | 2, value: number, error = false): [number, Buffer] {
  return [27, le([1, (error ? 0x40 : 0) | (unit << 4) | (sensor & 0b111)], [2, 1], [4, value])];
}

/** The body of a PT_RESPONSE: RPID, PR, and the records. */
export function responseBody(answeredPacketId: number, result: number, records: Buffer[]): Buffer {
  return Buffer.concat([le([2, answeredPacketId], [1, result]), ...records]);
}

export interface ReadEgtsPacket {
  packetId: number;
  packetType: number;
  /** For PT_RESPONSE: the packet answered and its result. */
  response: { packetId: number; result: number } | null;
  records: { number: number; serviceType: number; subrecords: { type: number; data: Buffer }[] }[];
}

/** Reads a packet the server sent, checking both CRCs (throws when one is wrong). */
export function readEgtsPacket(frame: Buffer): ReadEgtsPacket {
  const headerLength = frame[3]!;
  if (egtsCrc8(frame.subarray(0, headerLength - 1)) !== frame[headerLength - 1]) throw new Error('header CRC');
  const bodyLength = frame.readUInt16LE(5);
  const body = frame.subarray(headerLength, headerLength + bodyLength);
  if (bodyLength && egtsCrc16(body) !== frame.readUInt16LE(headerLength + bodyLength)) throw new Error('body CRC');
  const packetType = frame[9]!;
  let at = 0;
  let response = null;
  if (packetType === 0) {
    response = { packetId: body.readUInt16LE(0), result: body[2]! };
    at = 3;
  }
  const records = [];
  while (at < body.length) {
    const length = body.readUInt16LE(at);
    const number = body.readUInt16LE(at + 2);
    const flags = body[at + 4]!;
    at += 5 + (flags & 1 ? 4 : 0) + (flags & 2 ? 4 : 0) + (flags & 4 ? 4 : 0);
    const serviceType = body[at]!;
    at += 2;
    const end = at + length;
    const subrecords = [];
    while (at < end) {
      const size = body.readUInt16LE(at + 1);
      subrecords.push({ type: body[at]!, data: body.subarray(at + 3, at + 3 + size) });
      at += 3 + size;
    }
    records.push({ number, serviceType, subrecords });
  }
  return { packetId: frame.readUInt16LE(7), packetType, response, records };
}
