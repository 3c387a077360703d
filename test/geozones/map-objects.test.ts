import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertError, MAP_OBJECTS } from './geozone-fixtures.js';

for (const dialect of dialects) {
  describe(`map objects on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('creates with defaults (201 + Location), reads, lists, replaces (204) and patches only present fields (204)', async () => {
      const r = await server.api.post(MAP_OBJECTS, { name: 'Client office', latitude: 55.7558, longitude: 37.6173 });
      assert.equal(r.status, 201);
      const id = r.body.mapObjectID;
      assert.equal(r.headers.get('location'), `${MAP_OBJECTS}/${id}`);
      assert.deepEqual(r.body, { mapObjectID: id, name: 'Client office', address: '', latitude: 55.7558, longitude: 37.6173, externalID: null, comment: '', mapObjectGroupID: null });
      assert.deepEqual((await server.api.get(`${MAP_OBJECTS}/${id}`)).body, r.body);

      const full = { name: 'Склад', address: 'ул. Ленина, 1', latitude: -33.45, longitude: -70.66, externalID: 'EXT-1', comment: 'gate 3', mapObjectGroupID: 3 };
      const put = await server.api.put(`${MAP_OBJECTS}/${id}`, full);
      assert.equal(put.status, 204);
      assert.equal(put.text, '');
      assert.deepEqual((await server.api.get(`${MAP_OBJECTS}/${id}`)).body, { mapObjectID: id, ...full });
      assert.equal((await server.api.put(`${MAP_OBJECTS}/${id}`, { name: 'N', latitude: 1, longitude: 2 })).status, 204);
      assert.deepEqual((await server.api.get(`${MAP_OBJECTS}/${id}`)).body, { mapObjectID: id, name: 'N', address: '', latitude: 1, longitude: 2, externalID: null, comment: '', mapObjectGroupID: null });

      assert.equal((await server.api.patch(`${MAP_OBJECTS}/${id}`, { comment: 'patched', externalID: 'E2', mapObjectGroupID: 4 })).status, 204);
      assert.deepEqual((await server.api.get(`${MAP_OBJECTS}/${id}`)).body, { mapObjectID: id, name: 'N', address: '', latitude: 1, longitude: 2, externalID: 'E2', comment: 'patched', mapObjectGroupID: 4 });
      assert.equal((await server.api.patch(`${MAP_OBJECTS}/${id}`, { externalID: null })).status, 204);
      assert.equal((await server.api.get(`${MAP_OBJECTS}/${id}`)).body.externalID, null);

      const second = await server.api.post(MAP_OBJECTS, { name: 'Second', latitude: 0, longitude: 0 });
      assert.deepEqual((await server.api.get(MAP_OBJECTS)).body.map((o: any) => o.mapObjectID), [id, second.body.mapObjectID]);
    });

    it('requires name, latitude and longitude on POST and PUT (code 52) and refuses bad values (code 2), changing nothing', async () => {
      const id = (await server.api.post(MAP_OBJECTS, { name: 'Kept', latitude: 10, longitude: 20 })).body.mapObjectID;
      const before = (await server.api.get(MAP_OBJECTS)).body;
      const bad: [string, Record<string, unknown>, number, string][] = [
        ['name missing', { latitude: 1, longitude: 1 }, 52, 'name'],
        ['name empty', { name: '', latitude: 1, longitude: 1 }, 52, 'name'],
        ['latitude missing', { name: 'o', longitude: 1 }, 52, 'latitude'],
        ['longitude null', { name: 'o', latitude: 1, longitude: null }, 52, 'longitude'],
        ['name a number', { name: 7, latitude: 1, longitude: 1 }, 2, 'name'],
        ['latitude above 90', { name: 'o', latitude: 90.1, longitude: 1 }, 2, 'latitude'],
        ['longitude below -180', { name: 'o', latitude: 1, longitude: -181 }, 2, 'longitude'],
        ['latitude as text', { name: 'o', latitude: '55.7', longitude: 1 }, 2, 'latitude'],
        ['address a number', { name: 'o', latitude: 1, longitude: 1, address: 5 }, 2, 'address'],
        ['address too long', { name: 'o', latitude: 1, longitude: 1, address: 'a'.repeat(1001) }, 2, 'address'],
        ['externalID an object', { name: 'o', latitude: 1, longitude: 1, externalID: {} }, 2, 'externalID'],
        ['comment with NUL', { name: 'o', latitude: 1, longitude: 1, comment: 'a\u0000' }, 2, 'comment'],
        ['mapObjectGroupID zero', { name: 'o', latitude: 1, longitude: 1, mapObjectGroupID: 0 }, 2, 'mapObjectGroupID'],
        ['mapObjectGroupID as text', { name: 'o', latitude: 1, longitude: 1, mapObjectGroupID: '3' }, 2, 'mapObjectGroupID'],
      ];
      for (const [what, body, code, field] of bad) {
        for (const r of [await server.api.post(MAP_OBJECTS, body), await server.api.put(`${MAP_OBJECTS}/${id}`, body)]) {
          assertError(r, 400, code, what);
          assert.ok(r.body.validationErrors?.[field], `${what}: ${r.text}`);
        }
      }
      for (const body of [{ name: null }, { latitude: null }, { longitude: 'east' }, { latitude: -90.5 }]) {
        const r = await server.api.patch(`${MAP_OBJECTS}/${id}`, body);
        assert.equal(r.status, 400, JSON.stringify(body));
      }
      for (const path of ['abc', '0', '1.5']) assertError(await server.api.get(`${MAP_OBJECTS}/${path}`), 400, 2, path);
      assert.deepEqual((await server.api.get(MAP_OBJECTS)).body, before);
    });

    it('deletes with 204; then 404 code 1005 everywhere', async () => {
      const id = (await server.api.post(MAP_OBJECTS, { name: 'Gone', latitude: 1, longitude: 1 })).body.mapObjectID;
      const r = await server.api.delete(`${MAP_OBJECTS}/${id}`);
      assert.equal(r.status, 204);
      assert.equal(r.text, '');
      for (const again of [
        await server.api.get(`${MAP_OBJECTS}/${id}`),
        await server.api.delete(`${MAP_OBJECTS}/${id}`),
        await server.api.put(`${MAP_OBJECTS}/${id}`, { name: 'x', latitude: 1, longitude: 1 }),
        await server.api.patch(`${MAP_OBJECTS}/${id}`, { name: 'x' }),
      ]) {
        assertError(again, 404, 1005, 'deleted');
      }
    });

    it('keeps accounts apart: a stranger gets 404 code 1005 and an empty list', async () => {
      const id = (await server.api.post(MAP_OBJECTS, { name: 'Mine', latitude: 3, longitude: 4 })).body.mapObjectID;
      const mine = (await server.api.get(`${MAP_OBJECTS}/${id}`)).body;
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(MAP_OBJECTS)).body, []);
      for (const r of [
        await stranger.api.get(`${MAP_OBJECTS}/${id}`),
        await stranger.api.put(`${MAP_OBJECTS}/${id}`, { name: 'x', latitude: 1, longitude: 1 }),
        await stranger.api.patch(`${MAP_OBJECTS}/${id}`, { name: 'x' }),
        await stranger.api.delete(`${MAP_OBJECTS}/${id}`),
      ]) {
        assertError(r, 404, 1005, 'stranger');
      }
      assert.deepEqual((await server.api.get(`${MAP_OBJECTS}/${id}`)).body, mine);
    });
  });
}
