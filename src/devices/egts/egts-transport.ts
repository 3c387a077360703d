import { crc16Ccitt, crc8Egts } from '../crc.js';

/**
 * The EGTS transport layer (GOST R 54619-2011 / GOST 33472-2015, the protocol of Ministry of
 * Transport order 285). A packet: PRV (1 = version), SKID, flags (PRF, RTE, ENA, CMP, PR), HL
 * (header length, 11, or 16 with routing), HE, FDL (body length), PID, PT, [routing], HCS (CRC-8 of
 * the header); then the body (SFRD) and its CRC-16. Multi-byte fields are little-endian.
 */

export const PT_RESPONSE = 0;
export const PT_APPDATA = 1;
export const PT_SIGNED_APPDATA = 2;

/** Processing results (EGTS_PC_*) this server answers with. */
export const EGTS_PC = {
  OK: 0,
  UNS_PROTOCOL: 128,
  DECRYPT_ERROR: 129,
  INC_HEADERFORM: 131,
  INC_DATAFORM: 132,
  HEADERCRC_ERROR: 137,
  DATACRC_ERROR: 138,
  OBJ_NFOUND: 146,
  AUTH_DENIED: 151,
} as const;

const HEADER_LENGTH = 11;
const ROUTED_HEADER_LENGTH = 16;

export function egtsFrameLength(buffer: Buffer): number {
  if (buffer.length === 0) return 0;
  if (buffer[0] !== 0x01) return -1;
  if (buffer.length < 7) return 0;
  const headerLength = buffer[3]!;
  if (headerLength !== HEADER_LENGTH && headerLength !== ROUTED_HEADER_LENGTH) return -1;
  const bodyLength = buffer.readUInt16LE(5);
  return headerLength + bodyLength + (bodyLength > 0 ? 2 : 0);
}

export interface EgtsPacket {
  packetId: number;
  packetType: number;
  /** The service frame data: for PT_RESPONSE it starts with RPID and PR. */
  body: Buffer;
}

/** A whole frame checked: the packet, or the result code to answer when it cannot be used. */
export function parseEgtsPacket(frame: Buffer): { packet: EgtsPacket } | { error: number; packetId: number } {
  const headerLength = frame[3]!;
  const packetId = frame.readUInt16LE(7);
  if (crc8Egts(frame.subarray(0, headerLength - 1)) !== frame[headerLength - 1]) return { error: EGTS_PC.HEADERCRC_ERROR, packetId };
  const flags = frame[2]!;
  if (flags >> 6 !== 0 || frame[4] !== 0) return { error: EGTS_PC.UNS_PROTOCOL, packetId };
  // Encryption (ENA) and compression (CMP) are for links between platforms, not terminals.
  if ((flags >> 3) & 0b11 || (flags >> 2) & 1) return { error: EGTS_PC.DECRYPT_ERROR, packetId };
  const bodyLength = frame.readUInt16LE(5);
  const body = frame.subarray(headerLength, headerLength + bodyLength);
  if (bodyLength > 0 && crc16Ccitt(body) !== frame.readUInt16LE(headerLength + bodyLength)) return { error: EGTS_PC.DATACRC_ERROR, packetId };
  return { packet: { packetId, packetType: frame[9]!, body } };
}

/** A packet from this server: no routing, no encryption. */
export function buildEgtsPacket(packetId: number, packetType: number, body: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_LENGTH);
  header[0] = 0x01; // PRV
  header[3] = HEADER_LENGTH;
  header.writeUInt16LE(body.length, 5);
  header.writeUInt16LE(packetId & 0xffff, 7);
  header[9] = packetType;
  header[10] = crc8Egts(header.subarray(0, HEADER_LENGTH - 1));
  if (body.length === 0) return header;
  const crc = Buffer.alloc(2);
  crc.writeUInt16LE(crc16Ccitt(body));
  return Buffer.concat([header, body, crc]);
}

/** PT_RESPONSE: the packet id answered (RPID), its processing result (PR), then record confirmations. */
export function buildEgtsResponse(packetId: number, answeredPacketId: number, result: number, records: Buffer[]): Buffer {
  const head = Buffer.alloc(3);
  head.writeUInt16LE(answeredPacketId & 0xffff, 0);
  head[2] = result;
  return buildEgtsPacket(packetId, PT_RESPONSE, Buffer.concat([head, ...records]));
}
