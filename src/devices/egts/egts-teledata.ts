import { ByteReader } from '../byte-reader.js';
import type { EgtsRecord } from './egts-records.js';
import type { TrackerRecord } from '../tracker-record.js';

/**
 * The subrecords of EGTS_AUTH_SERVICE's identity and EGTS_TELEDATA_SERVICE that carry positions
 * and readings (GOST R 54619 annex / order 285), decoded into a TrackerRecord. Reading names:
 * `odometer` (km), `in1`…`in8` (POS_DATA digital inputs), `in9`…`in72` (AD_SENSORS additional input
 * octets), `out1`…`out8`, `adc1`…`adc8`, `cnt1`…`cnt8`, `lls<n>` (litres), `lls<n>_percent`,
 * `mpsv` / `bbv` / `ibv` (main, backup, internal supply in volts), `sats`, `hdop`.
 */

export const SR_POS_DATA = 16;
export const SR_EXT_POS_DATA = 17;
export const SR_AD_SENSORS_DATA = 18;
export const SR_COUNTERS_DATA = 19;
/** The standard's ACCEL_DATA; several terminals (and Traccar) send STATE_DATA under it. */
export const SR_STATE_DATA_LEGACY = 20;
export const SR_STATE_DATA = 21;
export const SR_LIQUID_LEVEL_SENSOR = 27;

/** NTM counts seconds from 2010-01-01T00:00:00Z. */
export const EGTS_EPOCH_MS = Date.UTC(2010, 0, 1);

export interface TermIdentity {
  terminalId: number;
  /** Null when the flag is off or the field is all zeros. */
  imei: string | null;
}

/** EGTS_SR_TERM_IDENTITY: TID, flags, then the optional fields the flags announce, in this order. */
export function decodeTermIdentity(data: Buffer): TermIdentity {
  const reader = new ByteReader(data);
  const terminalId = reader.u32le();
  const flags = reader.u8();
  if (flags & 0x01) reader.skip(2); // HDID
  let imei: string | null = null;
  if (flags & 0x02) {
    const text = reader.bytesOf(15).toString('latin1').replace(/\0/g, '').trim();
    imei = /^0*$/.test(text) ? null : text;
  }
  return { terminalId, imei };
}

const bit = (value: number, n: number) => (value >> n) & 1;

/**
 * A teledata record as its positions, one per POS_DATA (a terminal sends a record of dozens, each
 * with its own NTM), in order, appended to `positions` (the packet's, on the tracker thread: no
 * array per record). The other subrecords' readings go to the position before them: a terminal
 * writes a fix's sensors after its POS_DATA; those before the first go to the first.
 */
export function decodeTeledata(record: EgtsRecord, positions: TrackerRecord[] = []): TrackerRecord[] {
  const first = positions.length;
  let readings: Record<string, number> = {};
  for (const { type, data } of record.subrecords) {
    if (type === SR_POS_DATA) {
      // Readings read before the first POS_DATA stay with it; each later POS_DATA starts afresh.
      if (positions.length > first) readings = {};
      positions.push(decodePosData(data, readings));
    } else if (type === SR_EXT_POS_DATA) decodeExtPosData(data, readings);
    else if (type === SR_AD_SENSORS_DATA) decodeAdSensors(data, readings);
    else if (type === SR_COUNTERS_DATA) decodeCounters(data, readings);
    else if (type === SR_STATE_DATA || (type === SR_STATE_DATA_LEGACY && data.length === 5)) decodeStateData(data, readings);
    else if (type === SR_LIQUID_LEVEL_SENSOR) decodeLiquidLevel(data, readings);
  }
  return positions;
}

