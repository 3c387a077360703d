import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { FIRST_TOKEN_NAME } from '../../src/accounts/accounts.js';
import { dialects } from '../helpers/stores.js';

/**
 * The audit log: every change of the account's objects and settings, and every sign-in, with who
 * made it (a token or a user), from where, and the fields before and after; secrets never.
 */

const PASSWORD = 'a long enough password';
const AUDIT = '/v6/api/accountManagement/auditLog';
const DAY = 86_400_000;
const T0 = Date.parse('2026-06-01T09:00:00Z');

async function signIn(server: TestServer, login: string, password = PASSWORD) {
  const response = await new Client(server.baseUrl, null).post('/workspace/api/session', { login, password });
  assert.equal(response.status, 200, response.text);
  return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: response.body.csrfToken as string, userID: response.body.userID as number };
}

for (const dialect of dialects) {
  describe(`audit log (${dialect})`, () => {
    let server: TestServer;
    let tokenID: number;
    const secrets: string[] = [PASSWORD];
    before(async () => {
      server = await startServer(dialect, { now: T0 });
      await server.services.accounts.createUser(server.account.id, 'anna', PASSWORD);
      const token = await server.database.db.selectFrom('api_tokens').select('id').where('account_id', '=', server.account.id).executeTakeFirstOrThrow();
      tokenID = token.id;
      secrets.push(server.token);
    });
    after(() => server.close());

    const entries = async (query = '') => {
      const response = await server.api.get(`${AUDIT}${query}`);
      assert.equal(response.status, 200, response.text);
      return response;
    };

    test('changes of employees, groups, zones, map objects, rules, tasks, settings and secrets, each with before and after', async () => {
      const api = server.api;
      const group = await api.post('/v6/api/subscriberManagement/subscriberGroups', { name: 'North' });
      assert.equal(group.status, 201, group.text);
      const employee = await api.post(SUBSCRIBERS, { name: 'Ivan Petrov', deviceProtocol: 'egts', deviceKey: '866000000000123', devicePassword: 'pw-secret-456' });
      assert.equal(employee.status, 201, employee.text);
      secrets.push('866000000000123', 'pw-secret-456');
      const id = employee.body.subscriberID as number;
      assert.equal((await api.patch(`${SUBSCRIBERS}/${id}`, { name: 'Ivan S. Petrov', devicePassword: 'pw-secret-789' })).status, 200);
      secrets.push('pw-secret-789');
      const zone = await api.post('/v6/api/zoneManagement/zones', { name: 'Depot', bounds: [{ latitude: 55, longitude: 37 }, { latitude: 55.1, longitude: 37 }, { latitude: 55.1, longitude: 37.1 }] });
      assert.equal(zone.status, 201, zone.text);
      assert.equal((await api.patch(`/v6/api/zoneManagement/zones/${zone.body.zoneID}`, { color: 255 })).status, 204);
      const zoneGroup = await api.post('/v6/api/zoneManagement/zoneGroups', { name: 'Depots' });
      assert.equal(zoneGroup.status, 201, zoneGroup.text);
      const place = await api.post('/v6/api/mapObjectManagement/mapObjects', { name: 'Shop', latitude: 55.7, longitude: 37.6 });
      assert.equal(place.status, 201, place.text);
      assert.equal((await api.delete(`/v6/api/mapObjectManagement/mapObjects/${place.body.mapObjectID}`)).status, 204);
      const rule = await api.post('/v6/api/eventManagement/events', { name: 'Track ends', kind: 11, sendToApi: false });
      assert.equal(rule.status, 201, rule.text);
      assert.equal((await api.patch(`/v6/api/eventManagement/events/${rule.body.eventID}`, { enabled: false })).status, 204);
      const task = await api.post('/v6/api/taskManagement/tasks', { title: 'Deliver', startDate: '2026-06-01T10:00:00Z', subscriberID: id });
      assert.equal(task.status, 201, task.text);
      const firstSecret = (await api.get('/v6/api/eventManagement/signingSecret')).body.secret as string;
      const rotated = await api.post('/v6/api/eventManagement/signingSecret/rotate');
      assert.ok(rotated.status < 300, rotated.text);
      const secondSecret = (await api.get('/v6/api/eventManagement/signingSecret')).body.secret as string;
      secrets.push(firstSecret, secondSecret);
      assert.equal((await api.patch('/v6/api/accountManagement/account', { name: 'Renamed account' })).status, 204);
      assert.equal((await api.put('/v6/api/accountManagement/retention', { retentionDays: 90 })).status, 204);
      assert.equal((await api.delete(`${SUBSCRIBERS}/${id}`)).status, 204);

      const response = await entries();
      const kinds = response.body.map((entry: any) => entry.kind);
      for (const kind of [
        'subscriberGroup.create',
        'employee.create',
        'employee.update',
        'employee.delete',
        'zone.create',
        'zone.update',
        'zoneGroup.create',
        'mapObject.create',
        'mapObject.delete',
        'rule.create',
        'rule.update',
        'task.create',
        'signingSecret.rotate',
        'account.update',
      ]) {
        assert.ok(kinds.includes(kind), `${kind} missing from ${kinds.join(', ')}`);
      }
      // Newest first, by id.
      const ids = response.body.map((entry: any) => entry.auditID);
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => b - a));
      assert.equal(kinds[0], 'employee.delete');

      const update = response.body.find((entry: any) => entry.kind === 'employee.update');
      assert.equal(update.objectID, id);
      assert.deepEqual(update.changes.name, { before: 'Ivan Petrov', after: 'Ivan S. Petrov' });
      assert.deepEqual(update.actor, { kind: 'token', id: tokenID, name: FIRST_TOKEN_NAME });
      assert.equal(update.address, '127.0.0.1');
      assert.match(update.date, /^2026-06-01T09:00:00\+00:00$/);
      const zoneUpdate = response.body.find((entry: any) => entry.kind === 'zone.update');
      assert.deepEqual(zoneUpdate.changes, { color: { before: 0, after: 255 } });
      const ruleUpdate = response.body.find((entry: any) => entry.kind === 'rule.update');
      assert.deepEqual(ruleUpdate.changes.enabled, { before: true, after: false });
      const accountUpdates = response.body.filter((entry: any) => entry.kind === 'account.update');
      assert.ok(accountUpdates.some((entry: any) => entry.changes.name?.after === 'Renamed account'));
      assert.ok(accountUpdates.some((entry: any) => entry.changes.retentionDays?.after === 90));
      const deleted = response.body.find((entry: any) => entry.kind === 'employee.delete');
      assert.equal(deleted.changes.name.before, 'Ivan S. Petrov');
      assert.equal(deleted.changes.name.after, null);

      // A changed secret shows as changed, never its value: the whole answer holds none of them.
      assert.equal(update.changes.devicePassword.after, '[redacted]');
      assert.equal(response.body.find((entry: any) => entry.kind === 'signingSecret.rotate').changes.secret.after, '[redacted]');
      for (const secret of secrets) assert.ok(!response.text.includes(secret), `the audit log shows a secret (${secret.slice(0, 6)}…)`);
    });

    test('sign-ins and failed sign-ins: the user, the address and the login tried, never the password', async () => {
      const { cookie, csrf, userID } = await signIn(server, 'anna');
      const wrong = await new Client(server.baseUrl, null).post('/workspace/api/session', { login: 'anna', password: 'wrong-password-guess' });
      assert.equal(wrong.status, 401);
      // A change made with the session cookie is the user's.
      const cookieClient = new Client(server.baseUrl, null);
      const created = await cookieClient.post('/v6/api/zoneManagement/zoneGroups', { name: 'By Anna' }, { cookie, 'x-csrf-token': csrf });
      assert.equal(created.status, 201, created.text);

      const response = await entries(`?userID=${userID}`);
      const [byAnna, failed, signedIn] = response.body;
      assert.equal(byAnna.kind, 'zoneGroup.create');
      assert.deepEqual(byAnna.actor, { kind: 'user', id: userID, name: 'anna' });
      assert.deepEqual(byAnna.changes.name, { before: null, after: 'By Anna' });
      assert.equal(failed.kind, 'session.signInFailed');
      assert.deepEqual(failed.changes.login, { before: null, after: 'anna' });
      assert.equal(failed.address, '127.0.0.1');
      assert.equal(signedIn.kind, 'session.signIn');
      assert.equal(signedIn.objectID, userID);
      assert.ok(!response.text.includes('wrong-password-guess'));
      assert.ok(!response.text.includes(PASSWORD));
    });

    test('users and tokens an admin manages, each change with its actor: a token by its name; never a password or token value', async () => {
      const api = server.api;
      const desk = await api.post('/v6/api/userManagement/tokens', { name: 'Dispatch desk', role: 'dispatcher' });
      assert.equal(desk.status, 201, desk.text);
      const deskID = desk.body.tokenID as number;
      const byDesk = await api.withToken(desk.body.token).post('/v6/api/zoneManagement/zoneGroups', { name: 'By the desk' });
      assert.equal(byDesk.status, 201, byDesk.text);
      const temporary = 'boris temporary password';
      const boris = await api.post('/v6/api/userManagement/users', { login: 'boris', name: 'Boris', role: 'dispatcher', password: temporary });
      assert.equal(boris.status, 201, boris.text);
      const borisID = boris.body.userID as number;
      const reset = 'boris second temporary password';
      assert.equal((await api.patch(`/v6/api/userManagement/users/${borisID}`, { role: 'viewer', password: reset })).status, 204);
      assert.equal((await api.patch(`/v6/api/userManagement/tokens/${deskID}`, { name: 'Front desk' })).status, 204);
      assert.equal((await api.delete(`/v6/api/userManagement/tokens/${deskID}`)).status, 204);
      assert.equal((await api.delete(`/v6/api/userManagement/users/${borisID}`)).status, 204);

      const response = await entries('?count=8');
      const [userDelete, tokenRevoke, tokenUpdate, userUpdate, userCreate, zoneGroup, tokenCreate] = response.body;
      assert.equal(tokenCreate.kind, 'token.create');
      assert.equal(tokenCreate.objectID, deskID);
      assert.deepEqual(tokenCreate.changes.role, { before: null, after: 'dispatcher' });
      assert.deepEqual(tokenCreate.actor, { kind: 'token', id: tokenID, name: FIRST_TOKEN_NAME });
      assert.equal(zoneGroup.kind, 'zoneGroup.create');
      assert.deepEqual(zoneGroup.actor, { kind: 'token', id: deskID, name: 'Dispatch desk' });
      assert.equal(userCreate.kind, 'user.create');
      assert.deepEqual(userCreate.changes.login, { before: null, after: 'boris' });
      assert.deepEqual(userCreate.changes.password, { before: null, after: '[redacted]' });
      assert.equal(userUpdate.kind, 'user.update');
      assert.deepEqual(userUpdate.changes.role, { before: 'dispatcher', after: 'viewer' });
      assert.deepEqual(userUpdate.changes.password, { before: '[redacted]', after: '[redacted]' });
      assert.equal(tokenUpdate.kind, 'token.update');
      assert.deepEqual(tokenUpdate.changes, { name: { before: 'Dispatch desk', after: 'Front desk' } });
      assert.equal(tokenRevoke.kind, 'token.revoke');
      assert.deepEqual(tokenRevoke.changes, { isRevoked: { before: false, after: true } });
      assert.equal(userDelete.kind, 'user.delete');
      assert.deepEqual(userDelete.changes.login, { before: 'boris', after: null });
      for (const secret of [temporary, reset, desk.body.token as string]) assert.ok(!response.text.includes(secret), `the audit log shows a secret (${secret.slice(0, 6)}…)`);

      // The log is the admins': a dispatcher's token is refused it.
      const dispatcher = await api.post('/v6/api/userManagement/tokens', { name: 'Another desk', role: 'dispatcher' });
      const refused = await api.withToken(dispatcher.body.token).get(AUDIT);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 1025);
    });

    test('pages by lastAuditID, filters by token, kind and period, and follows the count rules', async () => {
      const all = (await entries()).body as any[];
      const firstPage = (await entries('?count=3')).body as any[];
      assert.deepEqual(firstPage, all.slice(0, 3));
      const secondPage = (await entries(`?count=3&lastAuditID=${firstPage[2].auditID}`)).body as any[];
      assert.deepEqual(secondPage, all.slice(3, 6));

      const employeeOnly = (await entries('?kind=employee')).body as any[];
      assert.deepEqual(new Set(employeeOnly.map((entry) => entry.kind)), new Set(['employee.create', 'employee.update', 'employee.delete']));
      assert.equal((await entries('?kind=employee.update')).body.length, 1);
      const byToken = (await entries(`?tokenID=${tokenID}`)).body as any[];
      assert.ok(byToken.length > 0 && byToken.every((entry) => entry.actor.kind === 'token' && entry.actor.id === tokenID));

      server.setNow(T0 + DAY);
      assert.equal((await server.api.post('/v6/api/zoneManagement/zoneGroups', { name: 'Tomorrow' })).status, 201);
      const tomorrow = (await entries('?dateFrom=2026-06-02T00:00:00Z&dateTo=2026-06-02T23:59:59Z')).body as any[];
      assert.deepEqual(tomorrow.map((entry) => entry.kind), ['zoneGroup.create']);
      assert.equal((await entries('?dateTo=2026-06-01T23:59:59Z')).body.length, all.length);

      assert.equal((await server.api.get(`${AUDIT}?count=1001`)).body.code, 67);
      assert.equal((await server.api.get(`${AUDIT}?count=0`)).body.code, 2);
      assert.equal((await server.api.get(`${AUDIT}?dateFrom=2026-06-02T00:00:00Z&dateTo=2026-06-02T23:59:59`)).body.code, 225);
      assert.equal((await server.api.get(`${AUDIT}?dateFrom=2026-06-03T00:00:00Z&dateTo=2026-06-02T00:00:00Z`)).body.code, 2);
    });

    test('another account sees none of it', async () => {
      const other = await server.newAccount();
      const response = await other.api.get(AUDIT);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, []);
    });

    test('retention removes entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
      const before = (await entries()).body.length;
      server.setNow(T0 + 365 * DAY + DAY / 2);
      const report = await server.services.retention.runOnce();
      // The day-one entries are past 365 days; the one of the second day is not.
      const left = (await entries()).body as any[];
      assert.deepEqual(left.map((entry) => entry.kind), ['zoneGroup.create']);
      assert.equal(report.auditEntries.rows, before - 1);
    });
  });
}
