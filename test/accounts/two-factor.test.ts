import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { Client, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * Two-factor sign-in (TOTP, RFC 6238): set up with a secret and one code, which gives ten one-time
 * recovery codes; with it on, no session exists before the right code; an account may require it.
 * The codes are computed here with otpauth, as an authenticator app would.
 */

const PASSWORD = 'a long enough password';
const SESSION = '/workspace/api/session';
const STEP = 30_000;
const T0 = Date.parse('2026-06-01T09:00:00Z');

const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ms });

interface Signed {
  cookie: string;
  csrf: string;
  body: any;
}

async function signIn(server: TestServer, login: string, code?: string): Promise<{ status: number; body: any; signed: Signed | null }> {
  const response = await new Client(server.baseUrl, null).post(SESSION, { login, password: PASSWORD, ...(code === undefined ? {} : { code }) });
  const setCookie = response.headers.get('set-cookie');
  const signed = response.status === 200 ? { cookie: setCookie!.split(';')[0]!, csrf: response.body.csrfToken as string, body: response.body } : null;
  if (response.status !== 200) assert.equal(setCookie, null, 'no session before the code');
  return { status: response.status, body: response.body, signed };
}

function asUser(server: TestServer, signed: Signed) {
  const client = new Client(server.baseUrl, null);
  const headers = { cookie: signed.cookie, 'x-csrf-token': signed.csrf };
  return {
    get: (path: string) => client.get(path, headers),
    post: (path: string, body?: unknown) => client.post(path, body ?? {}, headers),
    patch: (path: string, body: unknown) => client.patch(path, body, headers),
  };
}

/** Turns TOTP on for a signed-in user at `nowMs`; its secret and recovery codes. */
async function turnOn(server: TestServer, signed: Signed, nowMs: number): Promise<{ secret: string; recoveryCodes: string[] }> {
  const user = asUser(server, signed);
  const setup = await user.post('/workspace/api/twoFactor/setup');
  assert.equal(setup.status, 200, setup.text);
  assert.match(setup.body.uri, /^otpauth:\/\/totp\/.*secret=/);
  const wrong = await user.post('/workspace/api/twoFactor/enable', { code: codeAt(setup.body.secret, nowMs - 10 * STEP) });
  assert.equal(wrong.status, 400);
  const enabled = await user.post('/workspace/api/twoFactor/enable', { code: codeAt(setup.body.secret, nowMs) });
  assert.equal(enabled.status, 200, enabled.text);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}

