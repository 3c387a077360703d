/** Thrown when a frame's body ends before a field it announces: the frame is malformed. */
export class TruncatedFrameError extends Error {}

/**
 * Reads fields one after the other from a binary frame, refusing to read past its end (a length
 * a tracker announces is never trusted). EGTS is little-endian, Teltonika big-endian.
 */
export class ByteReader {
  private offset = 0;

  constructor(private readonly bytes: Buffer) {}

  remaining(): number {
    return this.bytes.length - this.offset;
  }

  private take(size: number): number {
    if (size < 0 || this.offset + size > this.bytes.length) throw new TruncatedFrameError('the frame ends inside a field');
    const at = this.offset;
    this.offset += size;
    return at;
  }

  bytesOf(size: number): Buffer {
    const at = this.take(size);
    return this.bytes.subarray(at, at + size);
  }
  skip(size: number): void {
    this.take(size);
  }
  u8(): number {
    return this.bytes.readUInt8(this.take(1));
  }
  u16le(): number {
    return this.bytes.readUInt16LE(this.take(2));
  }
  u24le(): number {
    return this.bytes.readUIntLE(this.take(3), 3);
  }
  u32le(): number {
    return this.bytes.readUInt32LE(this.take(4));
  }
  u16be(): number {
    return this.bytes.readUInt16BE(this.take(2));
  }
  i32be(): number {
    return this.bytes.readInt32BE(this.take(4));
  }
  /** Big-endian unsigned of 1, 2, 4 or 8 bytes; 8-byte values beyond 2^53 lose precision (none is a reading). */
  unsignedBe(size: 1 | 2 | 4 | 8): number {
    const at = this.take(size);
    // Two halves rather than a BigInt: the same number (rounded once, in the sum), without a heap object per field.
    if (size === 8) return this.bytes.readUInt32BE(at) * 2 ** 32 + this.bytes.readUInt32BE(at + 4);
    return this.bytes.readUIntBE(at, size);
  }
}
