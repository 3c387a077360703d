// Roles are checked by one hook from each route's declared permission: every route of /v6/api and
// /workspace/api declares one, and a viewer's (or a dispatcher's, where only admins may) write to
// any of them is 403 code 1025 and changes nothing (CONTRACT §7).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHECKED_PREFIXES } from '../../src/accounts/accounts.js';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/** Routes outside the role check, each authenticated its own way or not at all. */
const UNCHECKED = [
  /^\/admin\/v1\//, // the operator's token
  /^\/mobile\/v1\//, // the employee's device key
  /^\/(health|ready|metrics)$/,
  /^\/v6\/(openapi\.json|docs)/,
  /^\/docs\b/, // the documentation site
  /^\/(\*|m\/|$|assets\/|index\.html|favicon|\w[\w.-]*\.\w+$)/, // the built workspace's files
];
const READS = new Set(['GET', 'HEAD']);
const NOW = Date.parse('2026-05-21T07:00:00Z');

for (const dialect of dialects) {
  describe(`role checks on every route (${dialect})`, () => {
    let server: TestServer;
    const ids: Record<string, number> = {};
    before(async () => {
      server = await startServer(dialect, { now: NOW });
      ids.subscriberGroupID = (await server.api.post('/v6/api/subscriberManagement/subscriberGroups', { name: 'North' })).body.subscriberGroupID;
      ids.subscriberID = await createEmployee(server.api, { subscriberGroupID: ids.subscriberGroupID });
      ids.zoneGroupID = (await server.api.post('/v6/api/zoneManagement/zoneGroups', { name: 'Depots' })).body.zoneGroupID;
      ids.taskID = (await server.api.post('/v6/api/taskManagement/tasks', { title: 'Deliver', subscriberID: ids.subscriberID })).body.taskID;
      ids.userID = (await server.api.get('/v6/api/userManagement/users')).body[0].userID;
      ids.tokenID = (await server.api.get('/v6/api/userManagement/tokens')).body[0].tokenID;
    });
    after(() => server.close());

    const checkedRoutes = () => server.services.accounts.routePermissions.routes.filter((r) => CHECKED_PREFIXES.some((p) => r.url.startsWith(p)));

    it('every route declares who may call it, or is one of the routes authenticated otherwise', () => {
      const routes = server.services.accounts.routePermissions.routes;
      assert.ok(routes.length > 100, `the routes were recorded (${routes.length})`);
      const undeclared = routes.filter((r) => CHECKED_PREFIXES.some((p) => r.url.startsWith(p)) && r.permission === undefined);
      assert.deepEqual(undeclared.map((r) => `${r.method} ${r.url}`), [], 'routes without config.permission');
      const unknown = routes.filter((r) => !CHECKED_PREFIXES.some((p) => r.url.startsWith(p)) && !UNCHECKED.some((pattern) => pattern.test(r.url)));
      assert.deepEqual(unknown.map((r) => `${r.method} ${r.url}`), [], 'routes neither checked nor known to authenticate otherwise');
      const writesForEveryone = checkedRoutes().filter((r) => r.url.startsWith('/v6/api/') && !READS.has(r.method) && r.permission === 'view');
      assert.deepEqual(writesForEveryone.map((r) => `${r.method} ${r.url}`), [], 'a /v6/api write a viewer may make');
    });

    /** What the account has, read by its admin: every list of /v6/api that needs no parameter. */
    async function everything(): Promise<Record<string, unknown>> {
      const lists = checkedRoutes().filter((r) => r.method === 'GET' && r.url.startsWith('/v6/api/') && !r.url.includes(':'));
      const read: Record<string, unknown> = {};
      for (const route of lists) {
        const response = await server.api.get(route.url);
        read[route.url] = [response.status, response.body];
      }
      return read;
    }

    const pathOf = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => String(ids[name] ?? 1));

    for (const [role, forbidden] of [
      ['viewer', (permission: string) => permission === 'edit' || permission === 'admin'],
      ['dispatcher', (permission: string) => permission === 'admin'],
    ] as const) {
      it(`a ${role}'s token is refused every write it may not make, with 403 code 1025, and nothing changes`, async () => {
        const created = await server.api.post('/v6/api/userManagement/tokens', { name: `${role} token`, role });
        assert.equal(created.status, 201, created.text);
        const client = server.api.withToken(created.body.token);
        // Its first use is recorded now; within the minute no other use moves it.
        assert.equal((await client.get('/v6/api/subscriberManagement/subscribers')).status, 200);
        const before = await everything();
        const refused = checkedRoutes().filter((r) => r.url.startsWith('/v6/api/') && r.permission !== undefined && forbidden(r.permission));
        assert.ok(refused.length > (role === 'viewer' ? 60 : 8), `${refused.length} routes`);
        const wrong: string[] = [];
        for (const route of refused) {
          const path = pathOf(route.url);
          const response = await client.request(route.method, path, READS.has(route.method) ? undefined : {});
          // HEAD answers have no body: the status says it.
          const code = route.method === 'HEAD' ? 1025 : response.body?.code;
          if (response.status !== 403 || code !== 1025) wrong.push(`${route.method} ${route.url}: ${response.status} ${response.text.slice(0, 120)}`);
        }
        assert.deepEqual(wrong, [], 'routes that did not answer 403 code 1025');
        assert.deepEqual(await everything(), before, 'nothing changed');
      });
    }

    it('a viewer signed in to the workspace is refused the same writes with the cookie, and may read', async () => {
      const password = 'a temporary password of the admin';
      await server.api.post('/v6/api/userManagement/users', { login: 'viewer.vera', role: 'viewer', password });
      const base = server.api.withToken(null);
      const first = await base.post('/workspace/api/session', { login: 'viewer.vera', password });
      const firstCookie = { cookie: (first.headers.get('set-cookie') ?? '').split(';')[0]!, 'x-csrf-token': first.body.csrfToken };
      assert.equal((await base.put('/workspace/api/password', { currentPassword: password, newPassword: 'vera’s own long password' }, firstCookie)).status, 204);
      const headers = firstCookie;
      assert.equal((await base.get('/v6/api/subscriberManagement/subscribers', headers)).status, 200);
      const before = await everything();
      const writes = checkedRoutes().filter((r) => r.url.startsWith('/v6/api/') && !READS.has(r.method));
      const wrong: string[] = [];
      for (const route of writes) {
        const response = await base.request(route.method, pathOf(route.url), {}, headers);
        if (response.status !== 403 || response.body?.code !== 1025) wrong.push(`${route.method} ${route.url}: ${response.status}`);
      }
      assert.deepEqual(wrong, []);
      assert.deepEqual(await everything(), before, 'nothing changed');
    });
  });
}