for (const dialect of dialects) {
  describe(`two-factor sign-in (${dialect})`, () => {
    let server: TestServer;
    let now = T0;
    const tick = () => {
      now += STEP;
      server.setNow(now);
    };
    before(async () => {
      server = await startServer(dialect, { now: T0 });
      for (const login of ['anna', 'boris', 'vera']) await server.services.accounts.createUser(server.account.id, login, PASSWORD);
    });
    after(() => server.close());

    test('with TOTP on, sign-in fails without a code and with a wrong one, and succeeds with the right one', async () => {
      const first = await signIn(server, 'anna');
      assert.equal(first.status, 200);
      assert.equal(first.signed!.body.twoFactor.enabled, false);
      const { secret, recoveryCodes } = await turnOn(server, first.signed!, now);
      assert.equal(recoveryCodes.length, 10);
      assert.equal(new Set(recoveryCodes).size, 10);

      tick();
      const without = await signIn(server, 'anna');
      assert.equal(without.status, 401);
      assert.equal(without.body.validationErrors.code, 'is required');
      const wrong = await signIn(server, 'anna', codeAt(secret, now - 20 * STEP));
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.validationErrors.code, 'is wrong');
      const right = await signIn(server, 'anna', codeAt(secret, now));
      assert.equal(right.status, 200);
      assert.equal(right.signed!.body.twoFactor.enabled, true);
      assert.equal(right.signed!.body.twoFactor.recoveryCodesLeft, 10);
      // The same code again (an eavesdropper replaying it) is refused.
      assert.equal((await signIn(server, 'anna', codeAt(secret, now))).status, 401);
    });

    test('a recovery code signs in once; wrong codes are throttled like passwords', async () => {
      tick();
      const first = await signIn(server, 'boris');
      const { recoveryCodes } = await turnOn(server, first.signed!, now);
      tick();
      const code = recoveryCodes[3]!;
      const used = await signIn(server, 'boris', code.toUpperCase());
      assert.equal(used.status, 200);
      assert.equal(used.signed!.body.twoFactor.recoveryCodesLeft, 9);
      const again = await signIn(server, 'boris', code);
      assert.equal(again.status, 401);
      assert.equal(again.body.validationErrors.code, 'is wrong');

      for (let i = 0; i < 4; i += 1) assert.equal((await signIn(server, 'boris', '000000')).status, 401);
      const locked = await signIn(server, 'boris', recoveryCodes[4]!);
      assert.equal(locked.status, 429);
      assert.equal(locked.body.code, 1012);

      const audit = await server.api.get('/v6/api/accountManagement/auditLog?kind=twoFactor');
      const kinds = audit.body.map((entry: any) => `${entry.kind} ${entry.actor.name}`);
      assert.ok(kinds.includes('twoFactor.recoveryCodeUsed boris'), kinds.join(', '));
      assert.ok(kinds.includes('twoFactor.enable anna'));
      for (const recovery of recoveryCodes) assert.ok(!audit.text.includes(recovery));
      const failed = await server.api.get('/v6/api/accountManagement/auditLog?kind=session.signInFailed');
      assert.ok(failed.body.some((entry: any) => entry.changes.reason.after === 'code'));
    });

    test('turning it off needs a code, and the audit log says so', async () => {
      tick();
      const first = await signIn(server, 'vera');
      const { secret } = await turnOn(server, first.signed!, now);
      const user = asUser(server, first.signed!);
      tick();
      assert.equal((await user.post('/workspace/api/twoFactor/disable', { code: '123456' })).status, 400);
      assert.equal((await user.post('/workspace/api/twoFactor/disable', { code: codeAt(secret, now) })).status, 204);
      tick();
      assert.equal((await signIn(server, 'vera')).status, 200);
      const audit = await server.api.get('/v6/api/accountManagement/auditLog?kind=twoFactor.disable');
      assert.deepEqual(audit.body.map((entry: any) => entry.actor.name), ['vera']);
      assert.ok(!audit.text.includes(secret));
    });

    test('an account that requires it leads a user without it to set it up before anything else', async () => {
      tick();
      assert.equal((await server.api.patch('/v6/api/accountManagement/account', { twoFactorRequired: true })).status, 204);
      assert.equal((await server.api.get('/v6/api/accountManagement/account')).body.twoFactorRequired, true);
      const { signed } = await signIn(server, 'vera');
      assert.equal(signed!.body.twoFactor.setupRequired, true);
      const user = asUser(server, signed!);
      const refused = await user.get('/v6/api/subscriberManagement/subscribers');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 1016);
      assert.equal((await user.get('/workspace/api/session')).status, 200);
      const { secret } = await turnOn(server, signed!, now);
      assert.equal((await user.get('/v6/api/subscriberManagement/subscribers')).status, 200);
      assert.equal((await user.get('/workspace/api/session')).body.twoFactor.setupRequired, false);
      // While required, it cannot be turned off.
      tick();
      assert.equal((await user.post('/workspace/api/twoFactor/disable', { code: codeAt(secret, now) })).status, 409);
    });

    test('a user an admin made, with a temporary password, on an account that requires it: the password first, then the code', async () => {
      tick();
      const temporary = 'gleb temporary password';
      const created = await server.api.post('/v6/api/userManagement/users', { login: 'gleb', role: 'dispatcher', password: temporary });
      assert.equal(created.status, 201, created.text);
      const base = new Client(server.baseUrl, null);
      const first = await base.post(SESSION, { login: 'gleb', password: temporary });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.mustChangePassword, true);
      assert.equal(first.body.twoFactor.setupRequired, true);
      const signed = { cookie: (first.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: first.body.csrfToken as string, body: first.body };
      const user = asUser(server, signed);
      const headers = { cookie: signed.cookie, 'x-csrf-token': signed.csrf };
      // Nothing but a new password while the admin's is in use: not even the second factor.
      const early = await user.post('/workspace/api/twoFactor/setup');
      assert.equal(early.status, 403);
      assert.equal(early.body.code, 1025);
      assert.equal((await base.put('/workspace/api/password', { currentPassword: temporary, newPassword: PASSWORD }, headers)).status, 204);
      const afterPassword = await user.get(SESSION);
      assert.equal(afterPassword.body.mustChangePassword, false);
      assert.equal(afterPassword.body.twoFactor.setupRequired, true);
      assert.equal((await user.get('/v6/api/subscriberManagement/subscribers')).body.code, 1016);
      const { secret } = await turnOn(server, signed, now);
      assert.equal((await user.get('/v6/api/subscriberManagement/subscribers')).status, 200);

      // A new temporary password from the admin leaves the second factor on: both are asked for.
      tick();
      const reset = 'gleb second temporary password';
      assert.equal((await server.api.patch(`/v6/api/userManagement/users/${created.body.userID}`, { password: reset })).status, 204);
      const without = await base.post(SESSION, { login: 'gleb', password: reset });
      assert.equal(without.status, 401);
      assert.equal(without.body.validationErrors.code, 'is required');
      const again = await base.post(SESSION, { login: 'gleb', password: reset, code: codeAt(secret, now) });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.mustChangePassword, true);
      assert.equal(again.body.twoFactor.setupRequired, false);
      const cookie = (again.headers.get('set-cookie') ?? '').split(';')[0]!;
      assert.equal((await base.get('/v6/api/subscriberManagement/subscribers', { cookie })).body.code, 1025);

      const audit = await server.api.get(`/v6/api/accountManagement/auditLog?userID=${created.body.userID}`);
      const kinds = audit.body.map((entry: any) => entry.kind);
      for (const kind of ['user.passwordChange', 'twoFactor.enable', 'session.signIn']) assert.ok(kinds.includes(kind), `${kind} missing from ${kinds.join(', ')}`);
      for (const secretText of [temporary, reset, PASSWORD, secret]) assert.ok(!audit.text.includes(secretText));
    });
  });
}
