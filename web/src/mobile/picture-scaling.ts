/** The longest side of a picture sent from the phone: enough to read a label or a signature. */
export const PICTURE_LONGEST_SIDE_PX = 1600;
const JPEG_QUALITY = 0.8;

/**
 * A camera's picture made small on the phone before it is queued: drawn on a canvas whose
 * longest side is at most 1600 px and saved as JPEG, a few hundred kilobytes instead of several
 * megabytes on a mobile network.
 */
export async function downscalePicture(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, PICTURE_LONGEST_SIDE_PX / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  // JPEG has no transparency: a transparent PNG's background turns white, not black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the picture could not be encoded'))), 'image/jpeg', JPEG_QUALITY));
}
