/**
 * The checksums the tracker protocols use. Each is defined bit by bit, as its specification gives
 * it (`…Bits` below), and computed a byte at a time from a table of that definition's results for
 * the 256 values of a byte (the usual table-driven form). Bit by bit, the Teltonika CRC was a third
 * of the tracker thread's time in a burst of buffered records (bench:trackers).
 */

/** One byte's eight steps of CRC-8/EGTS (GOST 33472: polynomial 0x31, not reflected). */
function crc8EgtsBits(crc: number): number {
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  return crc;
}

/** One byte's eight steps of CRC-16/CCITT-FALSE (polynomial 0x1021, not reflected), the byte in the high half. */
function crc16CcittBits(crc: number): number {
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
}

/** One byte's eight steps of CRC-16/IBM (polynomial 0x8005 reflected as 0xA001), the byte in the low half. */
function crc16IbmBits(crc: number): number {
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  return crc;
}

const CRC8_EGTS = Uint8Array.from({ length: 256 }, (_, byte) => crc8EgtsBits(byte));
const CRC16_CCITT = Uint16Array.from({ length: 256 }, (_, byte) => crc16CcittBits(byte << 8));
const CRC16_IBM = Uint16Array.from({ length: 256 }, (_, byte) => crc16IbmBits(byte));

/** CRC-8 of an EGTS transport header (GOST 33472: polynomial 0x31, initial 0xFF, not reflected). */
export function crc8Egts(bytes: Uint8Array): number {
  let crc = 0xff;
  for (let i = 0; i < bytes.length; i++) crc = CRC8_EGTS[crc ^ bytes[i]!]!;
  return crc;
}

/** CRC-16/CCITT-FALSE of an EGTS frame body (polynomial 0x1021, initial 0xFFFF, not reflected). */
export function crc16Ccitt(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) & 0xffff) ^ CRC16_CCITT[(crc >>> 8) ^ bytes[i]!]!;
  return crc;
}

/**
 * CRC-16/IBM, also called ARC (polynomial 0x8005 reflected as 0xA001, initial 0): Teltonika's AVL
 * packets and Wialon IPS 2.0 messages.
 */
export function crc16Ibm(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = (crc >>> 8) ^ CRC16_IBM[(crc ^ bytes[i]!) & 0xff]!;
  return crc;
}
