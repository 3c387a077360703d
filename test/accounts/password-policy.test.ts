import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '../../src/accounts/password-policy.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ADMIN_TOKEN, Client, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const GOOD = 'an old password that works';

describe('the password policy', () => {
  it('takes exactly the passwords of 15 to 1000 characters, counted in code points (oracle: Array.from)', () => {
    const around = (n: number) => fc.integer({ min: Math.max(0, n - 3), max: n + 3 });
    const length = fc.oneof(around(PASSWORD_MIN_LENGTH), around(PASSWORD_MAX_LENGTH), fc.integer({ min: 0, max: 1100 }));
    const password = length.chain((n) => fc.string({ unit: 'binary', minLength: n, maxLength: n }));
    fc.assert(
      fc.property(password, (p) => {
        const codePoints = Array.from(p).length;
        assert.equal(passwordProblem(p) === null, codePoints >= PASSWORD_MIN_LENGTH && codePoints <= PASSWORD_MAX_LENGTH);
      }),
      { seed: 9, numRuns: 400 },
    );
  });

  it('LOKATOR_BOOTSTRAP_PASSWORD follows it: 15 characters load, 14 are refused with its words', () => {
    assert.equal(loadConfig({ LOKATOR_BOOTSTRAP_PASSWORD: '🔑'.repeat(15) }).LOKATOR_BOOTSTRAP_PASSWORD, '🔑'.repeat(15));
    assert.throws(() => loadConfig({ LOKATOR_BOOTSTRAP_PASSWORD: '🔑'.repeat(14) }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, new RegExp(`LOKATOR_BOOTSTRAP_PASSWORD \\(value not shown\\): ${passwordProblem('short')}`));
      return true;
    });
  });
});

for (const dialect of dialects) {
  describe(`the password policy at the routes (${dialect})`, () => {
    let server: TestServer;
    const operator = () => new Client(server.baseUrl, ADMIN_TOKEN);
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('the operator’s new user: 14 characters are refused and nothing is created; 15 are taken', async () => {
      const users = `/admin/v1/accounts/${server.account.id}/users`;
      const short = await operator().post(users, { login: 'fourteen', password: '🔑'.repeat(14) });
      assert.equal(short.status, 400, short.text);
      assert.equal(short.body.code, 2);
      assert.deepEqual(short.body.validationErrors, { password: passwordProblem('short') });
      assert.equal((await new Client(server.baseUrl, null).post('/workspace/api/session', { login: 'fourteen', password: '🔑'.repeat(14) })).status, 401);
      assert.equal((await operator().post(users, { login: 'fourteen', password: '🔑'.repeat(15) })).status, 201);
    });

    it('a changed password: 14 characters are refused and the old one still works; 15 are taken', async () => {
      await server.services.accounts.createUser(server.account.id, 'changer', GOOD);
      const anonymous = new Client(server.baseUrl, null);
      const signedIn = await anonymous.post('/workspace/api/session', { login: 'changer', password: GOOD });
      const headers = { cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!, 'x-csrf-token': signedIn.body.csrfToken as string };
      const short = await anonymous.put('/workspace/api/password', { currentPassword: GOOD, newPassword: 'x'.repeat(14) }, headers);
      assert.equal(short.status, 400, short.text);
      assert.deepEqual(short.body.validationErrors, { newPassword: passwordProblem('short') });
      assert.equal((await anonymous.post('/workspace/api/session', { login: 'changer', password: GOOD })).status, 200);
      assert.equal((await anonymous.put('/workspace/api/password', { currentPassword: GOOD, newPassword: 'x'.repeat(15) }, headers)).status, 204);
      assert.equal((await anonymous.post('/workspace/api/session', { login: 'changer', password: 'x'.repeat(15) })).status, 200);
    });
  });
}
