import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertError, bounds, createGroup, createZone, square, zoneWithDefaults, ZONES, zonesAt } from './geozone-fixtures.js';
import { createTemplate } from '../clients/client-fixtures.js';

for (const dialect of dialects) {
  describe(`zones on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('creates a zone with the defaults of CONTRACT §3 and answers 201 with a Location header', async () => {
      const r = await server.api.post(ZONES, { name: 'Depot' });
      assert.equal(r.status, 201);
      const id = r.body.zoneID;
      assert.equal(r.headers.get('location'), `${ZONES}/${id}`);
      assert.deepEqual(r.body, zoneWithDefaults(id, 'Depot'));
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, r.body);
    });

    it('stores every field of interface 2.5 and drops a closing point equal to the first', async () => {
      const group = await createGroup(server.api, 'Warehouses');
      const template = await createTemplate(server.api, [['cf-1', 'string'], ['cf-2', 'date']]);
      const body = {
        name: 'Склад №1 🚚 Zürich',
        color: 16711680,
        enabled: false,
        zoneGroupID: group,
        comment: "'; DROP TABLE zones; --",
        customFieldsFormTemplateID: template,
        bounds: bounds([...square(37.5, 55.7, 0.1), [37.5, 55.7]]),
        customFieldFormItems: [
          { externalID: 'cf-1', name: 'Manager', value: 'Olga', type: 'String' },
          { externalID: 'cf-2', name: 'Opened', value: null, type: 'DATE' },
        ],
        unknownField: 'is ignored',
      };
      const r = await server.api.post(ZONES, body);
      assert.equal(r.status, 201, r.text);
      const { unknownField: _u, ...expected } = body;
      assert.deepEqual(r.body, { ...expected, zoneID: r.body.zoneID, bounds: bounds(square(37.5, 55.7, 0.1)) });
      assert.deepEqual((await server.api.get(`${ZONES}/${r.body.zoneID}`)).body, r.body, 'custom field types are stored as given');
    });

    it('accepts both spellings of the template id on input and answers with the bodies’ spelling', async () => {
      const [t11, t12, t13] = [await createTemplate(server.api), await createTemplate(server.api), await createTemplate(server.api)];
      const created = await server.api.post(ZONES, { name: 'Spelled', customFieldFormTemplateID: t11 });
      assert.equal(created.body.customFieldsFormTemplateID, t11);
      assert.equal('customFieldFormTemplateID' in created.body, false);
      const id = created.body.zoneID;
      assert.equal((await server.api.patch(`${ZONES}/${id}`, { customFieldFormTemplateID: t12 })).status, 204);
      assert.equal((await server.api.get(`${ZONES}/${id}`)).body.customFieldsFormTemplateID, t12);
      assert.equal((await server.api.patch(`${ZONES}/${id}`, { customFieldsFormTemplateID: null })).status, 204);
      assert.equal((await server.api.get(`${ZONES}/${id}`)).body.customFieldsFormTemplateID, null);
      assert.equal((await server.api.put(`${ZONES}/${id}`, { name: 'Spelled', customFieldFormTemplateID: t13 })).status, 204);
      assert.equal((await server.api.get(`${ZONES}/${id}`)).body.customFieldsFormTemplateID, t13);
    });

    it('replaces with PUT (omitted fields take the defaults) and answers 204 with no body', async () => {
      const group = await createGroup(server.api, 'Replaced');
      const id = await createZone(server.api, 'Full', square(10, 10, 1), {
        color: 255,
        enabled: false,
        zoneGroupID: group,
        comment: 'c',
        customFieldsFormTemplateID: await createTemplate(server.api, [['x', 'integer']]),
        customFieldFormItems: [{ externalID: 'x', name: 'X', value: '1', type: 'integer' }],
      });
      const put = await server.api.put(`${ZONES}/${id}`, { name: 'Bare' });
      assert.equal(put.status, 204);
      assert.equal(put.text, '');
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, zoneWithDefaults(id, 'Bare'));
    });

    it('changes only the fields a PATCH carries, with 204 and no body', async () => {
      const group = await createGroup(server.api, 'Patched');
      const id = await createZone(server.api, 'Before', square(20, 20, 1), { color: 5, comment: 'keep', zoneGroupID: group });
      const before = (await server.api.get(`${ZONES}/${id}`)).body;
      const patch = await server.api.patch(`${ZONES}/${id}`, { color: 6 });
      assert.equal(patch.status, 204);
      assert.equal(patch.text, '');
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, { ...before, color: 6 });
      assert.equal((await server.api.patch(`${ZONES}/${id}`, {})).status, 204, 'an empty PATCH changes nothing');
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, { ...before, color: 6 });
      await server.api.patch(`${ZONES}/${id}`, { zoneGroupID: null, bounds: [], enabled: false, name: 'After' });
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, { ...before, color: 6, zoneGroupID: null, bounds: [], enabled: false, name: 'After' });
    });

    it('refuses a missing, null or empty name on POST and PUT, and a null name on PATCH, with code 52', async () => {
      const id = await createZone(server.api, 'Named', []);
      const before = (await server.api.get(`${ZONES}/${id}`)).body;
      for (const body of [{}, { name: null }, { name: '' }, { color: 1 }]) {
        assertError(await server.api.post(ZONES, body), 400, 52, `POST ${JSON.stringify(body)}`);
        assertError(await server.api.put(`${ZONES}/${id}`, body), 400, 52, `PUT ${JSON.stringify(body)}`);
      }
      assertError(await server.api.patch(`${ZONES}/${id}`, { name: null }), 400, 52, 'PATCH name null');
      assertError(await server.api.patch(`${ZONES}/${id}`, { name: '' }), 400, 52, 'PATCH name empty');
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, before);
    });

    it('takes a ring of at least 3 points, or none; fewer are refused with code 2', async () => {
      const triangle: [number, number][] = [[1, 1], [2, 1], [1, 2]];
      assert.equal((await server.api.post(ZONES, { name: 't', bounds: bounds(triangle) })).status, 201);
      const closed = await server.api.post(ZONES, { name: 't', bounds: bounds([...triangle, [1, 1]]) });
      assert.deepEqual(closed.body.bounds, bounds(triangle), 'the closing point is not stored twice');
      for (const ring of [[[1, 1]], [[1, 1], [2, 2]], [[1, 1], [2, 2], [1, 1]], [[1, 1], [1, 1]]] as [number, number][][]) {
        const r = await server.api.post(ZONES, { name: 'short', bounds: bounds(ring) });
        assertError(r, 400, 2, JSON.stringify(ring));
        assert.ok(r.body.validationErrors.bounds);
      }
      const id = (await server.api.post(ZONES, { name: 'empty', bounds: [] })).body.zoneID;
      assert.deepEqual(await zonesAt(server.api, 0, 0).then((ids) => ids.includes(id)), false, 'an empty zone contains nothing');
    });

    it('lists zones by zoneID; withCustomTemplateItems is required and false omits custom fields', async () => {
      const all = await server.api.get(`${ZONES}?withCustomTemplateItems=true`);
      assert.equal(all.status, 200);
      const ids = all.body.map((z: any) => z.zoneID);
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
      assert.ok(all.body.every((z: any) => Array.isArray(z.customFieldFormItems)));
      const bare = await server.api.get(`${ZONES}?withCustomTemplateItems=false`);
      assert.deepEqual(bare.body, all.body.map(({ customFieldFormItems: _c, ...z }: any) => z));
      assertError(await server.api.get(ZONES), 400, 52, 'missing withCustomTemplateItems');
      assertError(await server.api.get(`${ZONES}?withCustomTemplateItems=maybe`), 400, 2, 'not a boolean');
    });

    it('deletes with 204; the zone is gone (404 code 1003) and no longer found by lookups', async () => {
      const id = await createZone(server.api, 'Doomed', square(-50, -50, 2));
      assert.deepEqual(await zonesAt(server.api, -49, -49), [id]);
      const r = await server.api.delete(`${ZONES}/${id}`);
      assert.equal(r.status, 204);
      assert.equal(r.text, '');
      assert.deepEqual(await zonesAt(server.api, -49, -49), []);
      for (const again of [
        await server.api.get(`${ZONES}/${id}`),
        await server.api.delete(`${ZONES}/${id}`),
        await server.api.put(`${ZONES}/${id}`, { name: 'Back' }),
        await server.api.patch(`${ZONES}/${id}`, { name: 'Back' }),
      ]) {
        assertError(again, 404, 1003, 'deleted zone');
      }
      assertError(await server.api.get(`${ZONES}/999999999`), 404, 1003, 'never existed');
    });

    it('requires zoneGroupID to name a group of the same account (code 2)', async () => {
      const stranger = await server.newAccount();
      const theirs = await createGroup(stranger.api, 'Theirs');
      const mine = await createGroup(server.api, 'Mine');
      for (const zoneGroupID of [theirs, 987654321]) {
        const r = await server.api.post(ZONES, { name: 'z', zoneGroupID });
        assertError(r, 400, 2, `group ${zoneGroupID}`);
        assert.ok(r.body.validationErrors.zoneGroupID);
      }
      const id = await createZone(server.api, 'Grouped', [], { zoneGroupID: mine });
      assertError(await server.api.patch(`${ZONES}/${id}`, { zoneGroupID: theirs }), 400, 2, 'PATCH into a stranger’s group');
      assertError(await server.api.put(`${ZONES}/${id}`, { name: 'z', zoneGroupID: theirs }), 400, 2, 'PUT into a stranger’s group');
      assert.equal((await server.api.get(`${ZONES}/${id}`)).body.zoneGroupID, mine);
    });

    it('keeps accounts apart: a stranger gets 404 code 1003 for every zone route, an empty list and no lookups', async () => {
      const id = await createZone(server.api, 'Private', square(60, 60, 1));
      const mine = (await server.api.get(`${ZONES}/${id}`)).body;
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(`${ZONES}?withCustomTemplateItems=true`)).body, []);
      assert.deepEqual(await zonesAt(stranger.api, 60.5, 60.5), []);
      for (const r of [
        await stranger.api.get(`${ZONES}/${id}`),
        await stranger.api.put(`${ZONES}/${id}`, { name: 'Hijacked' }),
        await stranger.api.patch(`${ZONES}/${id}`, { name: 'Hijacked' }),
        await stranger.api.delete(`${ZONES}/${id}`),
      ]) {
        assertError(r, 404, 1003, 'stranger');
      }
      assert.deepEqual((await server.api.get(`${ZONES}/${id}`)).body, mine);
      assert.deepEqual(await zonesAt(server.api, 60.5, 60.5), [id]);
    });

    it('replays a create with the same Idempotency-Key instead of creating a second zone', async () => {
      const headers = { 'idempotency-key': 'zone-create-1' };
      const first = await server.api.post(ZONES, { name: 'Once' }, headers);
      const second = await server.api.post(ZONES, { name: 'Once' }, headers);
      assert.equal(second.status, 201);
      assert.deepEqual(second.body, first.body);
      assert.equal(second.headers.get('location'), first.headers.get('location'));
      const named = (await server.api.get(`${ZONES}?withCustomTemplateItems=false`)).body.filter((z: any) => z.name === 'Once');
      assert.equal(named.length, 1);
    });
  });
}
