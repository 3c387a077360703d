/**
 * The checksums the tracker protocols use, bit by bit as their specifications define them
 * (no lookup tables: frames are small and this keeps each algorithm readable).
 */

/** CRC-8 of an EGTS transport header (GOST 33472: polynomial 0x31, initial 0xFF, not reflected). */
export function crc8Egts(bytes: Uint8Array): number {
  let crc = 0xff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** CRC-16/CCITT-FALSE of an EGTS frame body (polynomial 0x1021, initial 0xFFFF, not reflected). */
export function crc16Ccitt(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * CRC-16/IBM, also called ARC (polynomial 0x8005 reflected as 0xA001, initial 0): Teltonika's AVL
 * packets and Wialon IPS 2.0 messages.
 */
export function crc16Ibm(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}
