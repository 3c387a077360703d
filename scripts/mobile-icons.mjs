// Draws the employee's app icons (web/public/m/icon-192.png, icon-512.png): a white map pin on
// the app's blue, the same picture as icon.svg, as PNG for the phones that want one.
// Run: node scripts/mobile-icons.mjs
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const BLUE = [0x1f, 0x5f, 0xbf];
const WHITE = [0xff, 0xff, 0xff];

/** The pin in a 0..1 square: a circle with a hole, above a point. */
function colourAt(x, y) {
  const [cx, cy, r] = [0.5, 0.42, 0.22];
  const d = Math.hypot(x - cx, y - cy);
  if (d < r * 0.45) return BLUE;
  if (d < r) return WHITE;
  // The point: a triangle from the circle's sides down to (0.5, 0.82).
  const top = cy + r * 0.55;
  if (y > top && y < 0.82) {
    const half = (r * 0.85 * (0.82 - y)) / (0.82 - top);
    if (Math.abs(x - cx) < half) return WHITE;
  }
  return BLUE;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function png(size) {
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y += 1) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      const [r, g, b] = colourAt((x + 0.5) / size, (y + 0.5) / size);
      rows.set([r, g, b], row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const dir = join(import.meta.dirname, '..', 'web', 'public', 'm');
for (const size of [192, 512]) writeFileSync(join(dir, `icon-${size}.png`), png(size));
