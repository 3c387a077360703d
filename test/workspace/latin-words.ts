/**
 * Words in Latin letters that may stand in the Russian workspace: abbreviations and names Russian
 * writes in Latin letters too, units of code, and the name of the English language in its switch.
 */
export const LATIN_ALLOWED = new Set([
  'API', 'CSV', 'GPX', 'KML', 'Esc', 'POST', 'XLSX', 'URL', 'IMEI', 'GPS', 'JSON', 'HTTP', 'HTTPS', 'SMTP', 'ID', 'IP', 'QR', 'UTC', 'GMT', 'base64', 'Ctrl', 'C', 'Lokator',
  'OsmAnd', 'Traccar', 'EGTS', 'Wialon', 'IPS', 'Teltonika', 'Codec8', 'Telegram', 'English', 'Excel', 'OpenStreetMap', 'Leaflet', 'README',
]);

/** The Latin words of `text` that are not allowed in Russian; IANA zone names (Europe/Moscow) are data and pass. */
export function latinWords(text: string): string[] {
  const withoutZones = text
    .replace(/https?:\/\/\S*/g, ' ')
    .replace(/\b[A-Z][A-Za-z_]+\/[A-Za-z_/+-]+/g, ' ')
    // Product names and the server's settings, written as they are.
    .replace(/Traccar Client|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, ' ');
  return [...withoutZones.matchAll(/[A-Za-z][A-Za-z0-9]*/g)].map((m) => m[0]).filter((word) => !LATIN_ALLOWED.has(word));
}
