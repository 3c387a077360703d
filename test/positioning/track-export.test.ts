// Tracks as GPX and KML files: what a user downloads must open in other programs (well-formed XML,
// parsed here by a conforming parser), hold exactly the posted valid fixes of each track in UTC,
// and show nothing of another account.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { descendants, parseXml, type XmlElement } from '../helpers/xml.js';
import { writeGpx, writeKml } from '../../src/positioning/track-export.js';

const GPX = '{http://www.topografix.com/GPX/1/1}';
const KML = '{http://www.opengis.net/kml/2.2}';
const GX = '{http://www.google.com/kml/ext/2.2}';
const FILE = '/v6/api/globalPositioningManagement/trackFile';
const T0 = Date.parse('2026-05-20T06:00:00Z');
const MINUTE = 60_000;
/** A name with every character XML gives a meaning to. */
const NAME = `Tom & "Jerry" <van 7> O'Brien`;

interface Posted {
  subscriberID: number;
  locationDate: string;
  latitude: number;
  longitude: number;
  velocity: number;
  isValid?: boolean;
}

/** Ten-second fixes east along a parallel: `speedKmh` 0 stands still. */
function run(subscriberID: number, fromMs: number, minutes: number, startLon: number, speedKmh: number): Posted[] {
  const degPerFix = ((speedKmh / 3.6) * 10) / (111_320 * Math.cos((55.75 * Math.PI) / 180));
  return Array.from({ length: minutes * 6 }, (_, i) => ({
    subscriberID,
    locationDate: new Date(fromMs + i * 10_000).toISOString(),
    latitude: 55.75,
    longitude: Number((startLon + i * degPerFix).toFixed(7)),
    velocity: speedKmh,
  }));
}

const utc = (iso: string) => iso.replace('.000Z', 'Z');
const text = (element: XmlElement, name: string) => element.children.find((c) => c.name === name)?.text;

describe('track files: any name makes a well-formed file', () => {
  it('markup characters are escaped and characters XML forbids are left out', () => {
    const names = [NAME, ']]> <!-- & --> <![CDATA[', 'tab\there, bell\u0007 and \ufffe gone', 'Ёжик 🚚 “quoted”'];
    const file = { title: names.join(' / '), employees: names.map((name, i) => ({ subscriberID: i + 1, name, tracks: [[{ timeMs: 0, latitude: 1, longitude: 2 }, { timeMs: 1000, latitude: 1.5, longitude: 2.5 }]] })) };
    const expected = names.map((n) => n.replace('\u0007', '').replace('\ufffe', ''));
    const gpx = parseXml(writeGpx(file, 0));
    assert.deepEqual(descendants(gpx, `${GPX}trk`).map((trk) => text(trk, `${GPX}name`)), expected);
    assert.deepEqual(descendants(gpx, `${GPX}time`).slice(1, 3).map((t) => t.text), ['1970-01-01T00:00:00Z', '1970-01-01T00:00:01Z']);
    const kml = parseXml(writeKml(file));
    assert.deepEqual(descendants(kml, `${KML}Folder`).map((folder) => text(folder, `${KML}name`)), expected);
  });
});

