/**
 * Frames as Teltonika and Wialon IPS trackers send them, written from the specifications (the
 * Teltonika wiki "Data Sending Protocols", Gurtam's "Wialon IPS" 1.1 and 2.0) independently of
 * src/devices, so that decoding tests check one reading of the documents against another. The
 * terminal simulator (scripts/terminal-simulator.ts) sends them too.
 */

/** CRC-16/IBM (ARC) with a 256-entry table, written apart from the server's (test/devices/crc.test.ts checks that one against the bitwise definition). */
const IBM_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  return c;
});
export function crc16Arc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = (crc >>> 8) ^ IBM_TABLE[(crc ^ byte) & 0xff]!;
  return crc;
}

// ---------------------------------------------------------------- Teltonika

export function teltonikaHandshake(imei: string): Buffer {
  const text = Buffer.from(imei, 'ascii');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length);
  return Buffer.concat([length, text]);
}

export interface TeltonikaRecordSpec {
  timeMs: number;
  latitude: number;
  longitude: number;
  altitude?: number;
  angle?: number;
  satellites?: number;
  speedKmh?: number;
  priority?: number;
  eventIoId?: number;
  /** IO id → [size in bytes (1, 2, 4, 8), value]. */
  io?: Record<number, [1 | 2 | 4 | 8, number]>;
  /** Codec 8 Extended only: variable-length elements. */
  nx?: Record<number, Buffer>;
}

/**
 * Appends `value` as `size` big-endian bytes (signed values in two's complement) to `bytes`. The
 * frames are built as plain byte lists and become one Buffer at the end: a Buffer per field
 * made the bench's 100,000-record bursts allocate gigabytes of small ArrayBuffers.
 */
function uint(bytes: number[], size: number, value: number | bigint): void {
  const at = bytes.length;
  if (typeof value === 'number' && (value >= 0 || size <= 4)) {
    let v = value < 0 ? value + 2 ** (size * 8) : value;
    for (let i = size - 1; i >= 0; i--) {
      bytes[at + i] = v % 256;
      v = Math.floor(v / 256);
    }
    return;
  }
  let v = BigInt.asUintN(size * 8, BigInt(value));
  for (let i = size - 1; i >= 0; i--) {
    bytes[at + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function teltonikaRecord(bytes: number[], spec: TeltonikaRecordSpec, extended: boolean): void {
  const idSize = extended ? 2 : 1;
  const entries = Object.entries(spec.io ?? {}).map(([id, [size, value]]) => ({ id: Number(id), size, value }));
  const nx = Object.entries(spec.nx ?? {});
  uint(bytes, 8, spec.timeMs);
  uint(bytes, 1, spec.priority ?? 0);
  // GPS element: longitude, latitude (signed, 1e-7 degrees), altitude, angle, satellites, speed.
  uint(bytes, 4, Math.round(spec.longitude * 1e7));
  uint(bytes, 4, Math.round(spec.latitude * 1e7));
  uint(bytes, 2, spec.altitude ?? 0);
  uint(bytes, 2, spec.angle ?? 0);
  uint(bytes, 1, spec.satellites ?? 0);
  uint(bytes, 2, spec.speedKmh ?? 0);
  uint(bytes, idSize, spec.eventIoId ?? 0);
  uint(bytes, idSize, entries.length + nx.length);
  for (const size of [1, 2, 4, 8]) {
    const group = entries.filter((e) => e.size === size);
    uint(bytes, idSize, group.length);
    for (const e of group) {
      uint(bytes, idSize, e.id);
      uint(bytes, size, e.value);
    }
  }
  if (extended) {
    uint(bytes, 2, nx.length);
    for (const [id, value] of nx) {
      uint(bytes, 2, Number(id));
      uint(bytes, 2, value.length);
      bytes.push(...value);
    }
  }
}

/** An AVL packet: preamble, data length, codec, count, records, count, CRC-16/IBM as 4 bytes. */
export function teltonikaPacket(records: TeltonikaRecordSpec[], codec: 0x08 | 0x8e = 0x08): Buffer {
  const data: number[] = [];
  uint(data, 1, codec);
  uint(data, 1, records.length);
  for (const r of records) teltonikaRecord(data, r, codec === 0x8e);
  uint(data, 1, records.length);
  const frame: number[] = [];
  uint(frame, 4, 0);
  uint(frame, 4, data.length);
  const crc: number[] = [];
  uint(crc, 4, crc16Arc(Uint8Array.from(data)));
  return Buffer.from([...frame, ...data, ...crc]);
}

// ---------------------------------------------------------------- Wialon IPS

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

/** `#TYPE#body\r\n`; in 2.0 the body gets `separator` and its CRC16 appended. */
export function wialonLine(type: string, body: string, version: '1.1' | '2.0' = '1.1', separator: ';' | '|' = ';'): string {
  if (version === '1.1') return `#${type}#${body}\r\n`;
  const signed = `${body}${separator}`;
  return `#${type}#${signed}${hex4(crc16Arc(Buffer.from(signed, 'utf8')))}\r\n`;
}

export function wialonLogin(imei: string, password = 'NA', version: '1.1' | '2.0' = '1.1'): string {
  return version === '1.1' ? wialonLine('L', `${imei};${password}`) : wialonLine('L', `2.0;${imei};${password}`, '2.0');
}

export interface WialonRecordSpec {
  timeMs: number | null;
  latitude: number | null;
  longitude: number | null;
  speedKmh?: number;
  course?: number;
  height?: number;
  sats?: number | null;
  hdop?: number;
  inputs?: number;
  outputs?: number;
  adc?: number[];
  ibutton?: string;
  /** name → [type 1 int, 2 double, 3 string, value]. */
  params?: Record<string, [1 | 2 | 3, string | number]>;
}

const two = (n: number) => String(n).padStart(2, '0');

function wialonCoordinate(value: number | null, degreeDigits: number, positive: string, negative: string): string {
  if (value === null) return 'NA;NA';
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = (abs - degrees) * 60;
  return `${String(degrees).padStart(degreeDigits, '0')}${minutes.toFixed(6).padStart(9, '0')};${value < 0 ? negative : positive}`;
}

/** The fields of an SD record (`short`) or a D record, without the packet type and CRC. */
export function wialonRecord(spec: WialonRecordSpec, short = false): string {
  const t = spec.timeMs === null ? null : new Date(spec.timeMs);
  const date = t ? `${two(t.getUTCDate())}${two(t.getUTCMonth() + 1)}${two(t.getUTCFullYear() % 100)}` : 'NA';
  const time = t ? `${two(t.getUTCHours())}${two(t.getUTCMinutes())}${two(t.getUTCSeconds())}` : 'NA';
  const na = (v: number | undefined | null) => (v === undefined || v === null ? 'NA' : String(v));
  const fields = [
    date,
    time,
    wialonCoordinate(spec.latitude, 2, 'N', 'S'),
    wialonCoordinate(spec.longitude, 3, 'E', 'W'),
    na(spec.speedKmh),
    na(spec.course),
    na(spec.height),
    na(spec.sats),
  ];
  if (short) return fields.join(';');
  const params = Object.entries(spec.params ?? {}).map(([name, [type, value]]) => `${name}:${type}:${value}`);
  fields.push(na(spec.hdop), na(spec.inputs), na(spec.outputs), spec.adc ? spec.adc.join(',') : 'NA', spec.ibutton ?? 'NA', params.length ? params.join(',') : 'NA');
  return fields.join(';');
}
