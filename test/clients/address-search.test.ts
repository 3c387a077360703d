import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { axiosQuery, MAP_OBJECTS } from './client-fixtures.js';

/**
 * A delivery bot (Python, requests) finds the map object of an order by the address its customer
 * typed, `GET …/mapObjects?address=<text>` with the text as typed: Cyrillic in any case, whole
 * addresses with "дом" and "подъезд", commas and "д.". Every word must occur, in any order.
 */
const ADDRESSES = [
  'г. Санкт-Петербург, Приморский пр-кт, д. 1, подъезд 3',
  'Санкт-Петербург, Приморский проспект, дом 1 подъезд 2',
  'САНКТ-ПЕТЕРБУРГ, ПРИМОРСКОЕ ШОССЕ, 15',
  'Москва, Тверская ул., д. 7',
  'Королёв, ул. Ленина 5',
  'Tverskaya 1, Moscow',
];

for (const dialect of dialects) {
  describe(`map objects found by the words of an address on ${dialect}`, () => {
    let server: TestServer;
    let ids: number[];

    before(async () => {
      server = await startServer(dialect);
      ids = [];
      for (const [i, address] of ADDRESSES.entries()) {
        const r = await server.api.post(MAP_OBJECTS, { name: `Point ${i}`, address, latitude: 59.98, longitude: 30.2 });
        assert.equal(r.status, 201, r.text);
        ids.push(r.body.mapObjectID);
      }
    });
    after(() => server.close());

    /** The ids found, as the bot asks (requests encodes the text with %-escapes, spaces as +). */
    const found = async (address: string) => {
      const r = await server.api.get(`${MAP_OBJECTS}?address=${encodeURIComponent(address).replace(/%20/g, '+')}`);
      assert.equal(r.status, 200, `${address}: ${r.text}`);
      return r.body.map((o: any) => ids.indexOf(o.mapObjectID));
    };

    it('ignores the case of Cyrillic letters as of Latin ones', async () => {
      assert.deepEqual(await found('Приморский'), [0, 1]);
      assert.deepEqual(await found('приморский'), [0, 1]);
      assert.deepEqual(await found('ПРИМОРСКИЙ'), [0, 1]);
      assert.deepEqual(await found('примор'), [0, 1, 2]);
      assert.deepEqual(await found('шоссе'), [2]);
      assert.deepEqual(await found('tVERSKAYA'), [5]);
    });

    it('keeps ё apart from е, as PostgreSQL’s lower() does', async () => {
      assert.deepEqual(await found('КОРОЛЁВ'), [4]);
      assert.deepEqual(await found('королёв'), [4]);
      assert.deepEqual(await found('Королев'), []);
    });

    it('finds the bot’s whole address by its words, in any order, commas and "д." aside', async () => {
      assert.deepEqual(await found('Санкт-Петербург Приморский дом 1 подъезд 2'), [1]);
      assert.deepEqual(await found('подъезд 2, дом 1, Приморский, Санкт-Петербург'), [1]);
      assert.deepEqual(await found('Санкт Петербург, Приморский, д. 1'), [0, 1], '"д." is the word "д", found in "д." and in "дом"');
      assert.deepEqual(await found('Санкт-Петербург Приморский дом 1 подъезд 9'), [], 'every word must occur');
      assert.deepEqual(await found('Тверская, д. 7'), [3]);
      assert.deepEqual(await found('"Приморское" шоссе, №15'), [2]);
    });

    it('applies the words with the other filters, as the axios client sends them', async () => {
      const r = await server.api.get(`${MAP_OBJECTS}?${axiosQuery({ address: 'приморский 1', mapObjectIDs: [ids[1], ids[2], ids[3]] })}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.map((o: any) => o.mapObjectID),
        [ids[1]],
      );
    });

    it('searches the address a PUT or PATCH wrote, not the one before', async () => {
      const created = await server.api.post(MAP_OBJECTS, { name: 'Moving', address: 'Выборгское шоссе 1', latitude: 60, longitude: 30 });
      const id = created.body.mapObjectID;
      const search = async (address: string) => (await server.api.get(`${MAP_OBJECTS}?address=${encodeURIComponent(address)}`)).body.map((o: any) => o.mapObjectID);
      assert.deepEqual(await search('ВЫБОРГСКОЕ'), [id]);
      assert.equal((await server.api.patch(`${MAP_OBJECTS}/${id}`, { address: 'Кронштадтский бульвар 3' })).status, 204);
      assert.deepEqual(await search('выборгское'), []);
      assert.deepEqual(await search('КРОНШТАДТСКИЙ 3'), [id]);
      assert.equal((await server.api.put(`${MAP_OBJECTS}/${id}`, { name: 'Moving', latitude: 60, longitude: 30 })).status, 204);
      assert.deepEqual(await search('кронштадтский'), [], 'a PUT without an address leaves it empty');
      assert.equal((await server.api.delete(`${MAP_OBJECTS}/${id}`)).status, 204);
    });

    it('shows another account none of these objects', async () => {
      const stranger = await server.newAccount();
      const r = await stranger.api.get(`${MAP_OBJECTS}?address=${encodeURIComponent('Приморский')}`);
      assert.deepEqual(r.body, []);
    });

    describe('refuses a text with no word to search for and changes nothing', () => {
      const cases: [string, Refusal][] = [
        [',', { code: 2, field: 'address' }],
        ['  ', { code: 2, field: 'address' }],
        ['. , - №', { code: 2, field: 'address' }],
      ];
      for (const [address, expected] of cases) {
        it(`address=${JSON.stringify(address)}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(() => read(server.api, MAP_OBJECTS), () => server.api.get(`${MAP_OBJECTS}?address=${encodeURIComponent(address)}`), expected);
        });
      }
    });
  });
}
