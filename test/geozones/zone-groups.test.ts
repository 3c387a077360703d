import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertError, createGroup, createZone, GROUPS, ZONES } from './geozone-fixtures.js';

for (const dialect of dialects) {
  describe(`zone groups on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('creates, reads, lists, replaces and patches groups with the statuses of CONTRACT §1', async () => {
      const parent = await createGroup(server.api, 'Regions');
      const r = await server.api.post(GROUPS, { name: 'Урал', parentID: parent, regionID: 66, extra: 'ignored' });
      assert.equal(r.status, 201);
      const id = r.body.zoneGroupID;
      assert.equal(r.headers.get('location'), `${GROUPS}/${id}`);
      assert.deepEqual(r.body, { zoneGroupID: id, name: 'Урал', parentID: parent, regionID: 66 });
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, r.body);
      assert.deepEqual((await server.api.get(GROUPS)).body, [{ zoneGroupID: parent, name: 'Regions', parentID: null, regionID: null }, r.body]);

      const put = await server.api.put(`${GROUPS}/${id}`, { name: 'Ural' });
      assert.equal(put.status, 204);
      assert.equal(put.text, '');
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, { zoneGroupID: id, name: 'Ural', parentID: null, regionID: null }, 'PUT: omitted fields are null');

      const patch = await server.api.patch(`${GROUPS}/${id}`, { regionID: 74 });
      assert.equal(patch.status, 204);
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, { zoneGroupID: id, name: 'Ural', parentID: null, regionID: 74 }, 'PATCH: only present fields');
      await server.api.patch(`${GROUPS}/${id}`, { parentID: parent, regionID: null });
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, { zoneGroupID: id, name: 'Ural', parentID: parent, regionID: null });
    });

    it('refuses a missing, null or empty name with code 52, and bad field values with code 2', async () => {
      const id = await createGroup(server.api, 'Kept');
      const before = (await server.api.get(GROUPS)).body;
      for (const body of [{}, { name: null }, { name: '' }, { parentID: id }]) {
        assertError(await server.api.post(GROUPS, body), 400, 52, `POST ${JSON.stringify(body)}`);
        assertError(await server.api.put(`${GROUPS}/${id}`, body), 400, 52, `PUT ${JSON.stringify(body)}`);
      }
      assertError(await server.api.patch(`${GROUPS}/${id}`, { name: null }), 400, 52, 'PATCH name null');
      const bad: [string, Record<string, unknown>, number, string][] = [
        ['name a number', { name: 1 }, 2, 'name'],
        ['name too long', { name: 'g'.repeat(201) }, 2, 'name'],
        ['name with NUL', { name: '\u0000' }, 2, 'name'],
        ['parentID a string', { name: 'g', parentID: 'x' }, 2, 'parentID'],
        ['parentID zero', { name: 'g', parentID: 0 }, 2, 'parentID'],
        ['parentID a fraction', { name: 'g', parentID: 1.25 }, 2, 'parentID'],
        ['parentID unknown', { name: 'g', parentID: 55555555 }, 2, 'parentID'],
        ['regionID negative', { name: 'g', regionID: -3 }, 2, 'regionID'],
        ['regionID a boolean', { name: 'g', regionID: true }, 2, 'regionID'],
        ['regionID huge', { name: 'g', regionID: 1e300 }, 2, 'regionID'],
      ];
      for (const [what, body, code, field] of bad) {
        for (const r of [await server.api.post(GROUPS, body), await server.api.put(`${GROUPS}/${id}`, body), await server.api.patch(`${GROUPS}/${id}`, body)]) {
          assertError(r, 400, code, what);
          assert.ok(r.body.validationErrors?.[field], `${what}: ${r.text}`);
        }
      }
      assert.deepEqual((await server.api.get(GROUPS)).body, before);
    });

    it('refuses parent cycles with code 2: itself, a child, a deeper descendant', async () => {
      const a = await createGroup(server.api, 'A');
      const b = await createGroup(server.api, 'B', { parentID: a });
      const c = await createGroup(server.api, 'C', { parentID: b });
      const before = (await server.api.get(GROUPS)).body;
      for (const [group, parentID] of [[a, a], [a, b], [a, c], [b, c]] as const) {
        const r = await server.api.patch(`${GROUPS}/${group}`, { parentID });
        assertError(r, 400, 2, `${group} under ${parentID}`);
        assert.ok(r.body.validationErrors.parentID);
        assertError(await server.api.put(`${GROUPS}/${group}`, { name: 'x', parentID }), 400, 2, `PUT ${group} under ${parentID}`);
      }
      assert.deepEqual((await server.api.get(GROUPS)).body, before);
      // Moving a subtree elsewhere is fine.
      const d = await createGroup(server.api, 'D');
      assert.equal((await server.api.patch(`${GROUPS}/${b}`, { parentID: d })).status, 204);
      assert.equal((await server.api.patch(`${GROUPS}/${a}`, { parentID: c })).status, 204, 'a is no longer above c');
    });

    it('refuses to delete a group with zones or child groups (409 code 1007), deleting nothing', async () => {
      const parent = await createGroup(server.api, 'Parent');
      const child = await createGroup(server.api, 'Child', { parentID: parent });
      const zone = await createZone(server.api, 'In child', [], { zoneGroupID: child });
      const before = (await server.api.get(GROUPS)).body;
      assertError(await server.api.delete(`${GROUPS}/${parent}`), 409, 1007, 'has a child group');
      assertError(await server.api.delete(`${GROUPS}/${child}`), 409, 1007, 'has a zone');
      assert.deepEqual((await server.api.get(GROUPS)).body, before);
      assert.equal((await server.api.get(`${ZONES}/${zone}`)).body.zoneGroupID, child);

      assert.equal((await server.api.patch(`${ZONES}/${zone}`, { zoneGroupID: null })).status, 204);
      const gone = await server.api.delete(`${GROUPS}/${child}`);
      assert.equal(gone.status, 204);
      assert.equal(gone.text, '');
      assert.equal((await server.api.delete(`${GROUPS}/${parent}`)).status, 204);
      for (const id of [parent, child]) {
        assertError(await server.api.get(`${GROUPS}/${id}`), 404, 1004, 'deleted');
        assertError(await server.api.delete(`${GROUPS}/${id}`), 404, 1004, 'deleted twice');
        assertError(await server.api.put(`${GROUPS}/${id}`, { name: 'back' }), 404, 1004, 'PUT deleted');
      }
    });

    it('keeps accounts apart: 404 code 1004 for a stranger, and a stranger’s group is no parent', async () => {
      const mine = await createGroup(server.api, 'Mine');
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(GROUPS)).body, []);
      for (const r of [
        await stranger.api.get(`${GROUPS}/${mine}`),
        await stranger.api.put(`${GROUPS}/${mine}`, { name: 'Hijacked' }),
        await stranger.api.patch(`${GROUPS}/${mine}`, { name: 'Hijacked' }),
        await stranger.api.delete(`${GROUPS}/${mine}`),
      ]) {
        assertError(r, 404, 1004, 'stranger');
      }
      assertError(await stranger.api.post(GROUPS, { name: 'Under yours', parentID: mine }), 400, 2, 'stranger’s parent');
      const theirs = await createGroup(stranger.api, 'Theirs');
      assertError(await server.api.patch(`${GROUPS}/${mine}`, { parentID: theirs }), 400, 2, 'my group under theirs');
      assert.equal((await server.api.get(`${GROUPS}/${mine}`)).body.name, 'Mine');
    });
  });
}
