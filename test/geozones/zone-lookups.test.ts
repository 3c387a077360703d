import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertError, countryOutlines, createGroup, createZone, LOOKUP, MAP_OBJECTS, square, ZONES, zonesAt } from './geozone-fixtures.js';

/** A U: two arms joined at the bottom, the notch between them open at the top. */
const U: [number, number][] = [[0, 0], [6, 0], [6, 6], [4, 6], [4, 2], [2, 2], [2, 6], [0, 6]];

for (const dialect of dialects) {
  describe(`zone lookups on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('finds a square by a point inside, on an edge or on a vertex, and not by one just outside', async () => {
      const id = await createZone(server.api, 'Square', square(10, 50, 1));
      const inside = [[50.5, 10.5], [50, 10.5], [51, 10.3], [50.2, 10], [50.7, 11], [50, 10], [51, 11], [50, 11], [51, 10]];
      for (const [lat, lon] of inside) assert.deepEqual(await zonesAt(server.api, lat!, lon!), [id], `${lat}, ${lon}`);
      // Within the boundary tolerance (1e-9°, about 0.1 mm) still counts as on the edge.
      assert.deepEqual(await zonesAt(server.api, 50.5, 11 + 5e-10), [id]);
      for (const [lat, lon] of [[50.5, 11.000001], [49.999999, 10.5], [51.000001, 11.000001], [50.5, 9.9], [0, 0]]) {
        assert.deepEqual(await zonesAt(server.api, lat!, lon!), [], `${lat}, ${lon}`);
      }
      const body = (await server.api.get(`${LOOKUP}?latitude=50.5&longitude=10.5`)).body;
      assert.deepEqual(body, { zones: [{ zoneID: id, name: 'Square', zoneGroupID: null }] }, 'exactly the shape of interface 2.6');
    });

    it('treats a point on a slanted edge as inside, in binary-exact and in decimal coordinates', async () => {
      const exact = await createZone(server.api, 'Exact triangle', [[-20, -20], [-16, -18], [-20, -16]]);
      assert.deepEqual(await zonesAt(server.api, -19, -18), [exact], 'midpoint of the lower slanted edge');
      const decimal = await createZone(server.api, 'Decimal triangle', [[37.1, 55.1], [37.3, 55.5], [37.1, 55.9]]);
      assert.deepEqual(await zonesAt(server.api, 55.3, 37.2), [decimal]);
      assert.deepEqual(await zonesAt(server.api, 55.7, 37.2), [decimal]);
      assert.deepEqual(await zonesAt(server.api, 55.3, 37.2001), []);
    });

    it('follows a concave outline: the notch of a U is outside, its rim and arms inside', async () => {
      const lon0 = -100;
      const lat0 = 30;
      const id = await createZone(server.api, 'U', U.map(([x, y]) => [lon0 + x, lat0 + y]));
      const at = (x: number, y: number) => zonesAt(server.api, lat0 + y, lon0 + x);
      for (const [x, y] of [[1, 5], [5, 5], [3, 1], [3, 2], [4, 4], [2, 6], [4, 6], [0, 3], [6, 0]]) assert.deepEqual(await at(x!, y!), [id], `${x},${y}`);
      for (const [x, y] of [[3, 5], [3, 2.5], [3, 6], [3, 7], [-1, 1], [7, 1]]) assert.deepEqual(await at(x!, y!), [], `${x},${y}`);
    });

    it('answers only enabled zones, every zone containing the point, ordered by zoneID', async () => {
      const a = await createZone(server.api, 'Outer', square(120, -30, 10));
      const b = await createZone(server.api, 'Inner', square(122, -28, 2));
      const c = await createZone(server.api, 'Disabled', square(121, -29, 5), { enabled: false });
      await createZone(server.api, 'Empty', []);
      assert.deepEqual(await zonesAt(server.api, -27, 123), [a, b]);
      assert.equal((await server.api.patch(`${ZONES}/${c}`, { enabled: true })).status, 204);
      assert.deepEqual(await zonesAt(server.api, -27, 123), [a, b, c]);
      await server.api.patch(`${ZONES}/${a}`, { enabled: false });
      assert.deepEqual(await zonesAt(server.api, -27, 123), [b, c]);
    });

    it('finds the zones of a map object (route 10), restricted to a group when one is given', async () => {
      const depots = await createGroup(server.api, 'Depots');
      const districts = await createGroup(server.api, 'Districts');
      const depot = await createZone(server.api, 'Depot', square(140, 40, 1), { zoneGroupID: depots });
      const district = await createZone(server.api, 'District', square(139, 39, 5), { zoneGroupID: districts });
      const object = (await server.api.post(MAP_OBJECTS, { name: 'Gate', latitude: 40.5, longitude: 140.5 })).body.mapObjectID;
      const all = await server.api.get(`${LOOKUP}?mapObjectID=${object}`);
      assert.deepEqual(all.body, {
        zones: [
          { zoneID: depot, name: 'Depot', zoneGroupID: depots },
          { zoneID: district, name: 'District', zoneGroupID: districts },
        ],
      });
      const inGroup = await server.api.get(`${LOOKUP}?mapObjectID=${object}&zoneGroupID=${districts}`);
      assert.deepEqual(inGroup.body.zones.map((z: any) => z.zoneID), [district]);
      // The object moves: the next lookup follows it.
      await server.api.patch(`${MAP_OBJECTS}/${object}`, { latitude: 43.5 });
      assert.deepEqual((await server.api.get(`${LOOKUP}?mapObjectID=${object}`)).body.zones.map((z: any) => z.zoneID), [district]);
      assert.deepEqual(await zonesAt(server.api, 40.5, 140.5, `&zoneGroupID=${depots}`), [depot], 'the group also narrows a point lookup');

      assertError(await server.api.get(`${LOOKUP}?mapObjectID=987654`), 404, 1005, 'unknown map object');
      assertError(await server.api.get(`${LOOKUP}?mapObjectID=${object}&zoneGroupID=987654`), 404, 1004, 'unknown group');
      const stranger = await server.newAccount();
      assertError(await stranger.api.get(`${LOOKUP}?mapObjectID=${object}`), 404, 1005, 'a stranger’s map object');
      assertError(await stranger.api.get(`${LOOKUP}?latitude=1&longitude=1&zoneGroupID=${depots}`), 404, 1004, 'a stranger’s group');
    });

    it('needs one complete pair of parameters (code 52) and valid values (code 2)', async () => {
      for (const query of ['', '?latitude=10', '?longitude=10', '?zoneGroupID=1', '?latitude=10&zoneGroupID=1']) {
        assertError(await server.api.get(`${LOOKUP}${query}`), 400, 52, `query "${query}"`);
      }
      assertError(await server.api.get(`${LOOKUP}?mapObjectID=1&latitude=1&longitude=1`), 400, 2, 'both kinds');
      const bad = [
        'latitude=abc&longitude=1', 'latitude=90.5&longitude=1', 'latitude=-91&longitude=1', 'latitude=1&longitude=180.01',
        'latitude=1&longitude=-1e400', 'latitude=NaN&longitude=1', 'latitude=1&longitude=Infinity', 'latitude=&longitude=',
        'mapObjectID=0', 'mapObjectID=1.5', 'mapObjectID=abc', "mapObjectID=1'%20OR%20'1'='1", 'latitude=1&longitude=1&zoneGroupID=-4',
        'latitude=1&latitude=2&longitude=1',
      ];
      for (const query of bad) assertError(await server.api.get(`${LOOKUP}?${query}`), 400, 2, query);
      assertError(await server.api.post(LOOKUP, {}), 405, 1009, 'POST');
    });

    it('handles the poles (planar in longitude/latitude) and zones split at the antimeridian', async () => {
      const north = await createZone(server.api, 'Arctic cap', [[-180, 89], [180, 89], [180, 90], [-180, 90]]);
      const south = await createZone(server.api, 'Antarctic cap', [[-180, -90], [180, -90], [180, -89], [-180, -89]]);
      for (const lon of [-180, -45.5, 0, 179.99, 180]) {
        assert.deepEqual(await zonesAt(server.api, 90, lon), [north], `north pole at ${lon}`);
        assert.deepEqual(await zonesAt(server.api, 89.5, lon), [north]);
        assert.deepEqual(await zonesAt(server.api, -90, lon), [south], `south pole at ${lon}`);
      }
      assert.deepEqual(await zonesAt(server.api, 88.99, 0), []);
      // Fiji straddles 180°: given as two zones (RFC 7946 §3.1.9), one on each side.
      const east = await createZone(server.api, 'Fiji east of 180', [[177, -19], [180, -19], [180, -16], [177, -16]]);
      const west = await createZone(server.api, 'Fiji west of 180', [[-180, -19], [-178, -19], [-178, -16], [-180, -16]]);
      assert.deepEqual(await zonesAt(server.api, -17.5, 178.4), [east]);
      assert.deepEqual(await zonesAt(server.api, -17.5, -179.2), [west]);
      assert.deepEqual(await zonesAt(server.api, -17.5, 180), [east, west], '180 and -180 are one meridian');
      assert.deepEqual(await zonesAt(server.api, -17.5, -180), [east, west]);
      assert.deepEqual(await zonesAt(server.api, -17.5, 0), []);
    });

    it('finds real country outlines of thousands of vertices (Natural Earth 1:10m) by their cities', async () => {
      const { api } = await server.newAccount();
      const outlines = countryOutlines();
      // Natural Earth's Antarctica runs from -180° to 180° along the coast and closes along -84.35°;
      // in the plane of longitude/latitude it must be closed through the pole to contain it.
      const antarctica = outlines.get('Antarctica')!;
      const [, seamLatitude] = antarctica[0]!;
      outlines.set('Antarctica', [...antarctica.slice(0, -1), [180, seamLatitude], [180, -90], [-180, -90]]);
      const ids = new Map<string, number>();
      for (const country of ['Italy', 'Switzerland', 'Norway', 'Chile', 'France', 'Lesotho', 'South Africa', 'Antarctica']) {
        const ring = outlines.get(country)!;
        assert.ok(ring.length > 300, `${country} has ${ring.length} vertices`);
        ids.set(country, await createZone(api, country, ring));
      }
      const cities: [string, number, number, string[]][] = [
        ['Rome', 41.9028, 12.4964, ['Italy']],
        ['Milan', 45.4642, 9.19, ['Italy']],
        ['Lugano', 46.0037, 8.9511, ['Switzerland']],
        ['Bern', 46.948, 7.4474, ['Switzerland']],
        ['Lillehammer', 61.1153, 10.4662, ['Norway']],
        ['Santiago', -33.4489, -70.6693, ['Chile']],
        ['Mendoza', -32.8895, -68.8458, []],
        ['Paris', 48.8566, 2.3522, ['France']],
        ['Geneva is Swiss, not French', 46.2044, 6.1432, ['Switzerland']],
        // Lesotho is an enclave: without holes, South Africa's outer ring contains it too.
        ['Maseru', -29.31, 27.48, ['Lesotho', 'South Africa']],
        ['Johannesburg', -26.2041, 28.0473, ['South Africa']],
        ['the South Pole', -90, 0, ['Antarctica']],
        ['Vostok station', -78.4645, 106.8339, ['Antarctica']],
        ['Stockholm', 59.3293, 18.0686, []],
      ];
      for (const [city, lat, lon, countries] of cities) {
        const expected = countries.map((c) => ids.get(c)!).sort((a, b) => a - b);
        assert.deepEqual(await zonesAt(api, lat, lon), expected, city);
      }
    });
  });
}
