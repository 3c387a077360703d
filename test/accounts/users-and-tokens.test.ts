// An account's own users and API tokens (CONTRACT §7): admins add users with a role, a scope of
// employee groups and a temporary password; the last active admin stays; tokens are issued with
// their value shown once, renamed, re-roled and revoked, and a revoked token is refused at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const USERS = '/v6/api/userManagement/users';
const TOKENS = '/v6/api/userManagement/tokens';
const GROUPS = '/v6/api/subscriberManagement/subscriberGroups';
const SUBSCRIBERS = '/v6/api/subscriberManagement/subscribers';
const ACCOUNT = '/v6/api/accountManagement/account';
const TEMPORARY = 'a temporary password of the admin';
const OWN = 'my very own secret password';
const NOW = Date.parse('2026-05-21T07:00:00Z');

async function signIn(server: TestServer, login: string, password: string) {
  const response = await new Client(server.baseUrl, null).post('/workspace/api/session', { login, password });
  return { status: response.status, cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: response.body.csrfToken as string, body: response.body };
}

/** A client of /v6/api with a workspace session's cookie and CSRF token. */
function cookieClient(server: TestServer, session: { cookie: string; csrf: string }) {
  const client = new Client(server.baseUrl, null);
  const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
  return {
    get: (path: string) => client.get(path, headers),
    post: (path: string, body?: unknown) => client.post(path, body, headers),
    patch: (path: string, body?: unknown) => client.patch(path, body, headers),
    put: (path: string, body?: unknown) => client.put(path, body, headers),
    delete: (path: string) => client.delete(path, headers),
  };
}

