import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { createSubscriberGroup, GROUPS } from './client-fixtures.js';

/** Employee groups: what `subscriberGroupID` of interface 2.9 names, read by clients to group employees. */
for (const dialect of dialects) {
  describe(`subscriber groups on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('creates (201 with Location), lists, reads, replaces, patches and deletes a group', async () => {
      const created = await server.api.post(GROUPS, { name: 'Couriers', regionID: 7, comment: 'north', unknown: 'ignored' });
      assert.equal(created.status, 201, created.text);
      const id = created.body.subscriberGroupID;
      assert.equal(created.headers.get('location'), `${GROUPS}/${id}`);
      assert.deepEqual(created.body, { subscriberGroupID: id, name: 'Couriers', regionID: 7, comment: 'north' });
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, created.body);
      assert.ok((await server.api.get(GROUPS)).body.some((g: any) => g.subscriberGroupID === id));

      const put = await server.api.put(`${GROUPS}/${id}`, { name: 'Drivers' });
      assert.equal(put.status, 204);
      assert.equal(put.text, '');
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, { subscriberGroupID: id, name: 'Drivers', regionID: null, comment: '' });
      assert.equal((await server.api.patch(`${GROUPS}/${id}`, { regionID: 3 })).status, 204);
      assert.deepEqual((await server.api.get(`${GROUPS}/${id}`)).body, { subscriberGroupID: id, name: 'Drivers', regionID: 3, comment: '' });

      assert.equal((await server.api.delete(`${GROUPS}/${id}`)).status, 204);
      const gone = await server.api.get(`${GROUPS}/${id}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 1018);
    });

    it('files employees under real groups and filters them by subscriberGroupIDs in every list form', async () => {
      const north = await createSubscriberGroup(server.api, 'North');
      const south = await createSubscriberGroup(server.api, 'South');
      const a = await createEmployee(server.api, { name: 'A', subscriberGroupID: north });
      const b = await createEmployee(server.api, { name: 'B', subscriberGroupID: south });
      await createEmployee(server.api, { name: 'C' });
      const ids = async (query: string) => (await server.api.get(`${SUBSCRIBERS}?${query}`)).body.map((e: any) => e.subscriberID);
      assert.deepEqual(await ids(`subscriberGroupIDs=${north}`), [a]);
      assert.deepEqual(await ids(`subscriberGroupIDs[]=${north}&subscriberGroupIDs[]=${south}`), [a, b]);
      assert.deepEqual(await ids(`subscriberGroupIDs=${north},${south}`), [a, b]);
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${b}`, { subscriberGroupID: north })).status, 200);
      assert.deepEqual(await ids(`subscriberGroupIDs=${north}`), [a, b]);
    });

    it('keeps a group that has employees (409 code 1019, nothing deleted) and deletes it once they left', async () => {
      const group = await createSubscriberGroup(server.api, 'Busy');
      const member = await createEmployee(server.api, { name: 'Member', subscriberGroupID: group });
      await assertRefusedUnchanged(() => read(server.api, GROUPS), () => server.api.delete(`${GROUPS}/${group}`), { code: 1019 });
      const leaver = await createEmployee(server.api, { name: 'Leaver', subscriberGroupID: group });
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${leaver}`)).status, 204);
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${member}`, { subscriberGroupID: null })).status, 200);
      assert.equal((await server.api.delete(`${GROUPS}/${group}`)).status, 204, 'a deleted employee does not hold its group');
    });

    describe('refuses bad input with the envelope and changes nothing', () => {
      const bodies: [string, unknown, Refusal][] = [
        ['no name', { regionID: 1 }, { code: 52, field: 'name' }],
        ['a null name', { name: null }, { code: 52, field: 'name' }],
        ['an empty name', { name: '' }, { code: 52, field: 'name' }],
        ['a long name', { name: 'n'.repeat(201) }, { code: 2, field: 'name' }],
        ['regionID zero', { name: 'g', regionID: 0 }, { code: 2, field: 'regionID' }],
        ['regionID text', { name: 'g', regionID: '7' }, { code: 2, field: 'regionID' }],
        ['a numeric comment', { name: 'g', comment: 5 }, { code: 2, field: 'comment' }],
        ['an array', [{ name: 'g' }], { code: 2 }],
      ];
      for (const [label, body, expected] of bodies) {
        it(`POST and PUT with ${label}: code ${expected.code}`, async () => {
          const id = await createSubscriberGroup(server.api, 'Target');
          await assertRefusedUnchanged(() => read(server.api, GROUPS), () => server.api.post(GROUPS, body), expected, `POST ${label}`);
          await assertRefusedUnchanged(() => read(server.api, GROUPS), () => server.api.put(`${GROUPS}/${id}`, body), expected, `PUT ${label}`);
        });
      }
      it('PATCH with a null name: code 52; bad ids: code 2; unknown: 404 code 1018', async () => {
        const id = await createSubscriberGroup(server.api, 'Target');
        await assertRefusedUnchanged(() => read(server.api, GROUPS), () => server.api.patch(`${GROUPS}/${id}`, { name: null }), { code: 52 });
        for (const bad of ['abc', '0', '-1', '1.5', '0x10']) {
          await assertRefusedUnchanged(() => read(server.api, GROUPS), () => server.api.get(`${GROUPS}/${bad}`), { code: 2 }, bad);
          await assertRefusedUnchanged(() => read(server.api, GROUPS), () => server.api.delete(`${GROUPS}/${bad}`), { code: 2 }, bad);
        }
        for (const call of [() => server.api.put(`${GROUPS}/987654`, { name: 'x' }), () => server.api.patch(`${GROUPS}/987654`, { name: 'x' }), () => server.api.delete(`${GROUPS}/987654`)]) {
          await assertRefusedUnchanged(() => read(server.api, GROUPS), call, { code: 1018 });
        }
      });
      it('an employee naming a group that does not exist, or is another account’s: 400 code 2 on subscriberGroupID', async () => {
        const stranger = await server.newAccount();
        const theirs = await createSubscriberGroup(stranger.api, 'Theirs');
        const employee = await createEmployee(server.api, { name: 'Target' });
        const state = () => read(server.api, SUBSCRIBERS);
        for (const group of [987654, theirs]) {
          await assertRefusedUnchanged(state, () => server.api.post(SUBSCRIBERS, { name: 'X', subscriberGroupID: group }), { code: 2, field: 'subscriberGroupID' });
          await assertRefusedUnchanged(state, () => server.api.put(`${SUBSCRIBERS}/${employee}`, { name: 'X', subscriberGroupID: group }), { code: 2, field: 'subscriberGroupID' });
          await assertRefusedUnchanged(state, () => server.api.patch(`${SUBSCRIBERS}/${employee}`, { subscriberGroupID: group }), { code: 2, field: 'subscriberGroupID' });
        }
      });
    });

    it('shows another account none of the groups: 404 code 1018 for each route', async () => {
      const mine = await createSubscriberGroup(server.api, 'Mine');
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(GROUPS)).body, []);
      const calls = [
        () => stranger.api.get(`${GROUPS}/${mine}`),
        () => stranger.api.put(`${GROUPS}/${mine}`, { name: 'Taken' }),
        () => stranger.api.patch(`${GROUPS}/${mine}`, { name: 'Taken' }),
        () => stranger.api.delete(`${GROUPS}/${mine}`),
      ];
      for (const call of calls) await assertRefusedUnchanged(() => read(server.api, `${GROUPS}/${mine}`), call, { code: 1018 });
    });
  });
}
