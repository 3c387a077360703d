import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { axiosQuery, MAP_OBJECTS } from './client-fixtures.js';

/** Filters clients send that Lokator used to ignore: subscribers' count/offset, map objects' address. */
for (const dialect of dialects) {
  describe(`list filters on ${dialect}`, () => {
    let server: TestServer;
    let employees: number[];
    let objects: number[];

    before(async () => {
      server = await startServer(dialect);
      employees = [];
      for (const name of ['A', 'B', 'C', 'D', 'E']) employees.push(await createEmployee(server.api, { name }));
      objects = [];
      const addresses = ['Tverskaya 1, Moscow', 'Nevsky 2, Saint Petersburg', 'TVERSKAYA 7, Moscow', '50% off_street\\x'];
      for (const [i, address] of addresses.entries()) {
        const r = await server.api.post(MAP_OBJECTS, { name: address, address, latitude: 55.7, longitude: 37.6, mapObjectGroupID: i < 2 ? 10 + i : null });
        assert.equal(r.status, 201, r.text);
        objects.push(r.body.mapObjectID);
      }
    });
    after(() => server.close());

    const ids = async (path: string, key: string) => {
      const r = await server.api.get(path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      return r.body.map((item: any) => item[key]);
    };

    it('pages subscribers with count and offset; all of them without', async () => {
      assert.deepEqual(await ids(SUBSCRIBERS, 'subscriberID'), employees);
      assert.deepEqual(await ids(`${SUBSCRIBERS}?count=2`, 'subscriberID'), employees.slice(0, 2));
      assert.deepEqual(await ids(`${SUBSCRIBERS}?count=2&offset=2`, 'subscriberID'), employees.slice(2, 4));
      assert.deepEqual(await ids(`${SUBSCRIBERS}?offset=4`, 'subscriberID'), employees.slice(4));
      assert.deepEqual(await ids(`${SUBSCRIBERS}?${axiosQuery({ subscriberIDs: employees.slice(1), count: 2, offset: 1 })}`, 'subscriberID'), employees.slice(2, 4));
    });

    it('finds map objects by a part of their address, ignoring case, with % _ and \\ taken literally', async () => {
      assert.deepEqual(await ids(`${MAP_OBJECTS}?address=tverskaya`, 'mapObjectID'), [objects[0], objects[2]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?address=${encodeURIComponent('Saint Pete')}`, 'mapObjectID'), [objects[1]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?address=${encodeURIComponent('%')}`, 'mapObjectID'), [objects[3]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?address=${encodeURIComponent('f_s')}`, 'mapObjectID'), [objects[3]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?address=${encodeURIComponent('\\x')}`, 'mapObjectID'), [objects[3]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?address=nowhere`, 'mapObjectID'), []);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?mapObjectIDs=${objects[1]},${objects[3]}&address=nevsky`, 'mapObjectID'), [objects[1]]);
    });

    it('filters map objects by mapObjectGroupIDs in every list form', async () => {
      assert.deepEqual(await ids(`${MAP_OBJECTS}?mapObjectGroupIDs=10`, 'mapObjectID'), [objects[0]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?mapObjectGroupIDs[]=10&mapObjectGroupIDs[]=11`, 'mapObjectID'), [objects[0], objects[1]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?mapObjectGroupIDs=11,12&address=saint`, 'mapObjectID'), [objects[1]]);
      assert.deepEqual(await ids(`${MAP_OBJECTS}?mapObjectGroupIDs=12`, 'mapObjectID'), []);
    });

    describe('refuses bad parameters with the envelope and changes nothing', () => {
      const cases: [string, Refusal][] = [
        [`${SUBSCRIBERS}?count=1001`, { code: 67, field: 'count' }],
        [`${SUBSCRIBERS}?count=0`, { code: 2, field: 'count' }],
        [`${SUBSCRIBERS}?count=two`, { code: 2, field: 'count' }],
        [`${SUBSCRIBERS}?offset=-1`, { code: 2, field: 'offset' }],
        [`${SUBSCRIBERS}?offset=1e3`, { code: 2, field: 'offset' }],
        [`${MAP_OBJECTS}?address=`, { code: 52, field: 'address' }],
        [`${MAP_OBJECTS}?address=${'a'.repeat(501)}`, { code: 2, field: 'address' }],
        [`${MAP_OBJECTS}?mapObjectIDs=x`, { code: 2, field: /^mapObjectIDs/ }],
        [`${MAP_OBJECTS}?mapObjectGroupIDs=0`, { code: 2, field: /^mapObjectGroupIDs/ }],
        [`${MAP_OBJECTS}?mapObjectGroupIDs[]=g`, { code: 2, field: /^mapObjectGroupIDs/ }],
      ];
      for (const [path, expected] of cases) {
        it(`${path.slice(0, 80)}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(() => read(server.api, SUBSCRIBERS), () => server.api.get(path), expected);
        });
      }
    });
  });
}