for (const dialect of dialects) {
  describe(`users and tokens (${dialect})`, () => {
    let server: TestServer;
    let north: number;
    let south: number;
    before(async () => {
      server = await startServer(dialect, { now: NOW });
      north = (await server.api.post(GROUPS, { name: 'North' })).body.subscriberGroupID;
      south = (await server.api.post(GROUPS, { name: 'South' })).body.subscriberGroupID;
    });
    after(() => server.close());

    it('the account’s first user and first token are admins; the token is named First token', async () => {
      const users = await server.api.get(USERS);
      assert.equal(users.status, 200, users.text);
      assert.deepEqual(
        users.body.map((u: any) => [u.login, u.role, u.subscriberGroupIDs, u.isActive]),
        [[`admin@${server.account.id}`, 'admin', null, true]],
      );
      const tokens = await server.api.get(TOKENS);
      assert.equal(tokens.status, 200);
      assert.equal(tokens.body.length, 1);
      const [first] = tokens.body;
      assert.deepEqual([first.name, first.role, first.subscriberGroupIDs, first.isRevoked], ['First token', 'admin', null, false]);
      assert.equal('token' in first, false, 'the value is never listed');
      assert.equal(first.lastUsedDate, '2026-05-21T07:00:00+00:00', 'the list request itself used it');
    });

    it('an admin adds a dispatcher limited to a group; a temporary password must be changed before anything else', async () => {
      const created = await server.api.post(USERS, { login: 'anna', name: 'Anna Petrova', role: 'dispatcher', subscriberGroupIDs: [north], password: TEMPORARY });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('location'), `${USERS}/${created.body.userID}`);
      assert.deepEqual(created.body, {
        userID: created.body.userID,
        login: 'anna',
        name: 'Anna Petrova',
        role: 'dispatcher',
        subscriberGroupIDs: [north],
        isActive: true,
        lastSignInDate: null,
      });
      assert.deepEqual((await server.api.get(`${USERS}/${created.body.userID}`)).body, created.body);

      const session = await signIn(server, 'anna', TEMPORARY);
      assert.equal(session.status, 200);
      assert.deepEqual([session.body.role, session.body.subscriberGroupIDs, session.body.mustChangePassword], ['dispatcher', [north], true]);
      const anna = cookieClient(server, session);
      const refused = await anna.get(SUBSCRIBERS);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 1025);
      assert.equal(refused.body.description, 'NOT_PERMITTED');

      const changed = await anna.put('/workspace/api/password', { currentPassword: TEMPORARY, newPassword: OWN });
      assert.equal(changed.status, 204, changed.text);
      assert.equal((await anna.get(SUBSCRIBERS)).status, 200);
      const read = (await server.api.get(`${USERS}/${created.body.userID}`)).body;
      assert.equal(read.lastSignInDate, '2026-05-21T07:00:00+00:00');
      // A dispatcher changes employees, but not users, tokens or the account.
      assert.equal((await anna.post(SUBSCRIBERS, { name: 'Courier' })).status, 201);
      for (const [method, path, body] of [
        ['post', USERS, { login: 'x', role: 'admin', password: TEMPORARY }],
        ['post', TOKENS, { name: 'x', role: 'admin' }],
        ['patch', ACCOUNT, { name: 'Taken over' }],
        ['get', USERS, undefined],
      ] as const) {
        const response = method === 'get' ? await anna.get(path) : await anna[method](path, body);
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.equal(response.body.code, 1025);
      }
      assert.equal((await server.api.get(ACCOUNT)).body.name, 'Test account');
      assert.equal((await server.api.get(USERS)).body.length, 2);
    });

    it('refuses a taken login, a short password, a group of no one and a role that does not exist, adding no one', async () => {
      const stranger = await server.newAccount();
      const foreignGroup = (await stranger.api.post(GROUPS, { name: 'Theirs' })).body.subscriberGroupID;
      const before = (await server.api.get(USERS)).body;
      const cases: [Record<string, unknown>, number, number][] = [
        [{ login: 'anna', role: 'viewer', password: TEMPORARY }, 409, 1008],
        [{ login: 'bob', role: 'viewer', password: 'short' }, 400, 2],
        [{ login: 'bob', role: 'viewer', password: TEMPORARY, subscriberGroupIDs: [foreignGroup] }, 400, 2],
        [{ login: 'bob', role: 'owner', password: TEMPORARY }, 400, 2],
        [{ login: 'bob', password: TEMPORARY }, 400, 52],
      ];
      for (const [body, status, code] of cases) {
        const response = await server.api.post(USERS, body);
        assert.equal(response.status, status, `${JSON.stringify(body)}: ${response.text}`);
        assert.equal(response.body.code, code, JSON.stringify(body));
      }
      assert.deepEqual((await server.api.get(USERS)).body, before);
      // Another account's user is not there.
      const theirs = (await stranger.api.get(USERS)).body[0].userID;
      assert.equal((await server.api.get(`${USERS}/${theirs}`)).status, 404);
      assert.equal((await server.api.get(`${USERS}/${theirs}`)).body.code, 1026);
      assert.equal((await server.api.delete(`${USERS}/${theirs}`)).status, 404);
      assert.equal((await stranger.api.get(`${USERS}/${theirs}`)).status, 200);
    });

    it('keeps the last active admin: it cannot be removed, turned off or demoted', async () => {
      const admin = (await server.api.get(USERS)).body.find((u: any) => u.role === 'admin');
      const before = (await server.api.get(USERS)).body;
      for (const [method, body] of [['delete', undefined], ['patch', { isActive: false }], ['patch', { role: 'viewer' }]] as const) {
        const response = method === 'delete' ? await server.api.delete(`${USERS}/${admin.userID}`) : await server.api.patch(`${USERS}/${admin.userID}`, body);
        assert.equal(response.status, 409, `${method} ${JSON.stringify(body)}`);
        assert.equal(response.body.code, 1008);
      }
      assert.deepEqual((await server.api.get(USERS)).body, before);

      // With a second admin, the first may go.
      const second = await server.api.post(USERS, { login: 'second.admin', role: 'admin', password: TEMPORARY });
      assert.equal((await server.api.patch(`${USERS}/${admin.userID}`, { role: 'viewer' })).status, 204);
      assert.equal((await server.api.patch(`${USERS}/${second.body.userID}`, { isActive: false })).status, 409, 'now the second is the last');
      assert.equal((await server.api.patch(`${USERS}/${admin.userID}`, { role: 'admin' })).status, 204);
      assert.equal((await server.api.delete(`${USERS}/${second.body.userID}`)).status, 204);
      assert.equal((await server.api.get(`${USERS}/${second.body.userID}`)).status, 404);
    });

    it('a turned-off user is signed out and cannot sign in; a new temporary password ends the sessions', async () => {
      const created = await server.api.post(USERS, { login: 'victor', role: 'viewer', password: TEMPORARY });
      const id = created.body.userID;
      const first = await signIn(server, 'victor', TEMPORARY);
      await cookieClient(server, first).put('/workspace/api/password', { currentPassword: TEMPORARY, newPassword: OWN });
      const session = await signIn(server, 'victor', OWN);
      const victor = cookieClient(server, session);
      assert.equal((await victor.get(SUBSCRIBERS)).status, 200);

      assert.equal((await server.api.patch(`${USERS}/${id}`, { isActive: false })).status, 204);
      assert.equal((await victor.get(SUBSCRIBERS)).status, 401);
      assert.equal((await signIn(server, 'victor', OWN)).status, 401);

      assert.equal((await server.api.patch(`${USERS}/${id}`, { isActive: true, password: 'another temporary password' })).status, 204);
      assert.equal((await signIn(server, 'victor', OWN)).status, 401, 'the old password is gone');
      const again = await signIn(server, 'victor', 'another temporary password');
      assert.equal(again.body.mustChangePassword, true);

      assert.equal((await server.api.delete(`${USERS}/${id}`)).status, 204);
      assert.equal((await cookieClient(server, again).get('/workspace/api/session')).status, 401);
      assert.equal((await signIn(server, 'victor', 'another temporary password')).status, 401);
    });

    it('issues a token shown once, with its role and scope; revoking it refuses its next request', async () => {
      const created = await server.api.post(TOKENS, { name: 'Warehouse system', role: 'viewer', subscriberGroupIDs: [south, north] });
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.token, /^lk_[\w-]{40,}$/);
      assert.equal(created.headers.get('location'), `${TOKENS}/${created.body.tokenID}`);
      assert.deepEqual(
        [created.body.name, created.body.role, created.body.subscriberGroupIDs, created.body.isRevoked, created.body.lastUsedDate],
        ['Warehouse system', 'viewer', [north, south].sort((a, b) => a - b), false, null],
      );
      const listed = (await server.api.get(TOKENS)).body.find((t: any) => t.tokenID === created.body.tokenID);
      assert.equal(listed.token, undefined, 'the value is shown once');

      const warehouse = server.api.withToken(created.body.token);
      assert.equal((await warehouse.get(SUBSCRIBERS)).status, 200);
      const write = await warehouse.post(SUBSCRIBERS, { name: 'Not allowed' });
      assert.equal(write.status, 403);
      assert.equal(write.body.code, 1025);

      assert.equal((await server.api.patch(`${TOKENS}/${created.body.tokenID}`, { role: 'dispatcher', name: 'Warehouse' })).status, 204);
      assert.equal((await warehouse.post(SUBSCRIBERS, { name: 'Now allowed' })).status, 201, 'the new role holds from the next request');

      assert.equal((await server.api.delete(`${TOKENS}/${created.body.tokenID}`)).status, 204);
      const refused = await warehouse.get(SUBSCRIBERS);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 1);
      const revoked = (await server.api.get(TOKENS)).body.find((t: any) => t.tokenID === created.body.tokenID);
      assert.deepEqual([revoked.name, revoked.role, revoked.isRevoked], ['Warehouse', 'dispatcher', true]);
      assert.equal((await server.api.delete(`${TOKENS}/${created.body.tokenID}`)).status, 204, 'revoking again changes nothing');
    });

    it('a revoke made on one server refuses the token on another at its next request', async () => {
      const other = await startServer(dialect, { database: { database: server.database, url: '', drop: async () => {} }, now: NOW });
      try {
        const created = await server.api.post(TOKENS, { name: 'Both servers', role: 'viewer' });
        const onOther = new Client(other.baseUrl, created.body.token);
        assert.equal((await onOther.get(SUBSCRIBERS)).status, 200);
        assert.equal((await server.api.delete(`${TOKENS}/${created.body.tokenID}`)).status, 204);
        assert.equal((await onOther.get(SUBSCRIBERS)).status, 401);
      } finally {
        await other.app.close();
      }
    });

    it('moves lastUsedDate at most once a minute', async () => {
      const created = await server.api.post(TOKENS, { name: 'Clocked', role: 'viewer' });
      const client = server.api.withToken(created.body.token);
      const lastUsed = async () => (await server.api.get(TOKENS)).body.find((t: any) => t.tokenID === created.body.tokenID).lastUsedDate;
      server.setNow(NOW + 1_000);
      await client.get(SUBSCRIBERS);
      assert.equal(await lastUsed(), '2026-05-21T07:00:01+00:00');
      server.setNow(NOW + 30_000);
      await client.get(SUBSCRIBERS);
      assert.equal(await lastUsed(), '2026-05-21T07:00:01+00:00', 'not again within the minute');
      server.setNow(NOW + 62_000);
      await client.get(SUBSCRIBERS);
      assert.equal(await lastUsed(), '2026-05-21T07:01:02+00:00');
      server.setNow(NOW);
    });

    it('refuses a token scope naming another account’s group, and an unknown token, changing nothing', async () => {
      const stranger = await server.newAccount();
      const foreignGroup = (await stranger.api.post(GROUPS, { name: 'Theirs' })).body.subscriberGroupID;
      const before = (await server.api.get(TOKENS)).body;
      const refused = await server.api.post(TOKENS, { name: 'Bad scope', role: 'viewer', subscriberGroupIDs: [foreignGroup] });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.validationErrors, { subscriberGroupIDs: `no subscriber group ${foreignGroup}` });
      const theirs = (await stranger.api.get(TOKENS)).body[0].tokenID;
      assert.equal((await server.api.patch(`${TOKENS}/${theirs}`, { role: 'viewer' })).status, 404);
      assert.equal((await server.api.delete(`${TOKENS}/${theirs}`)).body.code, 1027);
      assert.deepEqual((await server.api.get(TOKENS)).body, before);
      assert.equal((await stranger.api.get(TOKENS)).body[0].isRevoked, false);
    });
  });
}
