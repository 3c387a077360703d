import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc16Ccitt, crc16Ibm, crc8Egts } from '../../src/devices/crc.js';
import { seededRandom } from '../positioning/pipeline/fixtures.js';

// The three checksums exactly as their documents define them, a bit at a time: the server's
// table-driven ones must give the same for every byte value and any length of input.
function crc8Bits(bytes: Uint8Array): number {
  let crc = 0xff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16CcittBits(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function crc16IbmBits(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const CHECKSUMS = [
  ['CRC-8/EGTS', crc8Egts, crc8Bits],
  ['CRC-16/CCITT-FALSE', crc16Ccitt, crc16CcittBits],
  ['CRC-16/IBM', crc16Ibm, crc16IbmBits],
] as const;

describe('tracker checksums', () => {
  it('give the catalogue check values of "123456789"', () => {
    const check = Buffer.from('123456789');
    assert.equal(crc8Egts(check), 0xf7); // CRC-8/NRSC-5: polynomial 0x31, initial 0xFF
    assert.equal(crc16Ccitt(check), 0x29b1);
    assert.equal(crc16Ibm(check), 0xbb3d); // CRC-16/ARC
  });

  it('agree with the bitwise definitions for every byte value, after any prefix', () => {
    const random = seededRandom(14);
    for (const [name, table, bits] of CHECKSUMS) {
      for (let byte = 0; byte < 256; byte++) {
        const prefix = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * 256));
        const bytes = Uint8Array.from([...prefix, byte]);
        assert.equal(table(bytes), bits(bytes), `${name} of ${Buffer.from(bytes).toString('hex')}`);
      }
    }
  });

  it('agree with the bitwise definitions on seeded random inputs of 0 to 2,000 bytes', () => {
    const random = seededRandom(33472);
    for (let run = 0; run < 200; run++) {
      const bytes = Uint8Array.from({ length: Math.floor(random() * 2000) }, () => Math.floor(random() * 256));
      for (const [name, table, bits] of CHECKSUMS) assert.equal(table(bytes), bits(bytes), `${name}, run ${run}`);
    }
  });
});
