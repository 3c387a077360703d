import { ByteReader, TruncatedFrameError } from '../byte-reader.js';
import { crc16Ibm } from '../crc.js';
import type { TrackerRecord } from '../tracker-record.js';

/**
 * Teltonika's TCP framing and its AVL data codecs 8 (0x08) and 8 Extended (0x8E), as the
 * "Teltonika Data Sending Protocols" (Codec) page of the Teltonika wiki defines them:
 * - handshake: 2-byte length + the IMEI in ASCII; answered 0x01 (accept) or 0x00 (refuse);
 * - AVL packet: 4 zero bytes, 4-byte data length, codec id, record count, records, the count again,
 *   4-byte CRC-16/IBM of codec id .. second count; answered with the accepted count as 4 bytes.
 * All numbers are big-endian.
 */

export const CODEC_8 = 0x08;
export const CODEC_8_EXTENDED = 0x8e;

export class TeltonikaFormatError extends Error {}

/** The handshake is 2 + 15 bytes; a length beyond this is not an IMEI. */
const MAX_IMEI_LENGTH = 64;

export function teltonikaFrameLength(buffer: Buffer): number {
  if (buffer.length < 2) return 0;
  const imeiLength = buffer.readUInt16BE(0);
  if (imeiLength > 0) {
    if (imeiLength > MAX_IMEI_LENGTH) return -1;
    return buffer.length >= 2 + imeiLength ? 2 + imeiLength : 0;
  }
  if (buffer.length < 8) return 0;
  if (buffer.readUInt32BE(0) !== 0) return -1;
  return 8 + buffer.readUInt32BE(4) + 4;
}

export function isTeltonikaHandshake(frame: Buffer): boolean {
  return frame.readUInt16BE(0) > 0;
}

export function decodeTeltonikaImei(frame: Buffer): string {
  return frame.subarray(2).toString('latin1').trim();
}

export interface TeltonikaPacket {
  codec: number;
  records: TrackerRecord[];
}

export function teltonikaCrcMatches(frame: Buffer): boolean {
  const dataLength = frame.readUInt32BE(4);
  return crc16Ibm(frame.subarray(8, 8 + dataLength)) === frame.readUInt32BE(8 + dataLength);
}

/** A whole AVL packet whose CRC matched; throws TeltonikaFormatError for an unknown codec or a malformed body. */
export function decodeTeltonikaPacket(frame: Buffer): TeltonikaPacket {
  const dataLength = frame.readUInt32BE(4);
  if (dataLength < 3) throw new TeltonikaFormatError('the AVL packet is too short');
  const reader = new ByteReader(frame.subarray(8, 8 + dataLength));
  const codec = reader.u8();
  if (codec !== CODEC_8 && codec !== CODEC_8_EXTENDED) throw new TeltonikaFormatError(`codec 0x${codec.toString(16)} is not supported`);
  try {
    const count = reader.u8();
    const records: TrackerRecord[] = [];
    for (let i = 0; i < count; i++) records.push(decodeRecord(reader, codec === CODEC_8_EXTENDED));
    if (reader.u8() !== count) throw new TeltonikaFormatError('the two record counts differ');
    if (reader.remaining() !== 0) throw new TeltonikaFormatError('bytes left after the records');
    return { codec, records };
  } catch (error) {
    if (error instanceof TruncatedFrameError) throw new TeltonikaFormatError('the AVL packet ends inside a record');
    throw error;
  }
}

/** The server's answer: how many records it accepted (0 makes the tracker send the packet again). */
export function teltonikaAck(count: number): Buffer {
  const answer = Buffer.alloc(4);
  answer.writeUInt32BE(count);
  return answer;
}

/** The IO elements' value sizes, in the order a record lists them. */
const IO_SIZES = [1, 2, 4, 8] as const;

/** An IO element's id or count: two bytes in Codec 8 Extended, one in Codec 8. */
const ioId = (reader: ByteReader, extended: boolean) => (extended ? reader.u16be() : reader.u8());

/**
 * The readings' key of an IO element (`io239`), made once per id: a record's decoding allocated
 * a new string for each (with the BigInt of its time, a closure and an array, most of what a
 * burst left for the tracker thread's collector).
 */
const IO_KEYS: string[] = [];
const ioKey = (id: number) => (IO_KEYS[id] ??= `io${id}`);

function decodeRecord(reader: ByteReader, extended: boolean): TrackerRecord {
  const timeMs = reader.unsignedBe(8);
  reader.u8(); // priority
  const longitude = reader.i32be() / 1e7;
  const latitude = reader.i32be() / 1e7;
  reader.u16be(); // altitude
  const angle = reader.u16be();
  const satellites = reader.u8();
  const speedKmh = reader.u16be();
  const readings: Record<string, number> = {};
  ioId(reader, extended); // the IO element that caused the record
  ioId(reader, extended); // total number of IO elements
  for (const size of IO_SIZES) {
    const n = ioId(reader, extended);
    for (let i = 0; i < n; i++) readings[ioKey(ioId(reader, extended))] = reader.unsignedBe(size);
  }
  if (extended) {
    // Variable-length elements (NX) carry text and blobs, not readings.
    const n = reader.u16be();
    for (let i = 0; i < n; i++) {
      reader.u16be();
      reader.skip(reader.u16be());
    }
  }
  // The wiki: without a fix, coordinates are the last valid ones and satellites, angle, speed are 0.
  return { timeMs, isValid: satellites > 0, latitude, longitude, angle, speedKmh, readings };
}
