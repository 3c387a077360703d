import { ByteReader } from '../byte-reader.js';

/**
 * EGTS service data records (SDR) and their subrecords. A record: RL (data length), RN (number),
 * RFL (flags: OBFE bit 0 object id, EVFE bit 1 event id, TMFE bit 2 time), [OID], [EVID], [TM],
 * SST (source service), RST (recipient service), then RL bytes of subrecords: SRT (type), SRL
 * (length), data.
 */

export const AUTH_SERVICE = 1;
export const TELEDATA_SERVICE = 2;

export const SR_RECORD_RESPONSE = 0;
export const SR_TERM_IDENTITY = 1;
export const SR_DISPATCHER_IDENTITY = 5;
export const SR_AUTH_PARAMS = 6;
export const SR_AUTH_INFO = 7;
export const SR_RESULT_CODE = 9;

export interface EgtsSubrecord {
  type: number;
  data: Buffer;
}

export interface EgtsRecord {
  number: number;
  /** OID: the terminal's object id, when the record carries it. */
  objectId: number | null;
  serviceType: number;
  subrecords: EgtsSubrecord[];
}

/** The records of a packet body (after RPID and PR in a response, after the signature in a signed packet). */
export function parseEgtsRecords(data: Buffer): EgtsRecord[] {
  const reader = new ByteReader(data);
  const records: EgtsRecord[] = [];
  while (reader.remaining() > 0) {
    const length = reader.u16le();
    const number = reader.u16le();
    const flags = reader.u8();
    const objectId = flags & 0b001 ? reader.u32le() : null;
    if (flags & 0b010) reader.skip(4); // EVID
    if (flags & 0b100) reader.skip(4); // TM
    const serviceType = reader.u8();
    reader.u8(); // RST
    records.push({ number, objectId, serviceType, subrecords: parseSubrecords(reader.bytesOf(length)) });
  }
  return records;
}

function parseSubrecords(data: Buffer): EgtsSubrecord[] {
  const reader = new ByteReader(data);
  const subrecords: EgtsSubrecord[] = [];
  while (reader.remaining() > 0) {
    const type = reader.u8();
    subrecords.push({ type, data: reader.bytesOf(reader.u16le()) });
  }
  return subrecords;
}

/** A record from this server (no object id, event or time fields). */
export function buildEgtsRecord(number: number, serviceType: number, subrecords: EgtsSubrecord[]): Buffer {
  const data = Buffer.concat(
    subrecords.flatMap(({ type, data }) => {
      const head = Buffer.alloc(3);
      head[0] = type;
      head.writeUInt16LE(data.length, 1);
      return [head, data];
    }),
  );
  const head = Buffer.alloc(7);
  head.writeUInt16LE(data.length, 0);
  head.writeUInt16LE(number & 0xffff, 2);
  head[4] = 0; // RFL
  head[5] = serviceType;
  head[6] = serviceType;
  return Buffer.concat([head, data]);
}

/** EGTS_SR_RECORD_RESPONSE: CRN (the record confirmed) and RST (its processing result). */
export function recordResponse(confirmedNumber: number, status: number): EgtsSubrecord {
  const data = Buffer.alloc(3);
  data.writeUInt16LE(confirmedNumber & 0xffff, 0);
  data[2] = status;
  return { type: SR_RECORD_RESPONSE, data };
}
