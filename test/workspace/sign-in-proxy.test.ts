import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientOf } from '../../src/accounts/session-service.js';
import type { AppConfig } from '../../src/app.js';
import { Client, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

const PASSWORD = 'the admin password, long enough';
const ATTACKER = '203.0.113.66';
const USER = '198.51.100.7';

/** One sign-in of `admin` with X-Forwarded-For set as a proxy (here: the test itself, on loopback) would. */
function signIn(server: TestServer, password: string, forwardedFor: string) {
  return new Client(server.baseUrl, null).post('/workspace/api/session', { login: 'admin', password }, { 'x-forwarded-for': forwardedFor });
}

/** Five wrong passwords for `admin`, forwarded for `address`; each a 401. */
async function lockFrom(server: TestServer, address: (i: number) => string): Promise<void> {
  for (let i = 0; i < 5; i += 1) assert.equal((await signIn(server, `guess ${i}`, address(i))).status, 401);
}

describe('the client a failed sign-in is counted against', () => {
  it('is the address itself for IPv4 (also IPv4-mapped IPv6), the /64 for IPv6', () => {
    assert.equal(clientOf('203.0.113.66'), '203.0.113.66');
    assert.equal(clientOf('::ffff:203.0.113.66'), '203.0.113.66');
    assert.equal(clientOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientOf('2001:db8:1:2:ffff:ffff:ffff:fffe'), clientOf('2001:db8:1:2::1'));
    assert.notEqual(clientOf('2001:db8:1:3::1'), clientOf('2001:db8:1:2::1'));
  });
});

for (const dialect of dialects) {
  describe(`sign-in lock behind a reverse proxy (${dialect})`, () => {
    const servers: TestServer[] = [];
    async function serverWith(config: Partial<AppConfig>): Promise<TestServer> {
      const server = await startServer(dialect, { config });
      servers.push(server);
      await server.services.accounts.createUser(server.account.id, 'admin', PASSWORD);
      return server;
    }
    after(() => Promise.all(servers.map((s) => s.close())));

    describe('with TRUST_PROXY naming the proxy', () => {
      let server: TestServer;
      before(async () => {
        server = await serverWith({ TRUST_PROXY: ['127.0.0.1', '::1'] });
      });

      it('an attacker guessing from one address does not lock admin for a user at another', async () => {
        await lockFrom(server, () => ATTACKER);
        const locked = await signIn(server, PASSWORD, ATTACKER);
        assert.equal(locked.status, 429);
        assert.equal(locked.body.code, 1012);
        assert.ok(Number(locked.headers.get('retry-after')) > 0);
        assert.equal((await signIn(server, PASSWORD, USER)).status, 200);
        // The client is the address the trusted proxy appended, not what the client wrote before it.
        assert.equal((await signIn(server, PASSWORD, `${USER}, ${ATTACKER}`)).status, 429);
      });
    });

    describe('without TRUST_PROXY', () => {
      let server: TestServer;
      before(async () => {
        server = await serverWith({});
      });

      it('X-Forwarded-For is ignored: a fresh address in it does not dodge the lock', async () => {
        await lockFrom(server, (i) => `203.0.113.${i + 1}`);
        assert.equal((await signIn(server, PASSWORD, '203.0.113.200')).status, 429);
        assert.equal((await signIn(server, PASSWORD, USER)).status, 429);
      });
    });

    describe('with TRUST_PROXY naming another proxy', () => {
      let server: TestServer;
      before(async () => {
        server = await serverWith({ TRUST_PROXY: ['10.20.30.40', '192.168.0.0/16'] });
      });

      it('a peer not listed is the client itself, whatever X-Forwarded-For it sends', async () => {
        await lockFrom(server, (i) => `203.0.113.${i + 1}`);
        assert.equal((await signIn(server, PASSWORD, '203.0.113.200')).status, 429);
      });
    });
  });
}
