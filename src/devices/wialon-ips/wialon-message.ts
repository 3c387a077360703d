import { crc16Ibm } from '../crc.js';
import type { TrackerRecord } from '../tracker-record.js';

/**
 * Wialon IPS messages (Gurtam's protocol, versions 1.1 and 2.0): text lines `#TYPE#body\r\n`.
 * Version 2.0 (announced in the login) ends L, SD, D and M bodies with `;CRC16` and black boxes
 * with `|CRC16`: CRC-16/IBM, in hex, of the body up to and including that last separator.
 */

export interface WialonMessage {
  type: string;
  body: string;
}

/** A black box larger than this is not a tracker's buffer. */
export const WIALON_MAX_LINE_BYTES = 256 * 1024;

export function wialonFrameLength(buffer: Buffer): number {
  const end = buffer.indexOf(0x0a);
  return end < 0 ? 0 : end + 1;
}

export function parseWialonLine(line: string): WialonMessage | null {
  const match = /^#([A-Z]{1,3})#(.*)$/s.exec(line);
  return match ? { type: match[1]!, body: match[2]! } : null;
}

/** The body without its trailing checksum, or null when the checksum is missing or wrong. */
export function checkedWialonBody(body: string, separator: ';' | '|'): string | null {
  const at = body.lastIndexOf(separator);
  if (at < 0) return null;
  const crcText = body.slice(at + 1);
  if (!/^(0x)?[0-9a-f]{1,4}$/i.test(crcText)) return null;
  const payload = body.slice(0, at + 1);
  return parseInt(crcText.replace(/^0x/i, ''), 16) === crc16Ibm(Buffer.from(payload, 'utf8')) ? payload.slice(0, -1) : null;
}

export interface WialonLogin {
  version: '1.1' | '2.0';
  imei: string;
  password: string;
}

/** `imei;password` (1.1) or `2.0;imei;password;crc` (2.0); null when malformed, 'crc' when the checksum fails. */
export function parseWialonLogin(body: string): WialonLogin | 'crc' | null {
  const fields = body.split(';');
  if (fields.length >= 3 && fields[0]!.includes('.')) {
    const checked = checkedWialonBody(body, ';');
    if (checked === null) return 'crc';
    const [, imei = '', password = ''] = checked.split(';');
    return imei ? { version: '2.0', imei, password } : null;
  }
  if (fields.length !== 2 || !fields[0]) return null;
  return { version: '1.1', imei: fields[0], password: fields[1]! };
}

/**
 * The answer codes of #ASD# / #AD#: -1 structure, 0 time, 10 coordinates, 11 speed, course or
 * height, 12 satellites or HDOP, 13 inputs or outputs, 14 ADC, 15 parameters.
 */
export type WialonDataError = -1 | 0 | 10 | 11 | 12 | 13 | 14 | 15;

/** A record without coordinates (all NA) is accepted but carries no position: `record` is null. */
export type WialonParsed = { record: TrackerRecord | null } | { error: WialonDataError };

const SHORT_FIELDS = 10;
const FULL_FIELDS = 16;
const isNA = (field: string) => field === 'NA' || field === '';

/** One SD (10 fields) or D (16 fields) record; `kind` null accepts either (black boxes mix them). */
export function parseWialonRecord(body: string, kind: 'SD' | 'D' | null, nowMs: number): WialonParsed {
  const f = body.split(';');
  const expected = kind === 'SD' ? [SHORT_FIELDS] : kind === 'D' ? [FULL_FIELDS] : [SHORT_FIELDS, FULL_FIELDS];
  if (!expected.includes(f.length)) return { error: -1 };
  const timeMs = parseTime(f[0]!, f[1]!, nowMs);
  if (timeMs === null) return { error: 0 };
  const latitude = parseCoordinate(f[2]!, f[3]!, 'N', 'S', 90);
  const longitude = parseCoordinate(f[4]!, f[5]!, 'E', 'W', 180);
  if (latitude === undefined || longitude === undefined) return { error: 10 };
  const [speed, course, height] = [f[6]!, f[7]!, f[8]!].map(parseNumber);
  if (speed === undefined || course === undefined || height === undefined) return { error: 11 };
  const sats = parseNumber(f[9]!);
  if (sats === undefined) return { error: 12 };
  const readings: Record<string, number> = {};
  if (sats !== null) readings.sats = sats;
  if (f.length === FULL_FIELDS) {
    const problem = parseExtended(f, readings);
    if (problem !== null) return { error: problem };
  }
  if (latitude === null || longitude === null) return { record: null };
  // Without a satellite count the tracker vouches for the fix by sending coordinates.
  const isValid = sats === null || sats >= 3;
  return { record: { timeMs, isValid, latitude, longitude, angle: course ?? 0, speedKmh: speed ?? 0, readings } };
}

