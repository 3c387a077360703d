import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, Client, createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const PASSWORD = 'a long enough password';

/** Signs in over HTTP; returns the cookie header and the CSRF token. */
async function signIn(server: TestServer, login: string, password = PASSWORD) {
  const response = await new Client(server.baseUrl, null).post('/workspace/api/session', { login, password });
  assert.equal(response.status, 200, response.text);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0]!, setCookie, csrf: response.body.csrfToken as string, body: response.body };
}

for (const dialect of dialects) {
  describe(`workspace sign-in (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
      await server.services.accounts.createUser(server.account.id, 'coordinator', PASSWORD);
    });
    after(() => server.close());

    test('a coordinator signs in and gets an HttpOnly, SameSite=Strict session cookie', async () => {
      const { setCookie, body } = await signIn(server, 'coordinator');
      assert.match(setCookie, /^lokator_session=[\w-]{40,};/);
      assert.match(setCookie, /HttpOnly/);
      assert.match(setCookie, /SameSite=Strict/);
      assert.equal(body.login, 'coordinator');
      assert.deepEqual(body.account, { accountID: server.account.id, name: 'Test account', timeZone: 'UTC', smsEnabled: false });
      assert.equal(body.map.tileUrl, 'https://tile.openstreetmap.org/{z}/{x}/{y}.png');
      // Where phones and trackers report, for the connection settings of the Employees tab: the defaults here.
      assert.deepEqual(
        body.devices.map((d: any) => [d.protocol, d.port, d.portSetting, d.password]),
        [
          ['osmand', 5055, 'OSMAND_PORT', false],
          ['egts', 5162, 'EGTS_PORT', true],
          ['wialonIps', 5039, 'WIALON_IPS_PORT', true],
          ['teltonika', 5027, 'TELTONIKA_PORT', false],
        ],
      );
    });

    test('a wrong password or an unknown login is a 401 envelope and sets no cookie', async () => {
      const anonymous = new Client(server.baseUrl, null);
      for (const body of [{ login: 'coordinator', password: 'wrong password' }, { login: 'nobody', password: PASSWORD }]) {
        const response = await anonymous.post('/workspace/api/session', body);
        assert.equal(response.status, 401);
        assert.equal(response.body.code, 1);
        assert.equal(response.headers.get('set-cookie'), null);
      }
      const missing = await anonymous.post('/workspace/api/session', { login: 'coordinator' });
      assert.equal(missing.status, 400);
    });

    test('the session cookie reads the account through /v6/api', async () => {
      const employeeID = await createEmployee(server.api, { name: 'Seen through the cookie' });
      const { cookie } = await signIn(server, 'coordinator');
      const cookieClient = new Client(server.baseUrl, null);
      const renewed = await cookieClient.get('/workspace/api/session', { cookie });
      assert.equal(renewed.status, 200);
      assert.match(renewed.headers.get('set-cookie') ?? '', new RegExp(`^${cookie}; Max-Age=604800; Path=/; HttpOnly; SameSite=Strict`), 'reading the session renews the cookie');
      const listed = await cookieClient.get(`${SUBSCRIBERS}/${employeeID}`, { cookie });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.name, 'Seen through the cookie');
    });

    test('a change made with the cookie needs the CSRF token, and changes nothing without it', async () => {
      const { cookie, csrf } = await signIn(server, 'coordinator');
      const cookieClient = new Client(server.baseUrl, null);
      const before = (await server.api.get(SUBSCRIBERS)).body.length;
      const forged = await cookieClient.post(SUBSCRIBERS, { name: 'Forged' }, { cookie });
      assert.equal(forged.status, 403);
      assert.equal(forged.body.code, 1016);
      const wrong = await cookieClient.post(SUBSCRIBERS, { name: 'Forged' }, { cookie, 'x-csrf-token': 'not-the-token' });
      assert.equal(wrong.status, 403);
      assert.equal((await server.api.get(SUBSCRIBERS)).body.length, before);
      const made = await cookieClient.post(SUBSCRIBERS, { name: 'Made in the workspace' }, { cookie, 'x-csrf-token': csrf });
      assert.equal(made.status, 201);
    });

    test('another account’s session sees none of this account’s data', async () => {
      const employeeID = await createEmployee(server.api, { name: 'Private' });
      const other = await server.newAccount();
      await server.services.accounts.createUser(other.account.id, 'stranger', PASSWORD);
      const { cookie } = await signIn(server, 'stranger');
      const cookieClient = new Client(server.baseUrl, null);
      assert.equal((await cookieClient.get(`${SUBSCRIBERS}/${employeeID}`, { cookie })).status, 404);
      assert.deepEqual((await cookieClient.get(SUBSCRIBERS, { cookie })).body, []);
    });

    test('signing out ends the session on the server', async () => {
      const { cookie, csrf } = await signIn(server, 'coordinator');
      const cookieClient = new Client(server.baseUrl, null);
      assert.equal((await cookieClient.delete('/workspace/api/session', { cookie })).status, 403);
      const out = await cookieClient.delete('/workspace/api/session', { cookie, 'x-csrf-token': csrf });
      assert.equal(out.status, 204);
      assert.equal((await cookieClient.get('/workspace/api/session', { cookie })).status, 401);
      assert.equal((await cookieClient.get(SUBSCRIBERS, { cookie })).status, 401);
    });

    test('a user changes their password: the current one is checked, other sessions end', async () => {
      await server.services.accounts.createUser(server.account.id, 'changer', PASSWORD);
      const here = await signIn(server, 'changer');
      const elsewhere = await signIn(server, 'changer');
      const cookieClient = new Client(server.baseUrl, null);
      const change = (body: object, headers: Record<string, string>) => cookieClient.put('/workspace/api/password', body, headers);
      const newPassword = 'another long password';
      assert.equal((await change({ currentPassword: PASSWORD, newPassword }, { cookie: here.cookie })).status, 403);
      const wrong = await change({ currentPassword: 'not it', newPassword }, { cookie: here.cookie, 'x-csrf-token': here.csrf });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.validationErrors.currentPassword, 'is not the current password');
      const short = await change({ currentPassword: PASSWORD, newPassword: 'short' }, { cookie: here.cookie, 'x-csrf-token': here.csrf });
      assert.equal(short.status, 400);
      assert.equal((await change({ currentPassword: PASSWORD, newPassword }, { cookie: here.cookie, 'x-csrf-token': here.csrf })).status, 204);
      assert.equal((await cookieClient.get('/workspace/api/session', { cookie: here.cookie })).status, 200);
      assert.equal((await cookieClient.get('/workspace/api/session', { cookie: elsewhere.cookie })).status, 401);
      assert.equal((await cookieClient.post('/workspace/api/session', { login: 'changer', password: PASSWORD })).status, 401);
      await signIn(server, 'changer', newPassword);
    });

    test('five wrong passwords lock the login for a while with 429 and Retry-After', async () => {
      await server.services.accounts.createUser(server.account.id, 'guessed', PASSWORD);
      const anonymous = new Client(server.baseUrl, null);
      for (let i = 0; i < 5; i += 1) {
        assert.equal((await anonymous.post('/workspace/api/session', { login: 'guessed', password: `guess ${i}` })).status, 401);
      }
      const locked = await anonymous.post('/workspace/api/session', { login: 'guessed', password: PASSWORD });
      assert.equal(locked.status, 429);
      assert.equal(locked.body.code, 1012);
      assert.ok(Number(locked.headers.get('retry-after')) > 0);
    });

    test('wrong passwords sent at once count each: parallel guesses do not slip past the lock', async () => {
      await server.services.accounts.createUser(server.account.id, 'raced', PASSWORD);
      const anonymous = new Client(server.baseUrl, null);
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => anonymous.post('/workspace/api/session', { login: 'raced', password: `guess ${i}` })),
      );
      assert.equal(guesses.filter((g) => g.status === 401).length, 5);
      assert.ok(guesses.every((g) => g.status === 401 || g.status === 429));
      assert.equal((await anonymous.post('/workspace/api/session', { login: 'raced', password: PASSWORD })).status, 429);
    });

    test('wrong current passwords at a password change count like wrong sign-ins: the sixth try is a 429', async () => {
      await server.services.accounts.createUser(server.account.id, 'held-session', PASSWORD);
      const { cookie, csrf } = await signIn(server, 'held-session');
      const cookieClient = new Client(server.baseUrl, null);
      const change = (currentPassword: string) =>
        cookieClient.put('/workspace/api/password', { currentPassword, newPassword: 'taken over for good' }, { cookie, 'x-csrf-token': csrf });
      for (let i = 0; i < 5; i += 1) assert.equal((await change(`guess ${i}`)).status, 400);
      const locked = await change(PASSWORD);
      assert.equal(locked.status, 429);
      assert.ok(Number(locked.headers.get('retry-after')) > 0);
      assert.equal((await cookieClient.post('/workspace/api/session', { login: 'held-session', password: 'taken over for good' })).status, 401);
    });

    test('the operator adds workspace users to an account; logins are unique', async () => {
      const operator = new Client(server.baseUrl, ADMIN_TOKEN);
      const created = await operator.post(`/admin/v1/accounts/${server.account.id}/users`, { login: 'dispatcher', password: PASSWORD });
      assert.equal(created.status, 201);
      assert.equal(created.body.accountID, server.account.id);
      const { body } = await signIn(server, 'dispatcher');
      assert.equal(body.account.accountID, server.account.id);
      const taken = await operator.post(`/admin/v1/accounts/${server.account.id}/users`, { login: 'dispatcher', password: PASSWORD });
      assert.equal(taken.status, 409);
      const short = await operator.post(`/admin/v1/accounts/${server.account.id}/users`, { login: 'x', password: 'short' });
      assert.equal(short.status, 400);
    });

    test('the operator turns the SMS option on; the workspace and the rules see it at once', async () => {
      const operator = new Client(server.baseUrl, ADMIN_TOKEN);
      const other = await server.newAccount();
      await server.services.accounts.createUser(other.account.id, 'sms-user', PASSWORD);
      const rule = { name: 'Speeding by SMS', kind: 1, parameters: { speedLimit: 90 }, smsPhones: ['79001234567'] };
      assert.equal((await other.api.post('/v6/api/eventManagement/events', rule)).status, 400);
      const on = await operator.patch(`/admin/v1/accounts/${other.account.id}`, { smsEnabled: true });
      assert.equal(on.status, 200);
      assert.equal(on.body.smsEnabled, true);
      assert.equal((await signIn(server, 'sms-user')).body.account.smsEnabled, true);
      assert.equal((await other.api.post('/v6/api/eventManagement/events', rule)).status, 201);
      assert.equal((await operator.patch('/admin/v1/accounts/999999', { smsEnabled: true })).status, 404);
      assert.equal((await operator.patch(`/admin/v1/accounts/${other.account.id}`, { smsEnabled: 'yes' })).status, 400);
    });

    test('the live stream sends the latest positions, then each new fix', { timeout: 30_000 }, async () => {
      const employeeID = await createEmployee(server.api, { name: 'Driver' });
      await server.api.post(LOCATIONS, [{ subscriberID: employeeID, locationDate: '2026-11-20T10:00:00Z', latitude: 55.7, longitude: 37.6 }]);
      const { cookie } = await signIn(server, 'coordinator');
      const controller = new AbortController();
      const response = await fetch(`${server.baseUrl}/workspace/api/live`, { headers: { cookie }, signal: controller.signal });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const events: any[][] = [];
      let buffer = '';
      const nextEvent = async () => {
        for (;;) {
          const end = buffer.indexOf('\n\n');
          if (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (block.includes('event: positions') && data) return JSON.parse(data.slice(6)) as any[];
            continue;
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('stream ended');
          buffer += value;
        }
      };
      events.push(await nextEvent());
      const mine = events[0]!.find((p) => p.subscriberID === employeeID);
      assert.equal(mine.latitude, 55.7);
      await server.api.post(LOCATIONS, [{ subscriberID: employeeID, locationDate: '2026-11-20T10:01:00Z', latitude: 55.71, longitude: 37.61, velocity: 42 }]);
      const pushed = await nextEvent();
      assert.deepEqual(
        pushed.map(({ subscriberID, latitude, longitude, velocity }) => ({ subscriberID, latitude, longitude, velocity })),
        [{ subscriberID: employeeID, latitude: 55.71, longitude: 37.61, velocity: 42 }],
      );
      controller.abort();
      await reader.cancel().catch(() => {});
    });

    test('the live stream ends when its session ends: signed out, or another session changed the password', { timeout: 30_000 }, async () => {
      await server.services.accounts.createUser(server.account.id, 'watcher', PASSWORD);
      const streamEnds = async (cookie: string) => {
        const response = await fetch(`${server.baseUrl}/workspace/api/live`, { headers: { cookie } });
        assert.equal(response.status, 200);
        const reader = response.body!.getReader();
        return async () => {
          const timeout = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 3000).unref());
          const drained = (async () => {
            for (;;) if ((await reader.read()).done) return 'ended' as const;
          })();
          const outcome = await Promise.race([drained, timeout]);
          await reader.cancel().catch(() => {});
          return outcome;
        };
      };
      const cookieClient = new Client(server.baseUrl, null);
      const first = await signIn(server, 'watcher');
      const firstEnded = await streamEnds(first.cookie);
      assert.equal((await cookieClient.delete('/workspace/api/session', { cookie: first.cookie, 'x-csrf-token': first.csrf })).status, 204);
      assert.equal(await firstEnded(), 'ended');

      const here = await signIn(server, 'watcher');
      const elsewhere = await signIn(server, 'watcher');
      const elsewhereEnded = await streamEnds(elsewhere.cookie);
      const change = await cookieClient.put(
        '/workspace/api/password',
        { currentPassword: PASSWORD, newPassword: 'a newer long password' },
        { cookie: here.cookie, 'x-csrf-token': here.csrf },
      );
      assert.equal(change.status, 204);
      assert.equal(await elsewhereEnded(), 'ended');
    });

    test('a live stream whose first read fails ends, and leaves no listener behind', { timeout: 30_000 }, async () => {
      const { cookie } = await signIn(server, 'coordinator');
      const locations = server.services.positioning;
      const latestOfEach = locations.latestOfEach.bind(locations);
      locations.latestOfEach = async () => {
        throw new Error('the database is away');
      };
      try {
        const response = await fetch(`${server.baseUrl}/workspace/api/live`, { headers: { cookie } });
        const reader = response.body!.getReader();
        const timeout = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 3000).unref());
        const drained = (async () => {
          for (;;) if ((await reader.read()).done) return 'ended' as const;
        })();
        assert.equal(await Promise.race([drained, timeout]), 'ended');
        await reader.cancel().catch(() => {});
      } finally {
        locations.latestOfEach = latestOfEach;
      }
      // The feed's own record of open streams (private: nothing else shows it).
      assert.equal((server.services.workspace.live as unknown as { listeners: Map<number, unknown> }).listeners.size, 0);
    });

    test('the live stream is refused without a session', async () => {
      const response = await new Client(server.baseUrl, null).get('/workspace/api/live');
      assert.equal(response.status, 401);
      assert.equal(response.body.code, 1);
    });
  });
}
