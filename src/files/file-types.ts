/**
 * The types a form file may have, told by the file's first bytes (its magic number), never by
 * the name or the `Content-Type` the sender gave: a script renamed `photo.jpg` is refused.
 */
export const acceptedTypes = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type AcceptedType = (typeof acceptedTypes)[number];

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The type the bytes are, or null when they are none of the accepted ones. */
export function sniffType(bytes: Uint8Array): AcceptedType | null {
  // JPEG: SOI marker then the first segment's marker.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // WebP: a RIFF container whose form type is WEBP.
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  return null;
}

/** The extension a download is named with when the phone gave no name. */
export function extensionOf(type: AcceptedType): string {
  return { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'application/pdf': 'pdf' }[type];
}
