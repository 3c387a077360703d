import type { Zone } from '../../types';
import { t } from '../../i18n/i18n';

export type Bounds = Zone['bounds'];

/** Six decimals of a degree are about 11 cm: finer than any zone outline needs. */
export function roundDegrees(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** A zone's outline as the textarea shows it: one `latitude, longitude` line per corner. */
export function formatCoordinates(bounds: Bounds): string {
  return bounds.map((p) => `${p.latitude}, ${p.longitude}`).join('\n');
}

/**
 * Reads `latitude, longitude` lines (a comma, semicolon or spaces between the two; blank lines
 * skipped). The outline needs 3 corners; repeating the first corner at the end is allowed, as the
 * server accepts a closed ring too.
 */
export function parseCoordinates(text: string): { bounds: Bounds } | { error: string } {
  const bounds: Bounds = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const parts = line.split(/\s*[,;]\s*|\s+/);
    const [latitude, longitude] = parts.map(Number);
    if (parts.length !== 2 || parts.includes('') || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
      return { error: t('zones.coordLine', { line: index + 1 }) };
    }
    if (Math.abs(latitude!) > 90) return { error: t('zones.latRange', { line: index + 1 }) };
    if (Math.abs(longitude!) > 180) return { error: t('zones.lonRange', { line: index + 1 }) };
    bounds.push({ latitude: latitude!, longitude: longitude! });
  }
  const first = bounds[0];
  const last = bounds[bounds.length - 1];
  const closed = bounds.length > 1 && first!.latitude === last!.latitude && first!.longitude === last!.longitude;
  if (bounds.length - (closed ? 1 : 0) < 3) return { error: t('zones.threeCorners') };
  return { bounds };
}