/** EGTS_SR_POS_DATA: NTM, LAT, LONG (modulus over 90 / 180 × 0xFFFFFFFF), FLG, SPD, DIR, ODM, DIN, SRC, [ALT]. */
function decodePosData(data: Buffer, readings: Record<string, number>): TrackerRecord {
  const reader = new ByteReader(data);
  const timeMs = EGTS_EPOCH_MS + reader.u32le() * 1000;
  const latitude = (reader.u32le() * 90) / 0xffffffff;
  const longitude = (reader.u32le() * 180) / 0xffffffff;
  const flags = reader.u8();
  const speed = reader.u16le();
  const direction = reader.u8();
  readings.odometer = reader.u24le() / 10; // 0.1 km
  const inputs = reader.u8();
  for (let n = 0; n < 8; n++) readings[`in${n + 1}`] = bit(inputs, n);
  return {
    timeMs,
    isValid: bit(flags, 0) === 1, // VLD
    latitude: bit(flags, 5) ? -latitude : latitude, // LAHS: south
    longitude: bit(flags, 6) ? -longitude : longitude, // LOHS: west
    angle: direction + (bit(speed, 15) << 8), // DIRH is the direction's ninth bit
    speedKmh: (speed & 0x3fff) / 10, // 0.1 km/h in the low 14 bits
    readings,
  };
}

/** EGTS_SR_EXT_POS_DATA: VDOP, HDOP, PDOP (× 100), satellites, navigation systems, each if flagged. */
function decodeExtPosData(data: Buffer, readings: Record<string, number>): void {
  const reader = new ByteReader(data);
  const flags = reader.u8();
  if (bit(flags, 0)) reader.skip(2);
  if (bit(flags, 1)) readings.hdop = reader.u16le() / 100;
  if (bit(flags, 2)) reader.skip(2);
  if (bit(flags, 3)) readings.sats = reader.u8();
}

/** EGTS_SR_AD_SENSORS_DATA: DIOE, DOUT, ASFE, the flagged additional input octets, the flagged 3-byte analog values. */
function decodeAdSensors(data: Buffer, readings: Record<string, number>): void {
  const reader = new ByteReader(data);
  const inputOctets = reader.u8();
  const outputs = reader.u8();
  const analogs = reader.u8();
  for (let n = 0; n < 8; n++) readings[`out${n + 1}`] = bit(outputs, n);
  for (let octet = 0; octet < 8; octet++) {
    if (!bit(inputOctets, octet)) continue;
    const value = reader.u8();
    for (let n = 0; n < 8; n++) readings[`in${9 + octet * 8 + n}`] = bit(value, n);
  }
  for (let n = 0; n < 8; n++) if (bit(analogs, n)) readings[`adc${n + 1}`] = reader.u24le();
}

/** EGTS_SR_COUNTERS_DATA: CFE, then the flagged 3-byte counters. */
function decodeCounters(data: Buffer, readings: Record<string, number>): void {
  const reader = new ByteReader(data);
  const present = reader.u8();
  for (let n = 0; n < 8; n++) if (bit(present, n)) readings[`cnt${n + 1}`] = reader.u24le();
}

/** EGTS_SR_STATE_DATA: ST, MPSV, BBV, IBV (0.1 V each), flags. */
function decodeStateData(data: Buffer, readings: Record<string, number>): void {
  const reader = new ByteReader(data);
  reader.u8(); // ST
  readings.mpsv = reader.u8() / 10;
  readings.bbv = reader.u8() / 10;
  readings.ibv = reader.u8() / 10;
}

/**
 * EGTS_SR_LIQUID_LEVEL_SENSOR: flags (LLSN bits 0–2, RDF bit 3, LLSVU bits 4–5, LLSEF bit 6),
 * MADDR, LLSD. Units: 0 uncalibrated, 1 percent, 2 litres in 0.1 l. Errors and raw data are skipped.
 */
function decodeLiquidLevel(data: Buffer, readings: Record<string, number>): void {
  const reader = new ByteReader(data);
  const flags = reader.u8();
  reader.u16le(); // MADDR
  if (bit(flags, 6) || bit(flags, 3)) return;
  const sensor = flags & 0b111;
  const value = reader.u32le();
  const unit = (flags >> 4) & 0b11;
  if (unit === 2) readings[`lls${sensor}`] = value / 10;
  else if (unit === 1) readings[`lls${sensor}_percent`] = value;
  else readings[`lls${sensor}_raw`] = value;
}
