import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertError, bounds, createGroup, square, ZONES, zonesAt } from './geozone-fixtures.js';

type Case = [what: string, body: Record<string, unknown>, code: number, field: string];

const point = (longitude: unknown, latitude: unknown) => ({ longitude, latitude });
const item = (extra: Record<string, unknown>) => ({ externalID: 'e', name: 'n', value: 'v', type: 'string', ...extra });

/** Every writable zone field with values of the wrong type, out of range, null, huge or malformed. */
function badBodies(strangersGroup: number): Case[] {
  return [
    ['name missing', {}, 52, 'name'],
    ['name null', { name: null }, 52, 'name'],
    ['name empty', { name: '' }, 52, 'name'],
    ['name a number', { name: 42 }, 2, 'name'],
    ['name an array', { name: ['a'] }, 2, 'name'],
    ['name an object', { name: { first: 'a' } }, 2, 'name'],
    ['name too long', { name: 'x'.repeat(201) }, 2, 'name'],
    ['name with NUL', { name: 'a\u0000b' }, 2, 'name'],
    ['color a string', { name: 'z', color: 'red' }, 2, 'color'],
    ['color a fraction', { name: 'z', color: 1.5 }, 2, 'color'],
    ['color null', { name: 'z', color: null }, 52, 'color'],
    ['color too big', { name: 'z', color: 2 ** 40 }, 2, 'color'],
    ['color too small', { name: 'z', color: -(2 ** 40) }, 2, 'color'],
    ['color a boolean', { name: 'z', color: true }, 2, 'color'],
    ['enabled a string', { name: 'z', enabled: 'yes' }, 2, 'enabled'],
    ['enabled a number', { name: 'z', enabled: 1 }, 2, 'enabled'],
    ['enabled null', { name: 'z', enabled: null }, 52, 'enabled'],
    ['zoneGroupID a string', { name: 'z', zoneGroupID: 'abc' }, 2, 'zoneGroupID'],
    ['zoneGroupID zero', { name: 'z', zoneGroupID: 0 }, 2, 'zoneGroupID'],
    ['zoneGroupID negative', { name: 'z', zoneGroupID: -1 }, 2, 'zoneGroupID'],
    ['zoneGroupID a fraction', { name: 'z', zoneGroupID: 1.5 }, 2, 'zoneGroupID'],
    ['zoneGroupID beyond 2^53', { name: 'z', zoneGroupID: 2 ** 60 }, 2, 'zoneGroupID'],
    ['zoneGroupID unknown', { name: 'z', zoneGroupID: 123456789 }, 2, 'zoneGroupID'],
    ['zoneGroupID of another account', { name: 'z', zoneGroupID: strangersGroup }, 2, 'zoneGroupID'],
    ['zoneGroupID SQL-looking', { name: 'z', zoneGroupID: '1 OR 1=1' }, 2, 'zoneGroupID'],
    ['comment a number', { name: 'z', comment: 5 }, 2, 'comment'],
    ['comment null', { name: 'z', comment: null }, 52, 'comment'],
    ['comment too long', { name: 'z', comment: 'é'.repeat(10_001) }, 2, 'comment'],
    ['customFieldsFormTemplateID a string', { name: 'z', customFieldsFormTemplateID: 'a' }, 2, 'customFieldsFormTemplateID'],
    ['customFieldsFormTemplateID zero', { name: 'z', customFieldsFormTemplateID: 0 }, 2, 'customFieldsFormTemplateID'],
    ['customFieldFormTemplateID a fraction', { name: 'z', customFieldFormTemplateID: 2.5 }, 2, 'customFieldFormTemplateID'],
    ['bounds a string', { name: 'z', bounds: 'square' }, 2, 'bounds'],
    ['bounds an object', { name: 'z', bounds: { longitude: 1, latitude: 1 } }, 2, 'bounds'],
    ['bounds null', { name: 'z', bounds: null }, 52, 'bounds'],
    ['bounds of numbers', { name: 'z', bounds: [1, 2, 3] }, 2, 'bounds[0]'],
    ['bounds of pairs', { name: 'z', bounds: [[1, 1], [2, 1], [1, 2]] }, 2, 'bounds[0]'],
    ['a point without latitude', { name: 'z', bounds: [{ longitude: 1 }, point(2, 1), point(1, 2)] }, 52, 'bounds[0].latitude'],
    ['a latitude null', { name: 'z', bounds: [point(1, null), point(2, 1), point(1, 2)] }, 52, 'bounds[0].latitude'],
    ['a latitude as text', { name: 'z', bounds: [point(1, '1'), point(2, 1), point(1, 2)] }, 2, 'bounds[0].latitude'],
    ['a latitude above 90', { name: 'z', bounds: [point(1, 1), point(2, 90.000001), point(1, 2)] }, 2, 'bounds[1].latitude'],
    ['a latitude below -90', { name: 'z', bounds: [point(1, 1), point(2, 1), point(1, -91)] }, 2, 'bounds[2].latitude'],
    ['a longitude above 180', { name: 'z', bounds: [point(180.5, 1), point(2, 1), point(1, 2)] }, 2, 'bounds[0].longitude'],
    ['a longitude below -180', { name: 'z', bounds: [point(1, 1), point(-1e300, 1), point(1, 2)] }, 2, 'bounds[1].longitude'],
    ['two points', { name: 'z', bounds: bounds([[1, 1], [2, 2]]) }, 2, 'bounds'],
    ['two points and a closing one', { name: 'z', bounds: bounds([[1, 1], [2, 2], [1, 1]]) }, 2, 'bounds'],
    ['more than 20,000 points', { name: 'z', bounds: Array.from({ length: 20_001 }, (_, i) => point((i % 360) - 180, (i % 180) - 90)) }, 2, 'bounds'],
    ['customFieldFormItems a string', { name: 'z', customFieldFormItems: 'x' }, 2, 'customFieldFormItems'],
    ['a custom field of unknown type', { name: 'z', customFieldFormItems: [item({ type: 'colour' })] }, 2, 'customFieldFormItems[0].type'],
    ['a custom field type SQL-looking', { name: 'z', customFieldFormItems: [item({ type: "string' --" })] }, 2, 'customFieldFormItems[0].type'],
    ['a custom field without type', { name: 'z', customFieldFormItems: [{ externalID: 'e', name: 'n' }] }, 52, 'customFieldFormItems[0].type'],
    ['a custom field type a number', { name: 'z', customFieldFormItems: [item({ type: 5 })] }, 2, 'customFieldFormItems[0].type'],
    ['a custom field value a number', { name: 'z', customFieldFormItems: [item({ value: 5 })] }, 2, 'customFieldFormItems[0].value'],
    ['a custom field name too long', { name: 'z', customFieldFormItems: [item({ name: 'n'.repeat(201) })] }, 2, 'customFieldFormItems[0].name'],
    ['201 custom fields', { name: 'z', customFieldFormItems: Array.from({ length: 201 }, () => item({})) }, 2, 'customFieldFormItems'],
  ];
}