/** hdop; inputs; outputs; adc; ibutton; params — into `readings`; the error code, or null. */
function parseExtended(f: string[], readings: Record<string, number>): WialonDataError | null {
  if (parseNumber(f[10]!) === undefined) return 12;
  for (const [field, prefix] of [[f[11]!, 'in'], [f[12]!, 'out']] as const) {
    if (isNA(field)) continue;
    if (!/^\d+$/.test(field)) return 13;
    const bits = Number(field);
    for (let bit = 0; bit < 32; bit++) readings[`${prefix}${bit + 1}`] = Math.floor(bits / 2 ** bit) % 2;
  }
  if (!isNA(f[13]!)) {
    const values = f[13]!.split(',').map(parseNumber);
    if (values.some((value) => value === undefined || value === null)) return 14;
    values.forEach((value, i) => (readings[`adc${i + 1}`] = value!));
  }
  if (!isNA(f[15]!)) {
    for (const param of f[15]!.split(',')) {
      const match = /^([^:]+):([123]):(.*)$/s.exec(param);
      if (!match) return 15;
      const value = parseParamValue(match[2]!, match[3]!);
      if (value !== null) readings[match[1]!] = value;
    }
  }
  return null;
}

/** Type 1 integer, 2 real, 3 text: text counts only when it is a number or true/false. */
function parseParamValue(type: string, text: string): number | null {
  if (type === '3') {
    if (/^true$/i.test(text)) return 1;
    if (/^false$/i.test(text)) return 0;
  }
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) ? value : null;
}

/** A number, null for NA, undefined when unreadable. */
function parseNumber(field: string): number | null | undefined {
  if (isNA(field)) return null;
  const value = Number(field);
  return Number.isFinite(value) ? value : undefined;
}

/** DDMMYY and HHMMSS[.fraction] in UTC; both NA is "now" (the specification's rule). */
function parseTime(date: string, time: string, nowMs: number): number | null {
  if (date === 'NA' && time === 'NA') return nowMs;
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(date);
  const t = /^(\d\d)(\d\d)(\d\d)(\.\d+)?$/.exec(time);
  if (!d || !t) return null;
  const [day, month, year] = [Number(d[1]), Number(d[2]), 2000 + Number(d[3])];
  const [hours, minutes, seconds] = [Number(t[1]), Number(t[2]), Number(t[3])];
  const ms = Date.UTC(year, month - 1, day, hours, minutes, seconds) + Math.round(Number(t[4] ?? 0) * 1000);
  const check = new Date(ms);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hours > 23 || minutes > 59 || seconds > 59) return null;
  return ms;
}

/** (D)DDMM.MMMM with its hemisphere letter; null for NA, undefined when unreadable. */
function parseCoordinate(value: string, hemisphere: string, positive: string, negative: string, limit: number): number | null | undefined {
  if (isNA(value) && isNA(hemisphere)) return null;
  if (!/^\d+(\.\d+)?$/.test(value) || (hemisphere !== positive && hemisphere !== negative)) return undefined;
  const raw = Number(value);
  const degrees = Math.floor(raw / 100);
  const minutes = raw - degrees * 100;
  const coordinate = degrees + minutes / 60;
  if (minutes >= 60 || coordinate > limit) return undefined;
  return hemisphere === negative ? -coordinate : coordinate;
}
