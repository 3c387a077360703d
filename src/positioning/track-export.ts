/**
 * Tracks as files other programs open: GPX 1.1 (navigators, JOSM, Strava) and KML 2.2 (Google
 * Earth). Pure: the caller reads the fixes; these only write text.
 */

export type TrackFileFormat = 'gpx' | 'kml';

export interface ExportedFix {
  timeMs: number;
  latitude: number;
  longitude: number;
}

/** One employee's tracks in the period, each a run of valid fixes, oldest first. */
export interface ExportedEmployee {
  subscriberID: number;
  name: string;
  tracks: ExportedFix[][];
}

export interface TrackFile {
  /** What the file is of: shown as its title by the programs that open it. */
  title: string;
  employees: ExportedEmployee[];
}

export const TRACK_FILE_TYPES: Record<TrackFileFormat, string> = {
  gpx: 'application/gpx+xml; charset=utf-8',
  kml: 'application/vnd.google-earth.kml+xml; charset=utf-8',
};

/** Text and attribute values: the five characters XML gives meaning to, and the control characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return [...text]
    .filter(allowedInXml)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** XML 1.0's Char: tab, line feed, carriage return, and from space up, less U+FFFE and U+FFFF. */
function allowedInXml(character: string): boolean {
  const code = character.codePointAt(0)!;
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);
}

/** UTC with a `Z`: what both formats' `dateTime` readers expect, whatever the account's zone. */
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Seven decimals: about a centimetre, more than any fix has. */
const degrees = (value: number) => String(Math.round(value * 1e7) / 1e7);

/** GPX 1.1: one `trk` per employee, one `trkseg` per track. */
export function writeGpx(file: TrackFile, nowMs: number): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Lokator" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    `  <metadata><name>${escapeXml(file.title)}</name><time>${utc(nowMs)}</time></metadata>`,
  ];
  for (const employee of file.employees) {
    lines.push('  <trk>', `    <name>${escapeXml(employee.name)}</name>`);
    for (const track of employee.tracks) {
      lines.push('    <trkseg>');
      for (const fix of track) lines.push(`      <trkpt lat="${degrees(fix.latitude)}" lon="${degrees(fix.longitude)}"><time>${utc(fix.timeMs)}</time></trkpt>`);
      lines.push('    </trkseg>');
    }
    lines.push('  </trk>');
  }
  lines.push('</gpx>', '');
  return lines.join('\n');
}

/** KML 2.2: a folder per employee, a placemark per track holding a `gx:Track` (times) and a `LineString` (for readers without the extension). */
export function writeKml(file: TrackFile): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">',
    '  <Document>',
    `    <name>${escapeXml(file.title)}</name>`,
    '    <Style id="track"><LineStyle><color>ffbf5f1f</color><width>4</width></LineStyle></Style>',
  ];
  for (const employee of file.employees) {
    lines.push('    <Folder>', `      <name>${escapeXml(employee.name)}</name>`);
    employee.tracks.forEach((track, i) => {
      const first = track[0];
      const last = track.at(-1);
      if (!first || !last) return;
      lines.push(
        '      <Placemark>',
        `        <name>${escapeXml(`${employee.name} ${i + 1}`)}</name>`,
        `        <TimeSpan><begin>${utc(first.timeMs)}</begin><end>${utc(last.timeMs)}</end></TimeSpan>`,
        '        <styleUrl>#track</styleUrl>',
        '        <MultiGeometry>',
        '          <gx:Track>',
        ...track.map((fix) => `            <when>${utc(fix.timeMs)}</when>`),
        ...track.map((fix) => `            <gx:coord>${degrees(fix.longitude)} ${degrees(fix.latitude)} 0</gx:coord>`),
        '          </gx:Track>',
        `          <LineString><tessellate>1</tessellate><coordinates>${track.map((fix) => `${degrees(fix.longitude)},${degrees(fix.latitude)},0`).join(' ')}</coordinates></LineString>`,
        '        </MultiGeometry>',
        '      </Placemark>',
      );
    });
    lines.push('    </Folder>');
  }
  lines.push('  </Document>', '</kml>', '');
  return lines.join('\n');
}