for (const dialect of dialects) {
  describe(`track files (GPX, KML) on ${dialect}`, () => {
    let server: TestServer;
    let van: number;
    let fixes: Posted[];
    let tracks: any[];
    /** Each track's fixes as GET …/tracks/{id}/locations lists them. */
    let trackFixes: any[][];

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 3 * 3_600_000 });
      van = await createEmployee(server.api, { name: NAME });
      const first = run(van, T0, 10, 37.6, 60);
      const parked = run(van, T0 + 10 * MINUTE, 10, first.at(-1)!.longitude, 0);
      const second = run(van, T0 + 20 * MINUTE, 10, first.at(-1)!.longitude, 60);
      const tail = run(van, T0 + 30 * MINUTE, 10, second.at(-1)!.longitude, 0);
      // A fix the receiver marked invalid, in the middle of the first drive: no file has it.
      first[30] = { ...first[30]!, latitude: 10, longitude: 10, isValid: false };
      fixes = [...first, ...parked, ...second, ...tail];
      assert.equal((await server.api.post(LOCATIONS, fixes)).status, 201);
      tracks = (await server.api.get(`/v6/api/globalPositioningManagement/tracks?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59`)).body;
      trackFixes = await Promise.all(tracks.map(async (t) => (await server.api.get(`/v6/api/globalPositioningManagement/tracks/${t.trackID}/locations`)).body));
    });
    after(() => server.close());

    it('GPX 1.1: one trk named after the employee, one trkseg per track, each the track’s valid fixes in UTC', async () => {
      assert.equal(tracks.length, 2, JSON.stringify(tracks));
      const response = await server.api.get(`${FILE}?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59&format=gpx`);
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^application\/gpx\+xml/);
      assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="tracks-20260520-0000-20260520-2359\.gpx"$/);
      const gpx = parseXml(response.text);
      assert.equal(gpx.name, `${GPX}gpx`);
      assert.equal(gpx.attributes.version, '1.1');
      const trks = descendants(gpx, `${GPX}trk`);
      assert.equal(trks.length, 1);
      assert.equal(text(trks[0]!, `${GPX}name`), NAME, 'the name survives escaping');
      const segments = descendants(trks[0]!, `${GPX}trkseg`);
      assert.equal(segments.length, tracks.length);
      const posted = new Map(fixes.map((f) => [utc(f.locationDate), f]));
      segments.forEach((segment, i) => {
        const points = descendants(segment, `${GPX}trkpt`).map((p) => ({ time: text(p, `${GPX}time`)!, lat: Number(p.attributes.lat), lon: Number(p.attributes.lon) }));
        assert.equal(points.length, trackFixes[i]!.length);
        for (const point of points) {
          assert.match(point.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          const fix = posted.get(point.time);
          assert.ok(fix, `${point.time} was posted`);
          assert.notEqual(fix.isValid, false, 'no invalid fix');
          assert.deepEqual([point.lat, point.lon], [fix.latitude, fix.longitude]);
        }
        assert.equal(Date.parse(points[0]!.time), Date.parse(tracks[i].startDate));
        assert.equal(Date.parse(points.at(-1)!.time), Date.parse(tracks[i].finishDate));
      });
    });

    it('the period cuts the tracks: local times without an offset are the account’s zone', async () => {
      // 09:04 in Moscow is 06:04 UTC, four minutes into the first drive; 09:25 is in the second.
      const response = await server.api.get(`${FILE}?subscriberIDs=${van}&dateFrom=2026-05-20T09:04:00&dateTo=2026-05-20T09:25:00&format=gpx`);
      assert.equal(response.status, 200, response.text);
      const times = descendants(parseXml(response.text), `${GPX}trkseg`).map((s) => descendants(s, `${GPX}time`).map((t) => t.text));
      assert.equal(times.length, 2);
      assert.equal(times[0]![0], '2026-05-20T06:04:00Z');
      assert.equal(times[1]!.at(-1), '2026-05-20T06:25:00Z');
    });

    it('KML 2.2: a placemark per track with a gx:Track of the same fixes and a LineString', async () => {
      const response = await server.api.get(`${FILE}?subscriberIDs=${van}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59&format=kml`);
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^application\/vnd\.google-earth\.kml\+xml/);
      const kml = parseXml(response.text);
      assert.equal(kml.name, `${KML}kml`);
      const folder = descendants(kml, `${KML}Folder`);
      assert.equal(folder.length, 1);
      assert.equal(text(folder[0]!, `${KML}name`), NAME);
      const placemarks = descendants(kml, `${KML}Placemark`);
      assert.equal(placemarks.length, tracks.length);
      placemarks.forEach((placemark, i) => {
        const [track] = descendants(placemark, `${GX}Track`);
        assert.ok(track);
        const when = descendants(track, `${KML}when`).map((w) => w.text);
        const coords = descendants(track, `${GX}coord`).map((c) => c.text.split(' ').map(Number));
        assert.deepEqual(when, trackFixes[i]!.map((f: any) => new Date(f.locationDate).toISOString().replace('.000Z', 'Z')));
        assert.deepEqual(coords, trackFixes[i]!.map((f: any) => [f.longitude, f.latitude, 0]));
        const line = descendants(placemark, `${KML}coordinates`)[0]!.text.trim().split(' ');
        assert.equal(line.length, coords.length);
      });
    });

    it('another account’s employee is 404 code 12, alone or beside one of ours; a bad format or a long period is 400', async () => {
      const stranger = await server.newAccount('Europe/Moscow');
      const theirs = await createEmployee(stranger.api, { name: 'Not ours' });
      assert.equal((await stranger.api.post(LOCATIONS, run(theirs, T0, 10, 37.6, 60))).status, 201);
      for (const ids of [`${theirs}`, `${van},${theirs}`]) {
        const response = await server.api.get(`${FILE}?subscriberIDs=${ids}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59&format=gpx`);
        assert.equal(response.status, 404, response.text);
        assert.equal(JSON.parse(response.text).code, 12);
        assert.doesNotMatch(response.text, /Not ours/);
      }
      const own = await stranger.api.get(`${FILE}?subscriberIDs=${theirs}&dateFrom=2026-05-20T00:00:00&dateTo=2026-05-20T23:59:59&format=gpx`);
      assert.equal(own.status, 200);
      assert.equal(descendants(parseXml(own.text), `${GPX}trkpt`).length > 0, true);

      const badFormat = await server.api.get(`${FILE}?subscriberIDs=${van}&format=shp`);
      assert.equal(badFormat.status, 400);
      const long = await server.api.get(`${FILE}?subscriberIDs=${van}&dateFrom=2026-01-01T00:00:00&dateTo=2026-05-20T00:00:00&format=kml`);
      assert.equal(long.status, 400);
      assert.equal(JSON.parse(long.text).code, 2);
      assert.ok(JSON.parse(long.text).validationErrors.dateTo);
      const noToken = await server.api.withToken(null).get(`${FILE}?subscriberIDs=${van}&format=gpx`);
      assert.equal(noToken.status, 401);
    });
  });
}