for (const dialect of dialects) {
  describe(`bad zone input on ${dialect}`, () => {
    let server: TestServer;
    let zoneID: number;
    let cases: Case[];
    const snapshot = async () => (await server.api.get(`${ZONES}?withCustomTemplateItems=true`)).body;

    before(async () => {
      server = await startServer(dialect);
      const stranger = await server.newAccount();
      cases = badBodies(await createGroup(stranger.api, 'Not yours'));
      const created = await server.api.post(ZONES, { name: 'Target', bounds: bounds(square(0, 0, 1)), customFieldFormItems: [item({})] });
      zoneID = created.body.zoneID;
    });
    after(() => server.close());

    it('refuses each bad POST body with the envelope, the right code and the field named; creates nothing', async () => {
      const before = await snapshot();
      for (const [what, body, code, field] of cases) {
        const r = await server.api.post(ZONES, body);
        assertError(r, 400, code, what);
        assert.ok(r.body.validationErrors?.[field], `${what}: validationErrors names ${field}: ${r.text}`);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('refuses each bad PUT body the same way and leaves the zone as it was', async () => {
      const before = await snapshot();
      for (const [what, body, code, field] of cases) {
        const r = await server.api.put(`${ZONES}/${zoneID}`, body);
        assertError(r, 400, code, what);
        assert.ok(r.body.validationErrors?.[field], `${what}: ${r.text}`);
      }
      assert.deepEqual(await snapshot(), before);
      assert.deepEqual(await zonesAt(server.api, 0.5, 0.5), [zoneID]);
    });

    it('refuses each bad PATCH field the same way (a missing name is no error there) and changes nothing', async () => {
      const before = await snapshot();
      for (const [what, body, code, field] of cases.filter(([what]) => what !== 'name missing')) {
        const patch = { ...body };
        if (field !== 'name') delete patch.name;
        const r = await server.api.patch(`${ZONES}/${zoneID}`, patch);
        assertError(r, 400, code, what);
        assert.ok(r.body.validationErrors?.[field], `${what}: ${r.text}`);
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('refuses bad ids in the path with code 2, and bodies that are not a JSON object', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', "1';DROP TABLE zones;--"]) {
        assertError(await server.api.get(`${ZONES}/${encodeURIComponent(id)}`), 400, 2, `GET ${id}`);
        assertError(await server.api.patch(`${ZONES}/${encodeURIComponent(id)}`, { name: 'x' }), 400, 2, `PATCH ${id}`);
        assertError(await server.api.delete(`${ZONES}/${encodeURIComponent(id)}`), 400, 2, `DELETE ${id}`);
      }
      assertError(await server.api.post(ZONES, [{ name: 'in an array' }]), 400, 2, 'array body');
      assertError(await server.api.post(ZONES, '"just a string"', { 'content-type': 'application/json' }), 400, 2, 'string body');
      assertError(await server.api.post(ZONES, '{"name": "unterminated', { 'content-type': 'application/json' }), 400, 2, 'malformed JSON');
      assertError(await server.api.post(ZONES, 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 1011, 'form body');
      const huge = Array.from({ length: 19_000 }, (_, i) => point(-179.123456789 + i / 1e4, -89.123456789 + i / 1e4));
      assertError(await server.api.post(ZONES, { name: 'over 1 MiB', bounds: huge, comment: 'x'.repeat(9000) }), 413, 1010, 'over 1 MiB');
    });

    it('stores SQL-looking and unicode text verbatim, as data', async () => {
      const name = `Robert'); DROP TABLE zones;-- 🛰 \u202e ٣ 𝔷`;
      const r = await server.api.post(ZONES, { name, comment: '" OR ""="', customFieldFormItems: [item({ value: "1; DELETE FROM zone_groups" })] });
      assert.equal(r.status, 201, r.text);
      const stored = (await server.api.get(`${ZONES}/${r.body.zoneID}`)).body;
      assert.equal(stored.name, name);
      assert.equal(stored.comment, '" OR ""="');
      assert.equal(stored.customFieldFormItems[0].value, '1; DELETE FROM zone_groups');
      assert.ok((await snapshot()).length >= 2, 'the zones table is still there');
    });
  });
}
