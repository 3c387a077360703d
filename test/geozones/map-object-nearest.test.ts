import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { haversineMetres } from '../../src/geo/geo.js';
import { seededRandom } from '../positioning/pipeline/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { MAP_OBJECTS } from './geozone-fixtures.js';

const RADIUS_M = 200;

// The map objects nearest to many points at once, as ingestion asks for the ends of the tracks of
// a group: each point gets the nearest of its own surroundings, never another point's or another
// account's object.
for (const dialect of dialects) {
  describe(`nearest map objects on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('names each point by its nearest object within 200 m, the same as measuring every object', async () => {
      const random = seededRandom(11);
      const objects = Array.from({ length: 120 }, (_, i) => ({ name: `Client ${i}`, latitude: 55.7 + random() * 0.05, longitude: 37.6 + random() * 0.08 }));
      for (const object of objects) assert.equal((await server.api.post(MAP_OBJECTS, object)).status, 201);
      // A stranger's object right on one of the points: never named for this account.
      const stranger = await server.newAccount();
      const points = Array.from({ length: 300 }, () => ({ latitude: 55.7 + random() * 0.05, longitude: 37.6 + random() * 0.08 }));
      points.push({ latitude: 55.69, longitude: 37.59 });
      assert.equal((await stranger.api.post(MAP_OBJECTS, { name: 'Stranger', latitude: 55.69, longitude: 37.59 })).status, 201);

      const names = await server.services.geozones.places.nearestNames(server.database.db, server.account.id, points, RADIUS_M);

      const expected = points.map(({ latitude, longitude }) => {
        const near = objects
          .map((o) => ({ name: o.name, metres: haversineMetres(latitude, longitude, o.latitude, o.longitude) }))
          .filter((o) => o.metres <= RADIUS_M)
          .sort((a, b) => a.metres - b.metres);
        return near[0]?.name ?? null;
      });
      assert.deepEqual(names, expected);
      assert.ok(expected.filter(Boolean).length >= 20, 'fixture: some points have an object near');
      assert.ok(expected.filter((n) => n === null).length >= 20, 'fixture: some points have none');
      assert.equal(names.at(-1), null, "another account's object is never named");
    });

    it('finds an object across the antimeridian, where 179.999° E meets 179.999° W', async () => {
      const { account, api } = await server.newAccount();
      // In Chukotka (65° N) a thousandth of a degree of longitude is about 47 m.
      assert.equal((await api.post(MAP_OBJECTS, { name: 'Depot West', latitude: 65.0, longitude: -179.9995 })).status, 201);
      assert.equal((await api.post(MAP_OBJECTS, { name: 'Depot East', latitude: 65.0, longitude: 179.998 })).status, 201);
      const points = [
        { latitude: 65.0, longitude: 179.9995 }, // 47 m from Depot West across the line, 70 m from Depot East
        { latitude: 65.0, longitude: -179.999 }, // 24 m from Depot West, 141 m from Depot East across the line
        { latitude: 65.0, longitude: 179.997 }, // 47 m from Depot East
      ];
      const names = await server.services.geozones.places.nearestNames(server.database.db, account.id, points, RADIUS_M);
      assert.deepEqual(names, ['Depot West', 'Depot West', 'Depot East']);
    });

    it('answers no points with no names, and an account without objects with nulls', async () => {
      const { account } = await server.newAccount();
      assert.deepEqual(await server.services.geozones.places.nearestNames(server.database.db, server.account.id, [], RADIUS_M), []);
      assert.deepEqual(await server.services.geozones.places.nearestNames(server.database.db, account.id, [{ latitude: 55.7, longitude: 37.6 }], RADIUS_M), [null]);
    });
  });
}
